#pragma once
// The stream-collide kernel variants and the helper kernels of the CUDA backend. All call the per-cell physics in
// kernels/physics; they differ only in how a cell's incoming populations are fetched.
#include "kernels/backend.hpp"
#include "kernels/physics/cell_update.hpp"
#include "kernels/storage/aa_lattice.hpp"
#include "kernels/storage/boundary_list.hpp"
#include "kernels/storage/two_lattice.hpp"

namespace aerolbm::cuda {

// The pull and in-place kernels update every cell of the grid in one pass: interior cells take the plain pull (or
// the in-place update), cells next to walls and faces and the open-boundary nodes take the boundary functions of
// kernels/physics inline, with their populations in registers. A warp that holds both kinds runs the two fetch
// paths one after the other, then collides once; warps wholly in the interior or wholly on a face do not diverge.
// The tiled variant keeps a separate pass over a list of boundary cells (its tile has no halo across faces), and so
// does the split pull step on large 3D grids (stream_collide_pull_plane); the block-role kernels take the list in
// blocks of the same launch.

AEROLBM_HD bool on_edge(const EdgeLayers& e, int x, int y, int z) {
  return x == e.lo[0] || x == e.hi[0] || y == e.lo[1] || y == e.hi[1] || z == e.lo[2] || z == e.hi[2];
}

// Programmatic dependent launch (sm_90): a kernel lets the next one in its stream start before it ends
// (launch_trigger, here at the start of each block: the next kernel starts once every block of this one has
// started), and the next one waits for it where it needs to (grid_wait). Elsewhere both are no-ops and the launches
// follow each other as usual.
__device__ __forceinline__ void launch_trigger() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}
__device__ __forceinline__ void grid_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

// The step kernels' threads cover each z-plane (a 2D grid's only plane) row after row without gaps: block x of
// plane z holds the cells p = 128·x + t of that plane, in index order. Blocks per row would leave the last block of
// every row part empty where nx is not a multiple of 128 (a 400-cell row: 4 blocks for 3.125 blocks' worth, 22 %
// of the thread slots idle), and would put a row's first and last cells (an inlet and an outlet node) in two
// different warps, each diverging from its 31 interior neighbours, where here they are mostly in one.
inline constexpr int kStepBlock = 128;
inline dim3 plane_grid(const GridView& g) {
  return dim3(unsigned((std::int64_t(g.n[0]) * g.n[1] + kStepBlock - 1) / kStepBlock), unsigned(g.n[2]), 1);
}
// The cell of this thread in block `bx` of plane `bz`.
__device__ inline bool plane_cell_of(const GridView& g, unsigned bx, unsigned bz, int& x, int& y, int& z) {
  const unsigned p = bx * unsigned(kStepBlock) + threadIdx.x;
  const unsigned nx = unsigned(g.n[0]);
  if (p >= nx * unsigned(g.n[1])) return false;
  y = int(g.row_of.divide(p));
  x = int(p - unsigned(y) * nx);
  z = int(bz);
  return true;
}
__device__ inline bool plane_cell(const GridView& g, int& x, int& y, int& z) {
  return plane_cell_of(g, blockIdx.x, blockIdx.y, x, y, z);
}

