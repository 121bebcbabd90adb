// CPU-only builds: the CUDA forward pass exists and says that there is none.
#ifndef AEROLBM_HAVE_SURROGATE_CUDA
#include <stdexcept>

#include "src/surrogate/cuda_inference.hpp"

namespace aerolbm::surrogate {

std::unique_ptr<CudaSurrogate> make_cuda_surrogate(const Model&) {
  throw std::runtime_error("this build has no CUDA surrogate inference (built without CUDA or without cuBLAS); "
                           "use --backend cpu");
}

}  // namespace aerolbm::surrogate
#endif
