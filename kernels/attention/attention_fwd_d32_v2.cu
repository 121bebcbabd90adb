// Fused attention instantiated for head dimension 32, tile variant 2 (one file each: ptxas runs them in parallel).
#include "kernels/attention/attention_kernels.cuh"

namespace aerolbm::attention::detail {
AEROLBM_ATTENTION_INSTANTIATE(32, 2)
}  // namespace aerolbm::attention::detail
