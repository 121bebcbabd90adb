#pragma once
// One-lattice, in-place storage: the "AA pattern" (Bailey, Myre, Walsh, Lilja & Bhatt 2009). Half the memory of
// two lattices, the same bytes moved per update. Used by both backends (kernel variant `aa`).
//
// Let f*_i(n) be the post-collision population i of cell n (what the two-lattice scheme stores at (i, n)). After
// an even number of steps it lives at slot (i, n + c_i) — where it streams to; after an odd number at
// (opp(i), n). An even step reads a cell's own slots (i, n), collides, writes to (opp(i), n); an odd step reads
// (opp(i), n − c_i), writes to (i, n + c_i). Either way a cell reads and writes exactly the same slots, and no two
// cells share one, so every cell can update in place in any order.
//
// The boundary functions (Bouzidi walls, open boundaries, faces) read populations of other cells and slots
// outside the grid, which in place would be overwritten or missing. So the cells that are not plain interior
// cells ("boundary cells") keep their own post-collision populations in a compact snapshot, two copies swapped
// each step, and the interior neighbours they read are in it too: the CPU gathers them before each step, the
// CUDA backend has those cells write their new populations into the next snapshot as they update (one pass, no
// gather kernel). A boundary cell reads
// only the snapshot and writes its new populations to the next snapshot and to its slots (those inside the grid),
// where its interior neighbours pick them up.
#include <cstdint>

#include "kernels/physics/cell_update.hpp"

namespace aerolbm {

template <class T>
struct AAStorage {
  T* f;                          // Q × cells, in place
  T* snap;                       // Q × rows: post-collision populations of the snapshot cells (current step)
  T* snap_next;                  // Q × rows: what this step's boundary cells write
  const std::int32_t* row;       // per cell: its snapshot row, −1 if none
  const std::int64_t* row_cell;  // per row: its cell
  std::int64_t rows;             // boundary cells first (rows 0 .. boundary_rows−1), then their interior neighbours
  std::int64_t boundary_rows;
  int odd;                       // steps done so far, mod 2: which layout f is in
};

// Where f*_i of cell x lives in the layout of `odd`; −1 when that slot would lie outside the grid.
template <class L>
AEROLBM_HD std::int64_t aa_slot(const GridView& g, int odd, int i, const int (&x)[3]) {
  if (odd) return std::int64_t(opposite(i)) * g.cells + g.index(x[0], x[1], x[2]);
  int t[3];
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) {
    t[a] = x[a] + L::c(i, a);
    if (t[a] < 0 || t[a] >= g.n[a]) {
      if (!((g.periodic >> a) & 1u)) return -1;
      t[a] = t[a] < 0 ? t[a] + g.n[a] : t[a] - g.n[a];
    }
  }
  return std::int64_t(i) * g.cells + g.index(t[0], t[1], t[2]);
}

AEROLBM_HD void aa_coords(const GridView& g, std::int64_t n, int (&x)[3]) {
  x[0] = int(n % g.n[0]);
  x[1] = int((n / g.n[0]) % g.n[1]);
  x[2] = int(n / (std::int64_t(g.n[0]) * g.n[1]));
}

// The current state as the physics sees it (get: f*_i(n); put: set f*_i(n)): for initialisation, forces,
// fields, the watchdog and checkpoints. Solid cells hold the rest state (0 shifted), as in the two-lattice scheme.
template <class L, class T, class R>
struct AAStateAccess {
  using stored_type = T;
  GridView g;
  AAStorage<T> s;
  AEROLBM_HD R get(int i, std::int64_t n) const {
    if ((g.flags[n] & cell::type_mask) == cell::solid) return R(0);
    const std::int32_t r = s.row[n];
    if (r >= 0 && r < s.boundary_rows) return R(s.snap[std::int64_t(i) * s.rows + r]);
    int x[3];
    aa_coords(g, n, x);
    return R(s.f[aa_slot<L>(g, s.odd, i, x)]);  // an interior cell: every slot is inside the grid
  }
  AEROLBM_HD void put(int i, std::int64_t n, R v) const {
    if ((g.flags[n] & cell::type_mask) == cell::solid) return;
    const std::int32_t r = s.row[n];
    if (r >= 0 && r < s.boundary_rows) s.snap[std::int64_t(i) * s.rows + r] = T(v);
    int x[3];
    aa_coords(g, n, x);
    const std::int64_t slot = aa_slot<L>(g, s.odd, i, x);
    if (slot >= 0) s.f[slot] = T(v);
  }
};

// What a boundary cell sees during a step: the previous state from the snapshot, its new state into the next
// snapshot and into its slots in the layout after the step. The accessor serves one cell, the one updated through
// it (put stores its populations whatever n it is given): its index `own`, snapshot row `own_row` and coordinates
// `own_x`, known before its first store. Looked up at each store instead, the row was read again before every one
// (a store through snap_next may alias row[] for all the compiler knows), and on the GPU those reads, each waiting
// for the one before, were the listed cells' whole update: a round trip to memory per population; the coordinates,
// taken from the index, cost three 64-bit divisions per cell.
template <class L, class T, class R>
struct AABoundaryAccess {
  using stored_type = T;
  GridView g;
  AAStorage<T> s;
  std::int64_t own;
  std::int32_t own_row;
  int own_x[3];
  AEROLBM_HD R get(int i, std::int64_t m) const { return R(s.snap[std::int64_t(i) * s.rows + s.row[m]]); }
  AEROLBM_HD void put(int i, std::int64_t /*n: own*/, R v) const {
    s.snap_next[std::int64_t(i) * s.rows + own_row] = T(v);
    const std::int64_t slot = aa_slot<L>(g, s.odd ^ 1, i, own_x);
    if (slot >= 0) s.f[slot] = T(v);
  }
};

