// make_cuda_backend: the backend of the case's lattice and collision family (each compiled in its own file).
#include <stdexcept>

#include "kernels/backend.hpp"
#include "kernels/backend_factory.hpp"
#include "kernels/cuda/cuda_backend_factory.hpp"
#include "kernels/grid_fits_lattice.hpp"

namespace aerolbm {

std::unique_ptr<Backend> make_cuda_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  return with_lattice(cfg.stencil, [&](auto l) {
    using L = decltype(l);
    require_grid_fits_lattice<L>(cfg, d);
    return p.collision == Collision::KBC ? make_cuda_backend_for<EntropicCollision<L>>(cfg, d, p)
                                         : make_cuda_backend_for<L>(cfg, d, p);
  });
}

}  // namespace aerolbm
