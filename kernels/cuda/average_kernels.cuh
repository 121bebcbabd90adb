#pragma once
// The mean fields' sample kernel (output.averages): one thread per cell adds the cell's density and velocity to its
// running statistics in device memory with kernels/physics/field_averages.hpp's sample_cell, the code the CPU
// backend runs, so both hold the same bits after the same samples.
#include <cstdint>

#include "kernels/physics/field_averages.hpp"

namespace aerolbm::cuda {

template <class L, class R, class Acc>
__global__ void __launch_bounds__(256) sample_averages_kernel(GridView g, StepConstants<R> k, Acc acc,
                                                              field_averages::View v, double count) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  field_averages::sample_cell<L, R>(k, acc, n, v, count);
}

}  // namespace aerolbm::cuda