// Block roles: a one-dimensional launch whose first `list_blocks` blocks take the entries of a boundary list (one
// per thread) and whose other blocks cover the planes as plane_grid does (`plane_blocks` per plane). Boundary
// cells then never share a warp with interior cells (a warp holding one inlet cell and 31 interior cells ran both
// paths, and held its slot for the longer), their flag, wall row and masks come in one list entry, and they start
// first, so their longer chains of loads do not make the tail of the step.
struct BlockRoles {
  const BoundaryCell* cells;
  std::int64_t count;
  unsigned list_blocks, plane_blocks;
  FastDivisor plane_of;  // divides a plane block's number by plane_blocks
};
inline BlockRoles block_roles(const GridView& g, const BoundaryCell* cells, std::int64_t count) {
  const unsigned plane_blocks = unsigned((std::int64_t(g.n[0]) * g.n[1] + kStepBlock - 1) / kStepBlock);
  return BlockRoles{cells, count, unsigned((count + kStepBlock - 1) / kStepBlock), plane_blocks,
                    FastDivisor(plane_blocks)};
}
inline unsigned role_blocks(const GridView& g, const BlockRoles& r) {
  return r.list_blocks + r.plane_blocks * unsigned(g.n[2]);
}
// This thread's entry r of the list (in a list block; false past the list's end).
__device__ inline bool role_list_entry(const BlockRoles& roles, std::int64_t& r) {
  r = std::int64_t(blockIdx.x) * kStepBlock + threadIdx.x;
  return r < roles.count;
}
// This thread's interior cell (false: a list block, or past the plane's end).
__device__ inline bool role_plane_cell(const GridView& g, const BlockRoles& r, int& x, int& y, int& z) {
  const unsigned b = blockIdx.x - r.list_blocks;
  const unsigned bz = r.plane_of.divide(b);
  return plane_cell_of(g, b - bz * r.plane_blocks, bz, x, y, z);
}

// Blocks of 128 threads that each multiprocessor should hold at once: a register budget for the one-pass kernels
// (65,536 registers / (128 × blocks)). Their boundary path needs more registers than the interior path, and the
// compiler sizes the kernel for the larger; capping it keeps enough warps in flight for the interior's loads.
// D3Q19: 8 blocks (64 registers) spilled 8 bytes on the boundary path of every warp (1.76 M local-memory requests
// per step on the swept wing); 7 blocks leave 73 and it takes 72 with no stack. D3Q27: 5 blocks, no spill (6: 4
// bytes). kernels/PERFORMANCE.md has the measurements.
template <class L>
inline constexpr int kMinBlocks = L::Q <= 9 ? 10 : (L::Q <= 19 ? 7 : 5);
// The block-role kernels. D2Q9: the box's budget (12 blocks, 40 registers); the list path spills 32-36 bytes there
// (ptxas, CUDA 13.0), touched only by the list blocks (913 local-memory requests per step on the cylinder).
// D3Q19: the one-pass kernel's 7 blocks; at the box's 8 (64 registers) the list path spilled 24-28 bytes and the
// 3D wing ran at 73 % of its box against 81 % for the one-pass kernel (kernels/PERFORMANCE.md).
// The entropic collision's D2Q9 kernel takes the one-pass budget (10 blocks, 48 registers): at 12 its list path
// spilled 80-124 bytes (ptxas, CUDA 13.0).
template <class L>
inline constexpr int kMinBlocksRoles = kEntropicLattice<L> ? kMinBlocks<L> : (L::Q <= 9 ? 12 : (L::Q <= 19 ? 7 : 5));
// The split pull step's plane kernel (stream_collide_pull_plane): the interior path, and in 3D the open faces', without
// the list path. D3Q19: the box's 8 blocks (64 registers); the sponge spills 4 bytes there (949,296 spill requests per step on
// the 3D wing, Nsight Compute, 2026-12-04) and the kernel takes 623 us against the box kernel's 564 us for the same
// cells, where the block-role kernel at 7 blocks took 699 us (2026-12-02). Without the spill it was no faster: the
// sponge's instructions, not its spill, make the difference (kernels/PERFORMANCE.md). D2Q9 the
// block-role kernel's 12; D3Q27 one more than the one-pass kernels' 5. The entropic collision keeps the one-pass
// budget. (Tried: the open-face path as a call the compiler does not inline, so that it would keep its registers
// to itself: the spills stayed, 866,400, and the kernel took 897 us.)
template <class L>
inline constexpr int kMinBlocksPlane = kEntropicLattice<L> ? kMinBlocks<L> : (L::Q <= 9 ? 12 : (L::Q <= 19 ? 8 : 6));
// The periodic box's pull kernel (no boundary path) is uncapped for BGK and TRT (32-64 registers). The entropic
// collision's live values took it to 63 registers for D2Q9 and 102 for D3Q19: 45 % and 23 % achieved occupancy,
// 62 % and 55 % of DRAM peak against BGK's 77 % and 75 % (Nsight Compute, H200, 2026-12-02). It gets the one-pass
// kernels' budget.
template <class L>
inline constexpr int kMinBlocksBox = kEntropicLattice<L> ? kMinBlocks<L> : 1;
// The in-place block-role kernel: a larger budget than the pull kernels'. Its odd step once kept the addresses of
// its loads for its stores, and the entropic collision in 3D took one block fewer (at 6 its D3Q19 odd step spilled
// 120-176 bytes); with the stores' addresses computed after the collision (recompute_from_here, aa_lattice.hpp)
// it fits 80 registers (D3Q19) and 128 (D3Q27) without a spill, as BGK does (ptxas, CUDA 13.0).
template <class L>
inline constexpr int kMinBlocksInPlace = L::Q <= 9 ? 8 : (L::Q <= 19 ? 6 : 4);
// The one-pass in-place kernel (AEROLBM_BOUNDARY_PASS=one) carries the generic boundary path beside the interior's:
// the entropic collision in 3D keeps one block fewer there (at 6, D3Q19 spilled 4-84 bytes).
template <class L>
inline constexpr int kMinBlocksInPlaceOne = kMinBlocksInPlace<L> - (kEntropicLattice<L> && L::D == 3);
// The periodic box's in-place kernel (no boundary path): the most blocks at which no variant spills (ptxas, CUDA
// 13.0): D2Q9 10 (45-48 registers), D3Q19 7 (72; the entropic collision 6, 77-80), D3Q27 5 (96; entropic 4,
// 124-127), where the kernel with the boundary path took 8 / 6 / 4 (entropic 3D 5 / 3) blocks.
template <class L>
inline constexpr int kMinBlocksInPlaceBox = kMinBlocks<L> - (kEntropicLattice<L> && L::D == 3);

