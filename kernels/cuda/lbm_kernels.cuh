#pragma once
// The stream-collide kernel variants and the helper kernels of the CUDA backend. All call the per-cell physics in
// kernels/physics; they differ only in how a cell's incoming populations are fetched.
#include "kernels/physics/cell_update.hpp"
#include "kernels/storage/aa_lattice.hpp"
#include "kernels/storage/two_lattice.hpp"

namespace aerolbm::cuda {

// Every variant updates the interior cells only; the cells at faces and walls (a few per cent) are updated by
// stream_collide_boundary from a list. Keeping the boundary code (non-inlined calls that take their arguments by
// reference) out of the bulk kernels keeps those free of stack traffic.

// Variant "pull": one thread per cell, each population read straight from global memory (coalesced along x).
template <class L, class T, class R>
__global__ void __launch_bounds__(128) stream_collide_pull(GridView g, StepConstants<R> k, const T* __restrict__ src,
                                                           T* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y, z = blockIdx.z;
  if (x >= g.n[0]) return;
  const std::int64_t n = g.index(x, y, z);
  if (!is_interior<L>(g, g.flags[n], x, y, z)) return;
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  R f[L::Q];
  pull_interior<L, R>(g, acc, x, y, z, f);
  collide_and_store<L, R>(k, acc, n, f);
}

// The cells next to walls and faces and the open-boundary nodes, from a list: the generic per-cell update.
template <class L, class T, class R>
__global__ void stream_collide_boundary(GridView g, StepConstants<R> k, const T* __restrict__ src,
                                        T* __restrict__ dst, const std::int64_t* __restrict__ cells,
                                        std::int64_t count) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= count) return;
  const std::int64_t n = cells[r];
  const int x = int(n % g.n[0]), y = int((n / g.n[0]) % g.n[1]), z = int(n / (std::int64_t(g.n[0]) * g.n[1]));
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  update_cell<L, R>(g, k, acc, x, y, z);
}

// Variant "tiled": a block of TX×TY cells stages each population's tile plus a one-cell halo in shared memory,
// synchronises, and streams from there (the classic CUDA tiling pattern). Each population is read once per cell either way, so the tile buys no reuse;
// the benchmark says what it costs.
inline constexpr int kTileX = 32, kTileY = 8;

template <class L, class T, class R>
__global__ void __launch_bounds__(kTileX * kTileY) stream_collide_tiled(GridView g, StepConstants<R> k,
                                                                        const T* __restrict__ src,
                                                                        T* __restrict__ dst) {
  constexpr int HX = kTileX + 2, HY = kTileY + 2;
  __shared__ R tile[HY * HX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kTileY, z = blockIdx.z;
  const int x = x0 + tx, y = y0 + ty;
  const bool inside = x < g.n[0] && y < g.n[1];
  const std::int64_t n = inside ? g.index(x, y, z) : 0;
  const std::uint8_t flag = inside ? g.flags[n] : cell::solid;
  const bool interior = inside && is_tile_interior<L>(g, flag, x, y, z);
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  R f[L::Q];
  const int tid = ty * kTileX + tx;
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    // The plane this population streams from (3D), and the tile plus halo around the block in it.
    const int zs = z - L::c(i, 2);
    for (int e = tid; e < HX * HY; e += kTileX * kTileY) {
      const int hx = x0 - 1 + e % HX, hy = y0 - 1 + e / HX;
      if (hx >= 0 && hx < g.n[0] && hy >= 0 && hy < g.n[1] && zs >= 0 && zs < g.n[2]) {
        tile[e] = R(src[std::int64_t(i) * g.cells + g.index(hx, hy, zs)]);
      }
    }
    __syncthreads();
    if (interior) f[i] = tile[(ty + 1 - L::c(i, 1)) * HX + (tx + 1 - L::c(i, 0))];
    __syncthreads();
  }
  if (interior) collide_and_store<L, R>(k, acc, n, f);
}

