#pragma once
// How two runs' field grids relate: the same points, or one finer than the other over the same domain. Fields
// are then compared on the points of the coarser grid, the finer one sampled there by (bi/tri)linear
// interpolation between its points (point data at cell centres, in the physical coordinates of fields.h5).
#include <cstdint>
#include <string>
#include <vector>

#include "src/compare/run_folder.hpp"

namespace aerolbm {

struct GridMatch {
  bool same_grid = false;
  int coarse = 0;  // 0: run A's grid is the comparison grid, 1: run B's
  std::string note;  // one sentence for the report
};

// Throws CompareInputError when the domains differ (lower/upper corners more than half a coarse cell apart) or
// when one run is 2D and the other 3D.
GridMatch match_grids(const RunFolder& a, const RunFolder& b);

// Samples `values` (components per point, file order) given on `from` at every point of `to`. A point is valid
// when it lies inside `from` and, if `from_mask` is not empty, every point of `from` with a non-zero weight is
// fluid (mask 0): solid points hold zeros that would drag the interpolant towards zero next to walls.
struct Resampled {
  std::vector<float> values;
  std::vector<std::uint8_t> valid;
};
Resampled resample(const FieldGrid& from, const std::vector<float>& values, int components,
                   const std::vector<float>& from_mask, const FieldGrid& to);

}  // namespace aerolbm
