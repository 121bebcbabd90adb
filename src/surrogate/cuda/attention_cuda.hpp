#pragma once
// The surrogate's attention on the GPU: out = softmax(q kᵀ · scale) v per batch and head, fp32 in and out.
// Layout (the one the dense layers produce): q, k, v, out [B, N, H·d] row-major, head h in columns h·d .. h·d+d−1.
// This is the single entry point the CUDA forward pass calls, so that it can be routed to the fused bf16 kernel
// (kernels/attention, attention_forward with [B, N, H·d] strides) without touching the rest. Head sizes 32, 64
// and 128 go to that fused kernel (q, k, v converted to bf16 on the device); other sizes, builds without it, or
// AEROLBM_SURROGATE_ATTENTION=simple use a simple fp32 kernel: one thread per query, keys and values staged in
// shared memory in tiles, online softmax; d ≤ 128.
#include <cuda_runtime.h>

namespace aerolbm::surrogate {

void surrogate_attention_cuda(const float* q, const float* k, const float* v, float* out, int B, int H, int N, int d,
                              float scale, cudaStream_t stream);

}  // namespace aerolbm::surrogate
