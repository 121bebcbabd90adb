#include "src/surrogate/airfoil_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"

namespace aerolbm::surrogate {

std::vector<Point2> case_outline(const Case& c, int points_per_side) {
  if (c.geometry != GeometryType::Naca4)
    throw CaseError("geometry.type: the surrogate knows NACA 4-digit sections only (geometry.type naca4); " +
                    c.source_file.string() + " has another geometry. Use a naca4 case.");
  SectionPlacement pl;
  pl.scale = 1.0;
  pl.angle_of_attack_deg = c.angle_of_attack_deg;
  pl.pivot_section = {0.25, 0.0};
  pl.pivot_lattice = {0.0, 0.0};
  std::vector<Point2> out = naca4_outline(c.naca_code, points_per_side);
  for (auto& p : out) p = place_point(p, pl);
  return out;
}

bool inside_polygon(const std::vector<Point2>& poly, const Point2& p) {
  bool in = false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Point2& a = poly[i];
    const Point2& b = poly[j];
    if ((a[1] > p[1]) != (b[1] > p[1])) {
      const double x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
      if (p[0] < x) in = !in;
    }
  }
  return in;
}

double signed_distance(const std::vector<Point2>& poly, const Point2& p) {
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point2& a = poly[i];
    const Point2& b = poly[(i + 1) % n];
    const double ex = b[0] - a[0], ey = b[1] - a[1];
    const double len2 = ex * ex + ey * ey;
    double t = len2 > 0 ? ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double dx = p[0] - (a[0] + t * ex), dy = p[1] - (a[1] + t * ey);
    best = std::min(best, dx * dx + dy * dy);
  }
  const double d = std::sqrt(best);
  return inside_polygon(poly, p) ? -d : d;
}

std::vector<float> point_features(const SampleGrid& g, const std::vector<Point2>& outline) {
  std::vector<float> f(std::size_t(g.points()) * kPointFeatures);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const Point2 p = {g.x(i), g.y(j)};
      const double d = signed_distance(outline, p);
      float* r = f.data() + (std::size_t(j) * g.nx + i) * kPointFeatures;
      r[0] = float(p[0]);
      r[1] = float(p[1]);
      r[2] = float(d);
      r[3] = d < 0 ? 1.0f : 0.0f;
    }
  return f;
}

std::array<double, kParamFeatures> case_params(const Case& c) {
  const Naca4Params n = parse_naca4(c.naca_code);
  // A symmetric section has no camber position; the sweep records 0 for it too (SCHEMA.md, sweep.yaml).
  return {n.m, n.m == 0 ? 0.0 : n.p, n.t, c.angle_of_attack_deg, c.reynolds};
}

}  // namespace aerolbm::surrogate
