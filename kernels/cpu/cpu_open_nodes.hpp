#pragma once
// In place (AA): the inlet and outlet nodes without the gather. An open node (open_boundary_cell) reads only its
// own populations and those of its neighbour along x. Where that neighbour is an interior cell, its populations of
// the previous step are in the lattice until the cells they stream to are updated, so the node can read them there
// before the rows start, in the gather phase, instead of having them gathered into the snapshot first and reading
// them back (the same values; the node's arithmetic is open_boundary_cell's; its own populations come from the
// snapshot, where the slots across the open face are missing). In that phase the node writes only the next
// snapshot: its slots in the lattice may hold populations other nodes of the phase still read. After the barrier,
// with its grid row, the row loop copies them to those slots (aa_open_node_slots), which no other cell's update
// touches. Nodes whose neighbour is itself a boundary cell stay in the per-cell list.
#include <cstdint>
#include <vector>

#include "kernels/physics/cell_update.hpp"
#include "kernels/storage/aa_lattice.hpp"

namespace aerolbm::cpu {

struct AAOpenNode {
  std::int64_t row;  // the node's snapshot row
  std::int32_t x;    // 0 (inlet) or nx − 1 (outlet)
  std::int32_t inlet;
  std::int32_t y, z;
};

// The nodes of each grid row r = y + ny·z: node[begin[r] .. begin[r+1]).
struct AAOpenNodes {
  std::vector<std::int64_t> begin;
  std::vector<AAOpenNode> node;
};

// What an open node in the gather phase sees: its own populations from the snapshot, its neighbour's from their
// slots in the lattice (the layout of the step's start); its new ones go to the next snapshot only.
template <class L, class T, class R>
struct AAOpenNodeAccess {
  using stored_type = T;
  GridView g;  // the storage view (cells = the distance between two directions' arrays)
  AAStorage<T> s;
  std::int64_t own;
  std::int32_t own_row;
  int nb_x[3];
  AEROLBM_HD R get(int i, std::int64_t m) const {
    if (m == own) return R(s.snap[std::int64_t(i) * s.rows + own_row]);
    return R(s.f[aa_slot<L>(g, s.odd, i, nb_x)]);  // the interior neighbour: every slot inside the grid
  }
  AEROLBM_HD void put(int i, std::int64_t /*n: own*/, R v) const {
    s.snap_next[std::int64_t(i) * s.rows + own_row] = T(v);
  }
};

// The update of node o of row (y, z) into the next snapshot; g the grid's view, gs the storage's.
template <class L, class T, class R>
void aa_open_node(const GridView& g, const GridView& gs, const StepConstants<R>& k, const AAStorage<T>& s,
                  const AAOpenNode& o, int y, int z) {
  const int x[3] = {o.x, y, z};
  const std::int64_t n = g.index(o.x, y, z);
  const AAOpenNodeAccess<L, T, R> acc{gs, s, n, std::int32_t(o.row), {o.inlet ? o.x + 1 : o.x - 1, y, z}};
  open_boundary_cell<L, R>(g, k, acc, x, n, o.inlet != 0);
}

// Then its new populations from the next snapshot to its slots in the next layout (where AABoundaryAccess::put
// stores them).
template <class L, class T>
void aa_open_node_slots(const GridView& gs, const AAStorage<T>& s, const AAOpenNode& o, int y, int z) {
  const int x[3] = {o.x, y, z};
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    const std::int64_t slot = aa_slot<L>(gs, s.odd ^ 1, i, x);
    if (slot >= 0) s.f[slot] = s.snap_next[std::int64_t(i) * s.rows + o.row];
  }
}

// Whether boundary cell n (coordinates x) is an open node that can read its neighbour in the lattice: an inlet or outlet node
// whose neighbour along x is interior.
template <class L>
bool open_node_in_row(const GridView& g, std::int64_t n, const int (&x)[3]) {
  const std::uint8_t flag = g.flags[n];
  const std::uint8_t type = flag & cell::type_mask;
  if ((type != cell::inlet && type != cell::outlet) || (flag & cell::ghost)) return false;
  const int nbx = type == cell::inlet ? x[0] + 1 : x[0] - 1;
  if (nbx < 0 || nbx >= g.n[0]) return false;
  const std::int64_t m = g.index(nbx, x[1], x[2]);
  return is_interior<L>(g, g.flags[m], nbx, x[1], x[2]);
}

}  // namespace aerolbm::cpu