// Variant "pull": one thread per cell, each population read straight from global memory (coalesced along x).
// `skip`: cells on these layers are left out (an MPI block's edge layers, updated first by edge_layer_update);
// EdgeLayers{} skips none. `Boundaries` = false: a grid without boundary cells (a periodic box), where the
// interior path alone needs far fewer registers (D2Q9: 32 against 48, so 16 blocks per multiprocessor instead of
// 10; the D2Q9 box measured 11 % faster); the backend picks it only when every non-solid cell is interior.
// `Sponge` = false: no sponge layer (the box). `Extras` (cell_update.hpp): the model paths of WALE (relaxation
// times from g.velocity, g.velocity_next written; velocity_field_kernel only after the state was set) and of the
// wall function; runs with either take this kernel alone.
template <class L, class T, class R, bool Boundaries = true, bool Sponge = true, int Extras = 0>
__global__ void __launch_bounds__(kStepBlock, Boundaries ? kMinBlocks<L> : kMinBlocksBox<L>)
    stream_collide_pull(
    GridView g, StepConstants<R> k, const T* __restrict__ src, T* __restrict__ dst, EdgeLayers skip) {
  int x, y, z;
  if (!plane_cell(g, x, y, z) || on_edge(skip, x, y, z)) return;
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  if constexpr (Boundaries) {
    update_cell<L, R, Extras>(g, k, acc, x, y, z);
  } else {
    const std::int64_t n = g.index(x, y, z);
    if (!is_interior<L>(g, g.flags[n], x, y, z)) return;  // solid cells
    update_interior_cell<L, R, Sponge>(g, k, acc, x, y, z, n);
  }
}

