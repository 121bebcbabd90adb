// make_cuda_backend: the backend of the case's lattice and collision family (each compiled in its own file).
#include <stdexcept>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_backend_factory.hpp"

namespace aerolbm {

std::unique_ptr<Backend> make_cuda_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  const bool kbc = p.collision == Collision::KBC;
  switch (cfg.stencil) {
    case Stencil::D2Q9:
      return kbc ? make_cuda_backend_for<EntropicCollision<D2Q9>>(cfg, d, p) : make_cuda_backend_for<D2Q9>(cfg, d, p);
    case Stencil::D3Q19:
      return kbc ? make_cuda_backend_for<EntropicCollision<D3Q19>>(cfg, d, p)
                 : make_cuda_backend_for<D3Q19>(cfg, d, p);
    case Stencil::D3Q27:
      return kbc ? make_cuda_backend_for<EntropicCollision<D3Q27>>(cfg, d, p)
                 : make_cuda_backend_for<D3Q27>(cfg, d, p);
  }
  throw std::invalid_argument("unknown stencil");
}

}  // namespace aerolbm
