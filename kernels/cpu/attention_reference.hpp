#pragma once
// Reference softmax attention on the CPU: O = softmax(scale * Q K^T) V for every batch and head, accumulated in
// double (OpenMP over batch, head and query row). It is what the fused CUDA kernel is tested against and the
// attention of the surrogate's CPU inference path. Layouts and strides as in kernels/attention/attention_layout.hpp
// (bnhd_strides reads the [tokens, heads * d] output of a Linear layer directly).
#include "kernels/attention/attention_layout.hpp"

namespace aerolbm::attention {

void attention_reference(const Dims& dims, double scale, const float* q, const Strides& qs, const float* k,
                         const Strides& ks, const float* v, const Strides& vs, float* o, const Strides& os);
void attention_reference(const Dims& dims, double scale, const double* q, const Strides& qs, const double* k,
                         const Strides& ks, const double* v, const Strides& vs, double* o, const Strides& os);

}  // namespace aerolbm::attention