// Before a step: the interior neighbours' current populations into the snapshot (row r ≥ boundary_rows).
template <class L, class T>
AEROLBM_HD void aa_gather_row(const GridView& g, const AAStorage<T>& s, std::int64_t r) {
  int x[3];
  aa_coords(g, s.row_cell[r], x);
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) s.snap[std::int64_t(i) * s.rows + r] = s.f[aa_slot<L>(g, s.odd, i, x)];
}

// The two halves of an interior cell's in-place update (aa_interior_update), for callers that collide between them
// (the GPU's block-role kernel, whose boundary cells collide through the same code). Load: the populations arriving
// at cell n = (x0, x1, x2) in the layout of `Odd`. Store: its new populations into the slots it read, and into row
// `snap_row` of `snap_next` where that is ≥ 0.
template <class L, class T, class R, bool Odd>
AEROLBM_HD void aa_interior_load(const GridView& g, const T* f, int x0, int x1, int x2, std::int64_t n,
                                 R (&v)[L::Q]) {
  const std::int64_t cells = g.cells;
  const WrappedNeighbours nb(g, x0, x1, x2);  // the odd step's
  // Even: read slot (i, x), write (opp(i), x). Odd: read (opp(i), x − c_i), write (i, x + c_i).
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    if constexpr (!Odd)
      v[i] = R(f[std::int64_t(i) * cells + n]);
    else
      v[i] = R(f[std::int64_t(opposite(i)) * cells + nb.from<L>(g, i)]);
  }
}
// Hides where a value came from from the CUDA compiler, at no cost (an empty asm statement that may have changed
// it): what is computed from it afterwards is computed again there instead of kept. The odd step stores into the
// slots it loaded, at the neighbours' indices; left to itself the compiler keeps those Q 64-bit addresses live
// through the collision, and the D3Q19 odd step spilled 12 bytes at its 80-register budget with BGK and 44-48 at 96
// with the entropic collision (ptxas, CUDA 13.0). Recomputed from the cell's coordinates after it: no spill, and the
// entropic odd step fits 80 registers (kernels/PERFORMANCE.md). A no-op on the host.
AEROLBM_HD void recompute_from_here(int& v) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(v));
#else
  (void)v;
#endif
}

template <class L, class T, class R, bool Odd>
AEROLBM_HD void aa_interior_store(const GridView& g, T* f, int x0, int x1, int x2, std::int64_t n, const R (&v)[L::Q],
                                  T* snap_next, std::int64_t rows, std::int32_t snap_row) {
  const std::int64_t cells = g.cells;
  if constexpr (Odd) {
    recompute_from_here(x0);
    recompute_from_here(x1);
    recompute_from_here(x2);
  }
  const WrappedNeighbours nb(g, x0, x1, x2);
  if (snap_row >= 0) {
    AEROLBM_UNROLL
    for (int i = 0; i < L::Q; ++i) snap_next[std::int64_t(i) * rows + snap_row] = T(v[i]);
  }
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    if constexpr (!Odd)
      f[std::int64_t(opposite(i)) * cells + n] = T(v[i]);
    else
      f[std::int64_t(i) * cells + nb.to<L>(g, i)] = T(v[i]);
  }
}

// One in-place update of an interior cell (is_interior: no wall, no open face nearby; periodic axes wrap). The
// layout is a template parameter so each GPU kernel carries one access pattern (fewer registers).
//
// `snap_row` ≥ 0 (the CUDA backend): the cell also writes its new populations into that row of `snap_next`, where
// the boundary cells read them in the next step (the CPU gathers them before each step instead). `in_layer` = false:
// the caller knows the cell is outside the sponge layer (collide_and_store).
template <class L, class T, class R, bool Odd, bool Sponge = true>
AEROLBM_HD void aa_interior_update(const GridView& g, const StepConstants<R>& k, T* f, int x0, int x1, int x2,
                                   T* snap_next = nullptr, std::int64_t rows = 0, std::int32_t snap_row = -1,
                                   bool in_layer = true) {
  const std::int64_t n = g.index(x0, x1, x2);
  R v[L::Q];
  aa_interior_load<L, T, R, Odd>(g, f, x0, x1, x2, n, v);
  collide<L, R>(v, k.coll);
  if constexpr (Sponge)
    if (in_layer) sponge_cell<L, T, R>(g, k, x0, x1, x2, v);
  aa_interior_store<L, T, R, Odd>(g, f, x0, x1, x2, n, v, snap_next, rows, snap_row);
}

}  // namespace aerolbm