// The edge layer at `coord` along `axis` (MPI: the cells whose new populations the neighbours need first), with the
// same per-cell update (a cell on two layers is computed twice, to the same value).
template <class L, class T, class R>
__global__ void __launch_bounds__(128, kMinBlocks<L>) edge_layer_update(GridView g, StepConstants<R> k, const T* __restrict__ src,
                                                         T* __restrict__ dst, int axis, int coord) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x, v = blockIdx.y;
  const int other0 = axis == 0 ? 1 : 0, other1 = axis == 2 ? 1 : 2;
  if (u >= g.n[other0] || v >= g.n[other1]) return;
  int x[3];
  x[axis] = coord;
  x[other0] = u;
  x[other1] = v;
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  update_cell<L, R>(g, k, acc, x[0], x[1], x[2]);
}

// An entry of a boundary list (kernels/storage/boundary_list.hpp) that is no interior cell, index n: the boundary
// functions, with the flag and wall links the entry carries.
template <class L, class R, class Acc>
__device__ __forceinline__ void update_list_boundary_cell(const GridView& g, const StepConstants<R>& k, Acc& acc,
                                                          const BoundaryCell& c, std::int64_t n) {
  const int x[3] = {c.x, c.y, c.z};
  update_boundary_cell<L, R>(g, k, acc, x, n, std::uint8_t(c.flag), BoundaryLinks{c.row, c.wall, c.behind});
}
// One entry of a boundary list through the per-cell physics; an interior cell at a periodic face (the tiled
// variant lists them: its halo does not wrap) takes the plain pull.
template <class L, class R, class Acc>
__device__ __forceinline__ void update_list_cell(const GridView& g, const StepConstants<R>& k, Acc& acc,
                                                 const BoundaryCell& c) {
  const std::int64_t n = g.index(c.x, c.y, c.z);
  if (is_interior<L>(g, std::uint8_t(c.flag), c.x, c.y, c.z)) {
    update_interior_cell<L, R>(g, k, acc, c.x, c.y, c.z, n);
    return;
  }
  update_list_boundary_cell<L, R>(g, k, acc, c, n);
}

// A list of boundary cells in a kernel of its own, after the kernel of the other cells: the tiled variant's (its
// cells next to faces) and the split pull step's (stream_collide_pull_plane). Launched as a programmatic dependent
// of that kernel, it waits for it to end before it ends itself; launched plainly, the wait returns at once.
template <class L, class T, class R>
__global__ void __launch_bounds__(kStepBlock, kMinBlocksRoles<L>)
    stream_collide_boundary(GridView g, StepConstants<R> k, const T* __restrict__ src, T* __restrict__ dst,
                            const BoundaryCell* __restrict__ cells, std::int64_t count) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < count) {
    TwoLatticeAccess<T, R> acc{src, dst, g.cells};
    update_list_cell<L, R>(g, k, acc, cells[r]);
  }
  grid_wait();
}

// The plane blocks' cell of a pull step (stream_collide_pull_roles, stream_collide_pull_plane).
template <class L, class T, class R, bool Sponge, bool OpenInPlane>
__device__ __forceinline__ void pull_plane_cell(const GridView& g, const StepConstants<R>& k,
                                                TwoLatticeAccess<T, R>& acc, const BlockRoles& roles) {
  int x, y, z;
  if (!role_plane_cell(g, roles, x, y, z)) return;
  const std::int64_t n = g.index(x, y, z);
  const std::uint8_t flag = g.flags[n];
  grid_wait();  // the flags are set up once; the populations are the previous step's
  if (!is_interior<L>(g, flag, x, y, z)) {  // solid cells, and the list's
    if constexpr (OpenInPlane) {
      const std::uint8_t type = flag & cell::type_mask;
      if (!(flag & cell::ghost) && (type == cell::inlet || type == cell::outlet)) {
        const int xs[3] = {x, y, z};
        open_boundary_cell<L, R>(g, k, acc, xs, n, type == cell::inlet);
      }
    }
    return;
  }
  update_interior_cell<L, R, Sponge>(g, k, acc, x, y, z, n, (flag & cell::sponge) != 0);
}

