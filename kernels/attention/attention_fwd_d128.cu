// Fused attention instantiated for head dimension 128 (one file per head dimension: ptxas runs them in parallel).
#include "kernels/attention/attention_kernels.cuh"

namespace aerolbm::attention::detail {
AEROLBM_ATTENTION_INSTANTIATE(128)
}  // namespace aerolbm::attention::detail
