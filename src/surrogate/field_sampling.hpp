#pragma once
// Sampling of point values on a uniform 2D grid at arbitrary points, and Cl/Cd from a field on the sample grid by
// the method of postprocess/surrogate/SCHEMA.md ("Cl and Cd from a field"), which coefficients.py implements too.
#include <cstdint>
#include <vector>

#include "src/geometry/polygon2d.hpp"
#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

// Values at the points (x0 + i·dx, y0 + j·dy), index (j·nx + i)·stride; solid: 1 per point (nullptr: all fluid).
struct GridField {
  int nx = 0, ny = 0;
  double x0 = 0, y0 = 0, dx = 1, dy = 1;
  const float* values = nullptr;
  int stride = 1;
  const std::uint8_t* solid = nullptr;
  float at(int i, int j) const { return values[(std::size_t(j) * nx + i) * stride]; }
  bool is_solid(int i, int j) const { return solid && solid[std::size_t(j) * nx + i]; }
};

GridField grid_field(const SampleGrid& g, const float* values, int stride, const std::uint8_t* solid);

// Plain bilinear interpolation in the cell holding q (clamped to the grid).
double bilinear(const GridField& f, const Point2& q);
// Fluid-weighted bilinear sample: solid corners get weight 0 and the rest are renormalised; with four solid
// corners, the nearest fluid point of the 4×4 around the cell (first in index order on ties); else 0.
double fluid_sample(const GridField& f, const Point2& q);

struct FieldCoefficients {
  double cl = 0, cd = 0;      // pressure + viscous
  double cl_p = 0, cd_p = 0;  // pressure part alone
};

// u, v, p (= Cp) and mask (1 = solid) on the sample grid, each with its own stride; `surface` once around the
// contour (either direction, not closed); Re for the viscous part.
FieldCoefficients coefficients_from_field(const SampleGrid& g, const float* u, const float* v, const float* p,
                                          int stride, const std::uint8_t* mask, const std::vector<Point2>& surface,
                                          double reynolds);

}  // namespace aerolbm::surrogate
