#pragma once
// The list of cells a separate boundary pass updates (the CUDA pull variant's split pass, the tiled variant's
// cells next to faces): each entry carries the cell's position, flag and wall-table links, so the pass reads one
// 32-byte entry per cell and then the populations, instead of the flag, the wall row and its masks one after the
// other.
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

// Every non-solid, non-ghost cell for which `listed(flag, x, y, z)` holds, in index order. `g` sees the host's
// flags, link table and wall masks.
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
  return list;
}

}  // namespace aerolbm