// Variant "pull" with block roles (BlockRoles): the list blocks update the boundary cells, the plane blocks the
// interior cells with the periodic box's path. One launch per step, no second stream. Launched as a programmatic
// dependent of the step before (CudaBackend::launch_dependent), its blocks start as that step's last blocks run
// and read what does not change between steps (a list entry, a cell's flag) before they wait for it to end
// (grid_wait): the gap between two steps, most of a step's length on a small grid, fills with the next step's
// first loads.
// `OpenInPlane`: the inlet and outlet nodes stay with the plane blocks, beside the rest of their rows. Listed, a
// warp of them holds 32 rows of one column, and every load and store of theirs takes its own 32-byte sector; on
// the 3D wing, whose two x faces are 0.5 % of its cells, that was 10 % more sectors and 11 % more time than the
// one-pass kernel (Nsight Compute, kernels/PERFORMANCE.md).
template <class L, class T, class R, bool Sponge, bool OpenInPlane>
__global__ void __launch_bounds__(kStepBlock, kMinBlocksRoles<L>)
    stream_collide_pull_roles(GridView g, StepConstants<R> k, const T* __restrict__ src, T* __restrict__ dst,
                              BlockRoles roles) {
  launch_trigger();
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  if (blockIdx.x < roles.list_blocks) {
    std::int64_t r;
    if (!role_list_entry(roles, r)) return;
    const BoundaryCell c = roles.cells[r];
    grid_wait();
    update_list_cell<L, R>(g, k, acc, c);
    return;
  }
  pull_plane_cell<L, T, R, Sponge, OpenInPlane>(g, k, acc, roles);
}

// Variant "pull" in two launches (BoundaryPass::split): the plane blocks alone, with the register budget of the
// interior path (the block-role kernel is sized for its list path: D3Q19 72 registers and 7 blocks per
// multiprocessor, where the interior path fits in 64 and 8), then the list (stream_collide_boundary), which starts
// as the last plane blocks start (programmatic dependent launch), so its short chains of loads fill the plane
// kernel's tail instead of following it. The two write disjoint cells; the list's blocks wait for the whole plane
// kernel before they end, so whatever follows in the stream sees both. `roles.list_blocks` is 0 here.
template <class L, class T, class R, bool Sponge, bool OpenInPlane>
__global__ void __launch_bounds__(kStepBlock, kMinBlocksPlane<L>)
    stream_collide_pull_plane(GridView g, StepConstants<R> k, const T* __restrict__ src, T* __restrict__ dst,
                              BlockRoles roles) {
  launch_trigger();
  TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  pull_plane_cell<L, T, R, Sponge, OpenInPlane>(g, k, acc, roles);
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
  if (interior) collide_and_store<L, R>(g, k, acc, x, y, z, n, f);
}

// The snapshot row an interior cell refreshes (flagged on this backend's copy: the boundary cells read it), or −1.
template <class T>
__device__ __forceinline__ std::int32_t aa_snapshot_row(const AAStorage<T>& s, std::int64_t n, std::uint8_t flag) {
  return (flag & cell::aa_snapshot) ? s.row[n] : -1;
}

// An interior cell in place; cells that boundary cells read (flagged on this backend's copy) also refresh their
// snapshot row `row`.
template <class L, class T, class R, bool Odd, bool Sponge>
__device__ __forceinline__ void aa_interior_cell(const GridView& g, const StepConstants<R>& k, const AAStorage<T>& s,
                                                 int x, int y, int z, std::uint8_t flag, std::int32_t row) {
  aa_interior_update<L, T, R, Odd, Sponge>(g, k, s.f, x, y, z, s.snap_next, s.rows, row, (flag & cell::sponge) != 0);
}

