// make_cuda_backend: the backend of the case's lattice (each lattice's backend is compiled in its own file).
#include <stdexcept>

#include "kernels/backend.hpp"
#include "kernels/backend_factory.hpp"
#include "kernels/cuda/cuda_backend_factory.hpp"

namespace aerolbm {

std::unique_ptr<Backend> make_cuda_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  return with_lattice(cfg.stencil, [&](auto l) { return make_cuda_backend_for<decltype(l)>(cfg, d, p); });
}

}  // namespace aerolbm