// Variant "aa": one lattice updated in place (kernels/storage/aa_lattice.hpp); `Odd` picks the layout (steps done
// so far, mod 2). Interior cells only; the boundary cells run stream_collide_aa_boundary from the snapshot, after
// aa_gather_kernel.
template <class L, class T, class R, bool Odd>
__global__ void __launch_bounds__(128) stream_collide_aa(GridView g, StepConstants<R> k, T* __restrict__ f) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y, z = blockIdx.z;
  if (x >= g.n[0]) return;
  if (!is_interior<L>(g, g.flags[g.index(x, y, z)], x, y, z)) return;
  aa_interior_update<L, T, R, Odd>(g, k, f, x, y, z);
}

template <class L, class T>
__global__ void aa_gather_kernel(GridView g, AAStorage<T> s) {
  const std::int64_t r = s.boundary_rows + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < s.rows) aa_gather_row<L>(g, s, r);
}

template <class L, class T, class R>
__global__ void stream_collide_aa_boundary(GridView g, StepConstants<R> k, AAStorage<T> s) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= s.boundary_rows) return;
  int x[3];
  aa_coords(g, s.row_cell[r], x);
  AABoundaryAccess<L, T, R> acc{g, s};
  update_cell<L, R>(g, k, acc, x[0], x[1], x[2]);
}

// The kernels below see the state through an accessor (get(i, n) = post-collision f_i of cell n; put sets it),
// so they serve the two-lattice and the in-place storage alike.
template <class L, class R, class Acc>
__global__ void initialize_kernel(GridView g, StepConstants<R> k, Acc acc) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  initialize_cell<L, R>(g, k, acc, n);
}

template <class L, class R, class Acc>
__global__ void wall_force_kernel(GridView g, StepConstants<R> k, Acc acc, const std::int64_t* __restrict__ rows,
                                  std::int64_t nrows, double* __restrict__ out) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= nrows) return;
  double F[3];
  wall_force_cell<L, R>(g, k, acc, rows[r], F);
  out[r] = F[0];
  out[nrows + r] = F[1];
  out[2 * nrows + r] = F[2];
}

template <class L, class R, class Acc>
__global__ void macroscopic_kernel(GridView g, StepConstants<R> k, Acc acc, float* __restrict__ rho,
                                   float* __restrict__ u) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  R r, v[3];
  cell_macroscopic<L, R>(k, acc, n, r, v);
  rho[n] = float(r);
  u[3 * n] = float(v[0]);
  u[3 * n + 1] = float(v[1]);
  u[3 * n + 2] = float(v[2]);
}

// Divergence watchdog: the lowest index of a cell that is not sane (atomicMin; `first` starts at `cells`).
template <class L, class R, class Acc>
__global__ void check_state_kernel(GridView g, StepConstants<R> k, Acc acc, R max_speed, unsigned long long* first) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  R speed = 0;
  if (!cell_is_sane<L, R>(g, k, acc, n, max_speed, speed)) atomicMin(first, static_cast<unsigned long long>(n));
}

// The speed of one cell (NaN when not finite), for the watchdog's message.
template <class L, class R, class Acc>
__global__ void cell_speed_kernel(GridView g, StepConstants<R> k, Acc acc, std::int64_t n, double* out) {
  R speed = 0;
  cell_is_sane<L, R>(g, k, acc, n, R(1), speed);
  *out = double(speed);
}

// The state as shifted populations in double, natural SoA layout (checkpoints, comparisons), and back.
template <class L, class R, class Acc>
__global__ void state_to_double_kernel(GridView g, Acc acc, double* __restrict__ out) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  for (int i = 0; i < L::Q; ++i) out[std::int64_t(i) * g.cells + n] = double(acc.get(i, n));
}
template <class L, class R, class Acc>
__global__ void state_from_double_kernel(GridView g, Acc acc, const double* __restrict__ in) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  for (int i = 0; i < L::Q; ++i) acc.put(i, n, R(in[std::int64_t(i) * g.cells + n]));
}

}  // namespace aerolbm::cuda
