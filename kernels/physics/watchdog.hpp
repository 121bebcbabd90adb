#pragma once
// The divergence watchdog's two tests, written once for the backends' scans (cell_is_sane, cell_update.hpp) and
// the host's account of where the bad cells lie (src/solver/bad_cells.cpp).
#include <cstdint>

#include "kernels/physics/hd.hpp"
#include "kernels/physics/params.hpp"

namespace aerolbm {

// The cells the watchdog looks at: not solid, and not a refined level's ghost (a cell under the next level's box
// or in its band, whose values are not the level's own).
AEROLBM_HD bool watched_cell(std::uint8_t flag) {
  return (flag & cell::type_mask) != cell::solid && !(flag & cell::ghost);
}

// A cell's state passes: positive, finite density and a squared speed s2 within the bound. Written so that NaN
// fails every comparison and so counts as bad.
template <class R>
AEROLBM_HD bool state_is_sane(R rho, R s2, R max_speed) {
  return rho > R(0) && rho < R(1e30) && s2 <= max_speed * max_speed;
}

}  // namespace aerolbm
