// The CUDA backend for D2Q9 with the entropic collision (EntropicCollision, kernels/physics/collision.hpp), in a
// translation unit of its own.
#include "kernels/cuda/cuda_backend.cuh"

namespace aerolbm {

template std::unique_ptr<Backend> make_cuda_backend_for<EntropicCollision<D2Q9>>(const BackendConfig&,
                                                                            const DomainData&, const PhysicsParams&);

}  // namespace aerolbm
