#pragma once
// Host side of the in-place (AA) storage: which cells get a snapshot row. Boundary cells (not solid, not plain
// interior) first, then every non-solid cell within one cell of them (wrapping periodic axes) — the neighbours
// the boundary functions may read —, each kind in index order.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/physics/cell_update.hpp"

namespace aerolbm {

struct AARows {
  std::vector<std::int32_t> row;       // per cell, −1 if none
  std::vector<std::int64_t> row_cell;  // per row
  std::int64_t boundary_rows = 0;
};

// fn(m) for every cell m within one cell of x (x included; wrapping periodic axes, leaving out what lies past a
// non-periodic face): the neighbours a boundary cell's update may read.
template <class L, class Fn>
void for_each_neighbour(const GridView& g, const int (&x)[3], Fn&& fn) {
  const int reach[3] = {1, 1, L::D == 3 ? 1 : 0};
  for (int dz = -reach[2]; dz <= reach[2]; ++dz)
    for (int dy = -reach[1]; dy <= reach[1]; ++dy)
      for (int dx = -reach[0]; dx <= reach[0]; ++dx) {
        int y[3] = {x[0] + dx, x[1] + dy, x[2] + dz};
        bool in = true;
        for (int a = 0; a < 3; ++a) {
          if (y[a] >= 0 && y[a] < g.n[a]) continue;
          if ((g.periodic >> a) & 1u) {
            y[a] = y[a] < 0 ? y[a] + g.n[a] : y[a] - g.n[a];
          } else {
            in = false;
          }
        }
        if (in) fn(g.index(y[0], y[1], y[2]));
      }
}

template <class L>
AARows build_aa_rows(const GridView& g) {
  AARows r;
  r.row.assign(std::size_t(g.cells), -1);
  auto solid = [&](std::int64_t n) { return (g.flags[n] & cell::type_mask) == cell::solid; };
  for (int z = 0; z < g.n[2]; ++z)
    for (int y = 0; y < g.n[1]; ++y)
      for (int x = 0; x < g.n[0]; ++x) {
        const std::int64_t n = g.index(x, y, z);
        if (solid(n) || is_interior<L>(g, g.flags[n], x, y, z)) continue;
        r.row[n] = std::int32_t(r.row_cell.size());
        r.row_cell.push_back(n);
      }
  r.boundary_rows = std::int64_t(r.row_cell.size());
  std::vector<std::int64_t> gathered;
  for (std::int64_t b = 0; b < r.boundary_rows; ++b) {
    const std::int64_t n = r.row_cell[b];
    const int x[3] = {int(n % g.n[0]), int((n / g.n[0]) % g.n[1]), int(n / (std::int64_t(g.n[0]) * g.n[1]))};
    for_each_neighbour<L>(g, x, [&](std::int64_t m) {
      if (solid(m) || r.row[m] != -1) return;
      r.row[m] = -2;  // gathered: numbered below
      gathered.push_back(m);
    });
  }
  // In index order, as the boundary cells are: the interior cells beside a row of face cells then have consecutive
  // rows too (the CPU's face runs read them as runs: kernels/cpu/cpu_face_rows.hpp).
  std::sort(gathered.begin(), gathered.end());
  for (const std::int64_t m : gathered) {
    r.row[m] = std::int32_t(r.row_cell.size());
    r.row_cell.push_back(m);
  }
  return r;
}

}  // namespace aerolbm