// Variant "aa": one lattice updated in place (kernels/storage/aa_lattice.hpp); `Odd` picks the layout (steps done
// so far, mod 2). Interior cells update in place; boundary cells read the snapshot and write the next snapshot and
// their own slots, so the two kinds touch disjoint memory; the interior cells the boundary cells read write their
// row of the next snapshot too (aa_gather_kernel fills the snapshot once, after the state is set).
// `Boundaries` = false: a grid without boundary cells (a periodic box), as stream_collide_pull's; without the
// boundary path the kernel takes a larger block budget (kMinBlocksInPlaceBox).
template <class L, class T, class R, bool Odd, bool Sponge, bool Boundaries = true>
__global__ void __launch_bounds__(kStepBlock, Boundaries ? kMinBlocksInPlaceOne<L> : kMinBlocksInPlaceBox<L>)
    stream_collide_aa(GridView g, StepConstants<R> k, AAStorage<T> s) {
  int x, y, z;
  if (!plane_cell(g, x, y, z)) return;
  const std::int64_t n = g.index(x, y, z);
  const std::uint8_t flag = g.flags[n];
  if (is_interior<L>(g, flag, x, y, z)) {
    aa_interior_cell<L, T, R, Odd, Sponge>(g, k, s, x, y, z, flag, aa_snapshot_row(s, n, flag));
    return;
  }
  if constexpr (Boundaries) {
    AABoundaryAccess<L, T, R> acc{g, s, n, s.row[n], {x, y, z}};
    update_cell<L, R>(g, k, acc, x, y, z);  // returns at once for solid cells
  }
}

// Variant "aa" with block roles: the list blocks update the boundary cells (from the snapshot), the plane blocks
// the interior cells in place. The two kinds touch disjoint memory (aa_lattice.hpp), so any order is right.
// Launched plainly: as a programmatic dependent of the step before (as stream_collide_pull_roles is, its list
// entries, flags and snapshot rows read before the wait) the default 2D case's `aa` ran 3 % slower on an H100
// (kernels/PERFORMANCE.md).
template <class L, class T, class R, bool Odd, bool Sponge>
__global__ void __launch_bounds__(kStepBlock, kMinBlocksInPlace<L>)
    stream_collide_aa_roles(GridView g, StepConstants<R> k, AAStorage<T> s, BlockRoles roles) {
  // Each role loads its cell's populations its own way and stores them its own way; the two collide through one
  // copy of that code (the calls each made apart, so the same values). With a copy per role under one register
  // budget the odd step's kernels spilled 12-24 bytes (ptxas, D3Q19), and the small 3D cases ran 4-14 points
  // slower (kernels/PERFORMANCE.md). The pull role kernel, tried the same way, lost 1-5 points: it keeps a copy
  // per role.
  const bool list = blockIdx.x < roles.list_blocks;
  R f[L::Q];
  int x[3];
  std::int64_t n;
  std::int32_t row;
  bool in_layer;
  if (list) {
    std::int64_t r;
    if (!role_list_entry(roles, r)) return;
    const BoundaryCell c = roles.cells[r];
    x[0] = c.x, x[1] = c.y, x[2] = c.z;
    n = g.index(c.x, c.y, c.z);
    row = s.row[n];
    const AABoundaryAccess<L, T, R> acc{g, s, n, row, {c.x, c.y, c.z}};
    if (!open_node_or_pull_boundary<L, R>(g, k, acc, x, n, std::uint8_t(c.flag), BoundaryLinks{c.row, c.wall, c.behind},
                                          f))
      return;
    in_layer = true;  // the sponge's own test, as update_boundary_cell's collide_and_store
  } else {
    if (!role_plane_cell(g, roles, x[0], x[1], x[2])) return;
    n = g.index(x[0], x[1], x[2]);
    const std::uint8_t flag = g.flags[n];
    if (!is_interior<L>(g, flag, x[0], x[1], x[2])) return;  // solid cells, and the list's
    row = aa_snapshot_row(s, n, flag);
    aa_interior_load<L, T, R, Odd>(g, s.f, x[0], x[1], x[2], n, f);
    in_layer = (flag & cell::sponge) != 0;
  }
  collide<L, R>(f, k.coll);
  if constexpr (Sponge)  // false only where the case has no sponge (k.sponge_faces = 0: sponge_cell changes nothing)
    if (in_layer) sponge_cell<L, T, R>(g, k, x[0], x[1], x[2], f);
  if (list) {
    const AABoundaryAccess<L, T, R> acc{g, s, n, row, {x[0], x[1], x[2]}};
    AEROLBM_UNROLL
    for (int i = 0; i < L::Q; ++i) acc.put(i, n, f[i]);
  } else {
    aa_interior_store<L, T, R, Odd>(g, s.f, x[0], x[1], x[2], n, f, s.snap_next, s.rows, row);
  }
}

