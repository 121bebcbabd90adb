#pragma once
// Shapes and memory layouts of attention tensors, shared by the CUDA kernel (kernels/attention/attention.hpp) and
// the CPU reference (kernels/cpu/attention_reference.hpp). Plain C++, no CUDA.
//
// A tensor holds, for batch b, head h, row (token) n and feature i < head_dim, the element
//     data[b * batch + h * head + n * row + i]          (strides in elements; features are contiguous)
// Two layouts are named:
//   bhnd: [B, H, N, d], the layout of PyTorch's scaled_dot_product_attention inputs;
//   bnhd: [B, N, H*d], the output of a Linear layer of width H*d read as H heads without a copy
//         (the surrogate's q/k/v projections, postprocess/surrogate/SCHEMA.md).
#include <cstdint>

namespace aerolbm::attention {

struct Dims {
  int batch = 1;
  int heads = 1;
  int nq = 0;        // query rows (and output rows)
  int nk = 0;        // key / value rows; nq != nk is cross-attention
  int head_dim = 0;  // d
};

struct Strides {
  std::int64_t batch = 0, head = 0, row = 0;  // in elements
  std::int64_t at(int b, int h, std::int64_t n) const { return b * batch + h * head + n * row; }
};

inline Strides bhnd_strides(int heads, std::int64_t n, int d) { return {heads * n * d, n * d, d}; }
inline Strides bnhd_strides(int heads, std::int64_t n, int d) {
  return {n * heads * d, std::int64_t(d), std::int64_t(heads) * d};
}

// Matrix-product FLOPs of one attention (QK^T and PV, 2 per multiply-add): the benchmark's 4*B*H*Nq*Nk*d.
inline double attention_flops(const Dims& s) {
  return 4.0 * s.batch * s.heads * double(s.nq) * double(s.nk) * s.head_dim;
}

}  // namespace aerolbm::attention
