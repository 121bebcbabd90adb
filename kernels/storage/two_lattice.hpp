#pragma once
// Two-lattice storage (both backends): structure of arrays, two lattices (read previous, write next), swapped each step.
#include <cstdint>

#include "kernels/physics/hd.hpp"

namespace aerolbm {

template <class T, class R>
struct TwoLatticeAccess {
  using stored_type = T;
  const T* src;
  T* dst;
  std::int64_t cells;
  AEROLBM_HD R get(int i, std::int64_t n) const { return R(src[std::int64_t(i) * cells + n]); }
  AEROLBM_HD void put(int i, std::int64_t n, R v) const { dst[std::int64_t(i) * cells + n] = T(v); }
};

}  // namespace aerolbm
