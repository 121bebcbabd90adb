// CPU backend: the lattice chosen at run time; the backend itself is in cpu_backend_impl.hpp, one lattice per file.
#include <stdexcept>

#include "kernels/backend.hpp"
#include "kernels/lattice/lattice.hpp"

namespace aerolbm {
namespace cpu {
// Defined (explicitly instantiated) in cpu_backend_d2q9.cpp, cpu_backend_d3q19.cpp and cpu_backend_d3q27.cpp.
template <class L>
std::unique_ptr<Backend> make_cpu_backend_for(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p);
}  // namespace cpu

std::unique_ptr<Backend> make_cpu_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  switch (cfg.stencil) {
    case Stencil::D2Q9: return cpu::make_cpu_backend_for<D2Q9>(cfg, d, p);
    case Stencil::D3Q19: return cpu::make_cpu_backend_for<D3Q19>(cfg, d, p);
    case Stencil::D3Q27: return cpu::make_cpu_backend_for<D3Q27>(cfg, d, p);
  }
  throw std::invalid_argument("unknown stencil");
}

int lattice_q(Stencil s) {
  switch (s) {
    case Stencil::D2Q9: return 9;
    case Stencil::D3Q19: return 19;
    case Stencil::D3Q27: return 27;
  }
  return 0;
}

}  // namespace aerolbm
