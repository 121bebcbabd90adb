#pragma once
// The finished output fields of a frame computed on the GPU (kernels/cuda/frame_fields.cu), with the per-cell
// formulas of kernels/physics/frame_fields.hpp that the host frame builder runs too: the results are the host's
// bit for bit. A plain launcher: raw device pointers, sizes, the scales and a stream.
#include <cuda_runtime.h>

#include <cstdint>

namespace aerolbm::cuda {

// Over the whole grid (nx × ny × nz cells, x fastest): from the cell flags, the lattice density `rho` (1 per cell)
// and velocity `u` (3 per cell, interleaved), writes every output whose pointer is not null:
//   velocity     u/U, 3 per cell (0 in solids)          pressure     Cp, 1 per cell (0 in solids)
//   density      ρ, 1 per cell (a copy of rho)          vorticity    ωL/U, 1 per cell in 2D (nz = 1), 3 in 3D
//   q_criterion  Q (U/L)², 1 per cell                   (vorticity and Q are 0 in solids)
// u_ref: reference speed in lattice units; dx: cell size in reference lengths. Enqueued on `stream`; launch
// errors are thrown as std::runtime_error.
void launch_frame_fields(const std::uint8_t* flags, std::int64_t nx, std::int64_t ny, std::int64_t nz,
                         const float* rho, const float* u, double u_ref, double dx, float* velocity, float* pressure,
                         float* density, float* vorticity, float* q_criterion, cudaStream_t stream);

}  // namespace aerolbm::cuda