template <class L, class T>
__global__ void aa_gather_kernel(GridView g, AAStorage<T> s) {
  const std::int64_t r = s.boundary_rows + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < s.rows) aa_gather_row<L>(g, s, r);
}

// The kernels below see the state through an accessor (get(i, n) = post-collision f_i of cell n; put sets it),
// so they serve the two-lattice and the in-place storage alike.
template <class L, class R, class Acc>
__global__ void initialize_kernel(GridView g, StepConstants<R> k, Acc acc) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  initialize_cell<L, R>(g, k, acc, n);
}

// Momentum-exchange force of the near-wall rows: one warp per row, lane i computing link i (wall_link_force), so
// the links' loads are in flight together (a thread per row walked its links one after the other: 18 µs for 144
// rows, longer than 3 steps of the 2D default case); lane 0 adds the links in direction order, as
// wall_force_cell does on the CPU, so per-row forces are the same numbers. Kept per row when `per_row` is given
// (3 × nrows, every x first, then y, then z), and summed per block in a fixed order into `partial` (kForceTotals
// per block: the force, then its pressure part, wall_link_pressure_force with the cell's density added by lane 0 in
// direction order, as wall_cell_density does); the last block to finish adds the partials in a fixed order into
// `total` (kForceTotals, sum_partials), so a sample is the
// same number in every run and costs one launch (a second kernel for the total cost one more launch gap per
// sample: a fifth of a step on the smallest cases). `done` counts finished blocks; it is 0 between launches.
inline constexpr int kForceBlock = 256;
inline constexpr int kForceRowsPerBlock = kForceBlock / 32;
inline constexpr int kForceTotals = 6;  // per sample: the force (x, y, z), then its pressure part (x, y, z)

// The total of `nblocks` partials (kForceTotals each) into out[0..kForceTotals), by one block of kForceBlock threads.
__device__ inline void sum_partials(const double* __restrict__ partial, int nblocks, double* __restrict__ out) {
  __shared__ double sum[kForceTotals][kForceBlock];
  const int t = threadIdx.x;
  double s[kForceTotals] = {0, 0, 0, 0, 0, 0};
  for (int b = t; b < nblocks; b += kForceBlock)
    for (int c = 0; c < kForceTotals; ++c) s[c] += __ldcg(partial + kForceTotals * std::int64_t(b) + c);
  for (int c = 0; c < kForceTotals; ++c) sum[c][t] = s[c];
  __syncthreads();
  for (int h = kForceBlock / 2; h > 0; h >>= 1) {
    if (t < h)
      for (int c = 0; c < kForceTotals; ++c) sum[c][t] += sum[c][t + h];
    __syncthreads();
  }
  if (t < kForceTotals) out[t] = sum[t][0];
}

