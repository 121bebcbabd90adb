#pragma once
// Where a failed watchdog scan's bad cells lie (cells with non-finite values or a speed over the bound), from the
// host copy of a grid's fields: how many, their centroid and their bounding box. The backends' scan reports only the
// lowest-indexed bad cell, which in a blow-up that has spread for a few steps is the bottom edge of the damaged
// region, not where it started; the centroid of a region spreading at the same speed in every direction is.
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/frame.hpp"

namespace aerolbm {

struct BadCells {
  std::int64_t count = 0;
  std::int64_t non_finite = 0;  // of them, with NaN or Inf
  std::int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // bounding box, cell indices (inclusive)
  double centre[3] = {0, 0, 0};                       // centroid, cell indices
};

// rho: one value per cell, u: three per cell (x, y, z), flags: the grid's cell flags, cells x fastest. The cells
// and the test are the backends' scan's (kernels/physics/watchdog.hpp).
BadCells find_bad_cells(const GridInfo& g, const std::vector<float>& rho, const std::vector<float>& u,
                        const std::vector<std::uint8_t>& flags, double max_speed);

// "N bad cells (M non-finite) around (x, y) reference lengths from the body pivot, over x a..b, y c..d" (2D: no z).
std::string describe_bad_cells(const GridInfo& g, const BadCells& b, int dims);

}  // namespace aerolbm
