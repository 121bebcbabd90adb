// CPU backend: the lattice chosen at run time; the backend itself is in cpu_backend_impl.hpp, one lattice per file.
#include <stdexcept>

#include "kernels/backend.hpp"
#include "kernels/backend_factory.hpp"
#include "kernels/grid_fits_lattice.hpp"
#include "kernels/lattice/lattice.hpp"

namespace aerolbm {
namespace cpu {
// Defined (explicitly instantiated) in cpu_backend_d2q9.cpp, cpu_backend_d3q19.cpp and cpu_backend_d3q27.cpp.
template <class L>
std::unique_ptr<Backend> make_cpu_backend_for(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p);
}  // namespace cpu

std::unique_ptr<Backend> make_cpu_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  return with_lattice(cfg.stencil, [&](auto l) {
    require_grid_fits_lattice<decltype(l)>(cfg, d);
    return cpu::make_cpu_backend_for<decltype(l)>(cfg, d, p);
  });
}

int lattice_q(Stencil s) {
  return with_lattice(s, [](auto l) { return decltype(l)::Q; });
}

}  // namespace aerolbm
