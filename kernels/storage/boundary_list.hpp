#pragma once
// The list of cells a separate boundary pass updates (the CUDA pull variant's split pass, the tiled variant's
// cells next to faces): each entry carries the cell's position, flag and wall-table links, so the pass reads one
// 32-byte entry per cell and then the populations, instead of the flag, the wall row and its masks one after the
// other.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/physics/cell_update.hpp"

namespace aerolbm {

struct alignas(16) BoundaryCell {
  std::int32_t x, y, z;
  std::uint32_t flag;
  std::int32_t row;  // wall-table row, −1 if none
  std::uint32_t wall, behind;
  std::uint32_t unused;
};

// Which path of the per-cell physics an entry takes: the list is grouped by it, so that a warp's 32 entries take
// one path (inlet and outlet cells of the same rows alternated in index order, and a warp of them ran both open
// boundaries one after the other), the longest paths first (their blocks start first and do not make the tail).
inline int boundary_kind(const BoundaryCell& c) {
  switch (c.flag & cell::type_mask) {
    case cell::outlet: return 0;
    case cell::inlet: return 1;
    default: return c.wall != 0 ? 2 : (c.flag & cell::near_wall ? 3 : 4);
  }
}

// Every non-solid, non-ghost cell for which `listed(flag, x, y, z)` holds, grouped by boundary_kind, in index order
// within a kind. `g` sees the host's flags, link table and wall masks.
template <class Listed>
std::vector<BoundaryCell> build_boundary_list(const GridView& g, Listed&& listed) {
  std::vector<BoundaryCell> list;
  for (int z = 0; z < g.n[2]; ++z)
    for (int y = 0; y < g.n[1]; ++y)
      for (int x = 0; x < g.n[0]; ++x) {
        const std::int64_t n = g.index(x, y, z);
        const std::uint8_t f = g.flags[n];
        if ((f & cell::type_mask) == cell::solid || (f & cell::ghost) || !listed(f, x, y, z)) continue;
        const BoundaryLinks b = boundary_links(g, n, f);
        list.push_back(BoundaryCell{x, y, z, f, b.row, b.wall, b.behind, 0u});
      }
  std::stable_sort(list.begin(), list.end(),
                   [](const BoundaryCell& a, const BoundaryCell& b) { return boundary_kind(a) < boundary_kind(b); });
  return list;
}

}  // namespace aerolbm
