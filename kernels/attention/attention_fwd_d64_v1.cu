// Fused attention instantiated for head dimension 64, tile variant 1 (one file each: ptxas runs them in parallel).
#include "kernels/attention/attention_kernels.cuh"

namespace aerolbm::attention::detail {
AEROLBM_ATTENTION_INSTANTIATE(64, 1)
}  // namespace aerolbm::attention::detail
