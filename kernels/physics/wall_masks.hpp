#pragma once
// Set-up of the wall table's link masks (boundaries.hpp, wall_link_masks), kWallMaskWords words per near-wall row,
// for either backend to copy where its kernels read them.
#include <cstdint>
#include <vector>

#include "kernels/physics/boundaries.hpp"

namespace aerolbm {

// `g` sees the host's flags; rows[r] is the cell of wall row r (DomainData::wall_cells).
template <class L, class R>
std::vector<std::uint32_t> build_wall_masks(const GridView& g, const StepConstants<R>& k,
                                            const std::vector<std::int64_t>& rows) {
  std::vector<std::uint32_t> masks(kWallMaskWords * rows.size(), 0u);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::uint32_t* m = masks.data() + kWallMaskWords * r;
    wall_link_masks<L, R>(g, k, rows[r], m[0], m[1], m[2]);
  }
  return masks;
}

}  // namespace aerolbm
