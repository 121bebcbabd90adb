// The CUDA backend for D3Q19 with the entropic collision (EntropicCollision, kernels/physics/collision.hpp), in a
// translation unit of its own.
#include "kernels/cuda/cuda_backend.cuh"

namespace aerolbm {

template std::unique_ptr<Backend> make_cuda_backend_for<EntropicCollision<D3Q19>>(const BackendConfig&,
                                                                            const DomainData&, const PhysicsParams&);

}  // namespace aerolbm