template <class L, class R, class Acc>
__global__ void __launch_bounds__(kForceBlock) wall_force_kernel(GridView g, StepConstants<R> k, Acc acc,
                                                                 const std::int64_t* __restrict__ rows,
                                                                 std::int64_t nrows, double* __restrict__ per_row,
                                                                 double* __restrict__ partial,
                                                                 unsigned int* __restrict__ done,
                                                                 double* __restrict__ total,
                                                                 unsigned int* __restrict__ slot = nullptr) {
  static_assert(L::Q <= 32, "one warp per near-wall cell");
  __shared__ double row_force[kForceTotals][kForceRowsPerBlock];
  __shared__ bool last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  // `slot` (a queued sample, launched from a captured graph): the sample's place in `per_row` (3 × nrows each) and
  // `total` (kForceTotals each) is *slot, which the last block advances. Every block reads it before it counts as done.
  const unsigned int sample = slot ? __ldcg(slot) : 0u;
  if (per_row) per_row += std::int64_t(sample) * 3 * nrows;
  total += kForceTotals * std::int64_t(sample);
  const std::int64_t r = std::int64_t(blockIdx.x) * kForceRowsPerBlock + warp;
  double link[3] = {0, 0, 0}, pop = 0;
  std::int64_t n = 0;
  bool fluid = false;
  if (r < nrows) {
    // Row r of the wall table is cell rows[r] (link[rows[r]] = r): its masks load beside the cell index.
    n = rows[r];
    const std::uint8_t flag = g.flags[n];
    fluid = (flag & cell::type_mask) == cell::fluid;
    if (fluid && lane < L::Q) pop = double(acc.get(lane, n));
    if (lane >= 1 && lane < L::Q && fluid) {
      int x[3];
      cell_coords(g, n, x);
      wall_link_force<L, R>(g, k, acc, x, n, std::int32_t(r), lane, link);
    }
  }
  // The cell's density, its populations added in direction order by lane 0 (wall_cell_density), then to every lane.
  double d = 0;
  for (int i = 0; i < L::Q; ++i) {
    const double v = __shfl_sync(0xffffffffu, pop, i);
    if (lane == 0) d += v;
  }
  const double rho = __shfl_sync(0xffffffffu, 1.0 + d, 0);
  double plink[3] = {0, 0, 0};
  if (r < nrows && fluid && lane >= 1 && lane < L::Q) wall_link_pressure_force<L>(g, std::int32_t(r), lane, rho, plink);
  double F[kForceTotals] = {0, 0, 0, 0, 0, 0};
  for (int i = 1; i < L::Q; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double v = __shfl_sync(0xffffffffu, link[c], i);
      const double p = __shfl_sync(0xffffffffu, plink[c], i);
      if (lane == 0) {
        F[c] += v;
        F[3 + c] += p;
      }
    }
  }
  if (lane == 0) {
    if (r < nrows && per_row) {
      per_row[r] = F[0];
      per_row[nrows + r] = F[1];
      per_row[2 * nrows + r] = F[2];
    }
    for (int c = 0; c < kForceTotals; ++c) row_force[c][warp] = F[c];
  }
  __syncthreads();
  if (threadIdx.x < kForceTotals) {
    double sum = 0;
    for (int w = 0; w < kForceRowsPerBlock; ++w) sum += row_force[threadIdx.x][w];
    partial[kForceTotals * std::int64_t(blockIdx.x) + threadIdx.x] = sum;
    __threadfence();  // the partial is visible to every block before this block counts as done
  }
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  sum_partials(partial, int(gridDim.x), total);
  if (threadIdx.x == 0) {
    *done = 0;  // ready for the next sample on this stream
    if (slot) *slot = sample + 1;
  }
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

// WALE's velocity field of the state (store_cell_velocity), after the state was set (the steps write it after).
template <class L, class R, class Acc>
__global__ void velocity_field_kernel(GridView g, Acc acc, float* __restrict__ u) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  store_cell_velocity<L, R>(g, acc, n, u);
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
