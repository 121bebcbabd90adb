#pragma once
// In place (AA): the inlet and outlet nodes without the gather. An open node (open_boundary_cell) reads only its
// own populations and those of its neighbour along x. Where that neighbour is an interior cell, its populations of
// the previous step are in the lattice until the cells they stream to are updated, so the node can read them there
// before the rows start, in the gather phase, instead of having them gathered into the snapshot first and reading
// them back (the same values; the node's arithmetic is open_boundary_cell's; its own populations come from the
// snapshot, where the slots across the open face are missing). In that phase the node writes only the next
// snapshot: its slots in the lattice may hold populations other nodes of the phase still read. After the barrier,
// with its grid row, the row loop copies them to those slots (aa_open_node_slots), which no other cell's update
// touches. A node whose neighbour is itself a boundary cell (the nodes on the edges of the open faces, beside a
// y or z face) reads the neighbour's populations from the snapshot instead, where the per-cell path read them (the
// lattice lacks those of its slots that lie outside the grid): the same values, so those nodes run in the batches
// too, and only nodes beside a solid or ghost cell stay in the per-cell list.
#include <cstdint>
#include <vector>

#include "kernels/physics/cell_update.hpp"
#include "kernels/storage/aa_lattice.hpp"
#include "kernels/storage/aa_rows.hpp"

namespace aerolbm::cpu {

struct AAOpenNode {
  std::int64_t row;  // the node's snapshot row
  std::int64_t nb_row;  // the neighbour's snapshot row if it is a boundary cell (read there), else −1 (in the lattice)
  std::int32_t x;    // 0 (inlet) or nx − 1 (outlet)
  std::int32_t inlet;
  std::int32_t y, z;
};

// Nodes of one kind updated together (cpu_open_node_batches.hpp): order[first .. first + count).
inline constexpr int kOpenBatch = 16;
struct AAOpenBatch {
  std::int64_t first;
  std::int32_t count;  // 1 .. kOpenBatch
  std::int32_t inlet;
};

// The nodes of each grid row r = y + ny·z: node[begin[r] .. begin[r+1]); `order`, the indices into node of the
// inlets, then of the outlets, cut into `batch`.
struct AAOpenNodes {
  std::vector<std::int64_t> begin;
  std::vector<AAOpenNode> node;
  std::vector<std::int64_t> order;
  std::vector<AAOpenBatch> batch;
};

// After the barrier: node o's new populations from the next snapshot to its slots in the next layout (where
// AABoundaryAccess::put stores them).
template <class L, class T>
void aa_open_node_slots(const GridView& gs, const AAStorage<T>& s, const AAOpenNode& o, int y, int z) {
  const int x[3] = {o.x, y, z};
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    const std::int64_t slot = aa_slot<L>(gs, s.odd ^ 1, i, x);
    if (slot >= 0) s.f[slot] = s.snap_next[std::int64_t(i) * s.rows + o.row];
  }
}

// Whether boundary cell n (coordinates x) is an open node that the batches can update: an inlet or outlet node
// (not a ghost) whose neighbour along x is interior (read in the lattice: nb_row = −1) or a boundary cell (read from
// the snapshot: nb_row its row, below boundary_rows).
template <class L>
bool open_node_in_batches(const GridView& g, const AARows& rows, std::int64_t n, const int (&x)[3],
                          std::int64_t& nb_row) {
  const std::uint8_t flag = g.flags[n];
  const std::uint8_t type = flag & cell::type_mask;
  if ((type != cell::inlet && type != cell::outlet) || (flag & cell::ghost)) return false;
  const int nbx = type == cell::inlet ? x[0] + 1 : x[0] - 1;
  if (nbx < 0 || nbx >= g.n[0]) return false;
  const std::int64_t m = g.index(nbx, x[1], x[2]);
  nb_row = -1;
  if (is_interior<L>(g, g.flags[m], nbx, x[1], x[2])) return true;
  if ((g.flags[m] & cell::ghost) || rows.row[std::size_t(m)] < 0 || rows.row[std::size_t(m)] >= rows.boundary_rows)
    return false;
  nb_row = rows.row[std::size_t(m)];
  return true;
}

}  // namespace aerolbm::cpu
