#pragma once
// Internal: per-head-dim launch functions of the fused attention (defined in attention_fwd_d*.cu).
#include <cuda_runtime.h>

namespace aerolbm::attention::detail {

struct FwdParams;

struct KernelInfo {
  int threads = 0, smem_bytes = 0;
  int block_rows = 0, block_keys = 0;  // query rows per CTA, keys per K/V tile
  int warps = 0;
  int blocks_per_sm = 0, sms = 0;      // occupancy of the main kernel on the current device
};

// D: head dim; V: tile variant (TileFor in attention_tile.cuh).
template <int D, int V>
KernelInfo kernel_info();
// The main kernel and, when p.splits > 1, the combine kernel, on `stream`.
template <int D, int V>
void launch_fwd(const FwdParams& p, cudaStream_t stream);

}  // namespace aerolbm::attention::detail
