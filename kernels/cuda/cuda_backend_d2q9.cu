// The CUDA backend for D2Q9 (kernels/cuda/cuda_backend.cuh), in a translation unit of its own.
#include "kernels/cuda/cuda_backend.cuh"

namespace aerolbm {

template std::unique_ptr<Backend> make_cuda_backend_for<D2Q9>(const BackendConfig&, const DomainData&,
                                                            const PhysicsParams&);

}  // namespace aerolbm
