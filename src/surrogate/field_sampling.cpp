#include "src/surrogate/field_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aerolbm::surrogate {
namespace {

// The cell (i0, j0)..(i0+1, j0+1) holding q, clamped to the grid, and q's fractions inside it.
struct Cell {
  int i0, j0;
  double fx, fy;
};

Cell cell_of(const GridField& f, const Point2& q) {
  const double gx = (q[0] - f.x0) / f.dx, gy = (q[1] - f.y0) / f.dy;
  Cell c;
  c.i0 = std::clamp(int(std::floor(gx)), 0, std::max(0, f.nx - 2));
  c.j0 = std::clamp(int(std::floor(gy)), 0, std::max(0, f.ny - 2));
  c.fx = std::clamp(gx - c.i0, 0.0, 1.0);
  c.fy = std::clamp(gy - c.j0, 0.0, 1.0);
  return c;
}

}  // namespace

GridField grid_field(const SampleGrid& g, const float* values, int stride, const std::uint8_t* solid) {
  GridField f;
  f.nx = g.nx;
  f.ny = g.ny;
  f.x0 = g.x0;
  f.y0 = g.y0;
  f.dx = g.dx();
  f.dy = g.dy();
  f.values = values;
  f.stride = stride;
  f.solid = solid;
  return f;
}

double bilinear(const GridField& f, const Point2& q) {
  const Cell c = cell_of(f, q);
  const int i1 = std::min(c.i0 + 1, f.nx - 1), j1 = std::min(c.j0 + 1, f.ny - 1);
  return (1 - c.fx) * (1 - c.fy) * f.at(c.i0, c.j0) + c.fx * (1 - c.fy) * f.at(i1, c.j0) +
         (1 - c.fx) * c.fy * f.at(c.i0, j1) + c.fx * c.fy * f.at(i1, j1);
}

double fluid_sample(const GridField& f, const Point2& q) {
  const Cell c = cell_of(f, q);
  const int i1 = std::min(c.i0 + 1, f.nx - 1), j1 = std::min(c.j0 + 1, f.ny - 1);
  const int ii[4] = {c.i0, i1, c.i0, i1}, jj[4] = {c.j0, c.j0, j1, j1};
  const double w[4] = {(1 - c.fx) * (1 - c.fy), c.fx * (1 - c.fy), (1 - c.fx) * c.fy, c.fx * c.fy};
  double sum = 0, wsum = 0;
  bool any_fluid = false;
  for (int k = 0; k < 4; ++k) {
    if (f.is_solid(ii[k], jj[k])) continue;
    any_fluid = true;
    sum += w[k] * f.at(ii[k], jj[k]);
    wsum += w[k];
  }
  // Fluid corners that all carry weight 0 (q exactly on a solid corner) fall through to the nearest fluid point.
  if (any_fluid && wsum > 0) return sum / wsum;
  double best = std::numeric_limits<double>::infinity();
  double value = 0;
  for (int j = c.j0 - 1; j <= c.j0 + 2; ++j)
    for (int i = c.i0 - 1; i <= c.i0 + 2; ++i) {
      if (i < 0 || j < 0 || i >= f.nx || j >= f.ny || f.is_solid(i, j)) continue;
      const double dx = f.x0 + i * f.dx - q[0], dy = f.y0 + j * f.dy - q[1];
      const double d2 = dx * dx + dy * dy;
      if (d2 < best) {
        best = d2;
        value = f.at(i, j);
      }
    }
  return value;
}

FieldCoefficients coefficients_from_field(const SampleGrid& g, const float* u, const float* v, const float* p,
                                          int stride, const std::uint8_t* mask, const std::vector<Point2>& surface,
                                          double reynolds) {
  std::vector<Point2> poly = surface;
  if (signed_area(poly) < 0) std::reverse(poly.begin(), poly.end());
  const GridField fu = grid_field(g, u, stride, mask), fv = grid_field(g, v, stride, mask),
                  fp = grid_field(g, p, stride, mask);
  const double h = std::min(g.dx(), g.dy());
  FieldCoefficients r;
  const std::size_t n = poly.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Point2& a = poly[k];
    const Point2& b = poly[(k + 1) % n];
    const double s = std::hypot(b[0] - a[0], b[1] - a[1]);
    if (!(s > 0)) continue;
    const double tx = (b[0] - a[0]) / s, ty = (b[1] - a[1]) / s;
    const double nx = ty, ny = -tx;  // outward for a counter-clockwise polygon
    const Point2 m = {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])};
    const double cp = fluid_sample(fp, m);
    const Point2 off = {m[0] + h * nx, m[1] + h * ny};
    const double ut = fluid_sample(fu, off) * tx + fluid_sample(fv, off) * ty;
    const double tau = 2.0 / reynolds * ut / h;
    r.cd_p += -cp * nx * s;
    r.cl_p += -cp * ny * s;
    r.cd += (-cp * nx + tau * tx) * s;
    r.cl += (-cp * ny + tau * ty) * s;
  }
  return r;
}

}  // namespace aerolbm::surrogate
