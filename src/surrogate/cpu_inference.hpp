#pragma once
// The CPU reference forward pass (plain C++ with OpenMP, fp32 storage, fp32 accumulation in blocked loops; the
// softmax runs in fp32 with the running maximum subtracted). Matches PyTorch's fp32 output to about 1e-6.
#include <array>
#include <vector>

#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

// Raw points [T, 4] and raw params → raw outputs u, v, Cp [T, 3] and, when the model has the coefficient head
// (version 2), raw C_L, C_D. T is points.size() / 4 (any T ≥ 1).
NetworkOutput forward_cpu(const Model& m, const std::vector<float>& points,
                          const std::array<float, kParamFeatures>& params);

// Y [T, out] = X [T, in] · Wᵀ + b.
void linear_cpu(const Linear& l, const float* X, float* Y, std::int64_t T);

// Row-wise LayerNorm (eps 1e-5) of X [T, D] into Y.
void layer_norm_cpu(const LayerNormWeights& n, const float* X, float* Y, std::int64_t T, int D);

// Full softmax self-attention, heads side by side in the columns: q, k, v, out [T, H·d] row-major; head h uses
// columns h·d .. h·d + d − 1. out = softmax(q kᵀ · scale) v per head. Plain two-pass softmax per query row: the
// simple reference the CUDA kernels are checked against (not FlashAttention).
void attention_cpu(const float* q, const float* k, const float* v, float* out, std::int64_t T, int H, int d,
                   float scale);

// The coefficient head's pooling: scores S = A·scoreᵀ + b [T, P], and for each p the softmax over the tokens of
// S[:, p] weighting the rows of A [T, D] → pooled [P, D] (row p = pooling head p). Sums in double.
std::vector<float> attention_pool_cpu(const Linear& score, const float* A, std::int64_t T, int D);

}  // namespace aerolbm::surrogate
