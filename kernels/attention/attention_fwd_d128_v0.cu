// Fused attention instantiated for head dimension 128, tile variant 0 (one file each: ptxas runs them in parallel).
#include "kernels/attention/attention_kernels.cuh"

namespace aerolbm::attention::detail {
AEROLBM_ATTENTION_INSTANTIATE(128, 0)
}  // namespace aerolbm::attention::detail
