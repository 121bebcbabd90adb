#pragma once
// MPI halo exchange on the device (src/parallel): pack the listed populations of the listed cells into a contiguous
// buffer, and unpack a received buffer into the state.
#include <cstdint>

namespace aerolbm::cuda {

// Value k of a halo buffer = population dirs[k / m] of cell cells[k % m] (the layout Backend::halo_pack documents).
template <class T>
__global__ void halo_pack_kernel(const T* __restrict__ state, std::int64_t cells_total,
                                 const std::int64_t* __restrict__ cells, std::int64_t m,
                                 const int* __restrict__ dirs, int nd, T* __restrict__ out) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= m * nd) return;
  out[k] = state[std::int64_t(dirs[k / m]) * cells_total + cells[k % m]];
}

template <class T>
__global__ void halo_unpack_kernel(T* __restrict__ state, std::int64_t cells_total,
                                   const std::int64_t* __restrict__ cells, std::int64_t m,
                                   const int* __restrict__ dirs, int nd, const T* __restrict__ in) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= m * nd) return;
  state[std::int64_t(dirs[k / m]) * cells_total + cells[k % m]] = in[k];
}

// One of the two buffers a frame travels through: device arrays the macroscopic kernel fills, pinned host arrays

}  // namespace aerolbm::cuda
