#include "src/geometry/polygon_body.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace aerolbm {

Point2 place_point(const Point2& q, const SectionPlacement& pl) {
  const double a = pl.angle_of_attack_deg * std::numbers::pi / 180.0;
  const double c = std::cos(a), s = std::sin(a);
  const double dx = (q[0] - pl.pivot_section[0]) * pl.scale;
  const double dy = (q[1] - pl.pivot_section[1]) * pl.scale;
  // Rotation by −α: with the flow in +x, nose-up means the leading edge (ahead of the pivot, dx < 0) rises.
  return {pl.pivot_lattice[0] + c * dx + s * dy, pl.pivot_lattice[1] - s * dx + c * dy};
}

PolygonBody::PolygonBody(const std::vector<Point2>& section, const SectionPlacement& placement) {
  if (section.size() < 3) throw std::invalid_argument("PolygonBody: a polygon needs at least 3 vertices");
  if (!(placement.scale > 0) || !std::isfinite(placement.scale))
    throw std::invalid_argument("PolygonBody: scale must be positive and finite");
  if (section.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("PolygonBody: too many vertices");
  v_.reserve(section.size());
  for (const Point2& q : section) v_.push_back(place_point(q, placement));

  xmin_ = xmax_ = v_[0][0];
  ymin_ = ymax_ = v_[0][1];
  for (const Point2& p : v_) {
    xmin_ = std::min(xmin_, p[0]);
    xmax_ = std::max(xmax_, p[0]);
    ymin_ = std::min(ymin_, p[1]);
    ymax_ = std::max(ymax_, p[1]);
  }

  // About one band per two edges keeps each band's list short for a typical airfoil without a big table.
  const std::size_t n = v_.size();
  const double height = ymax_ - ymin_;
  n_bands_ = height > 0 ? std::max<std::size_t>(1, n / 2) : 1;
  band_scale_ = height > 0 ? double(n_bands_) / height : 0.0;
  std::vector<std::uint32_t> count(n_bands_ + 1, 0);
  const auto for_each_band = [&](std::size_t e, auto&& fn) {
    const Point2& a = v_[e];
    const Point2& b = v_[(e + 1) % n];
    const std::size_t lo = band_of(std::min(a[1], b[1])), hi = band_of(std::max(a[1], b[1]));
    for (std::size_t k = lo; k <= hi; ++k) fn(k);
  };
  for (std::size_t e = 0; e < n; ++e) for_each_band(e, [&](std::size_t k) { ++count[k + 1]; });
  for (std::size_t k = 0; k < n_bands_; ++k) count[k + 1] += count[k];
  band_start_ = count;
  band_edges_.resize(band_start_.back());
  for (std::size_t e = 0; e < n; ++e)
    for_each_band(e, [&](std::size_t k) { band_edges_[count[k]++] = static_cast<std::uint32_t>(e); });
}

// Monotone in y (floating-point subtraction and multiplication by a positive constant are), so an edge whose
// y-range contains y is always listed in band_of(y).
std::size_t PolygonBody::band_of(double y) const {
  const double f = (y - ymin_) * band_scale_;
  if (!(f > 0)) return 0;
  return std::min(static_cast<std::size_t>(f), n_bands_ - 1);
}

bool PolygonBody::inside(const Vec3& p) const {
  const double x = p[0], y = p[1];
  if (x < xmin_ || x > xmax_ || y < ymin_ || y > ymax_) return false;
  const std::size_t n = v_.size(), k = band_of(y);
  bool in = false;
  for (std::uint32_t i = band_start_[k]; i < band_start_[k + 1]; ++i) {
    const std::size_t e = band_edges_[i];
    const Point2& a = v_[e];
    const Point2& b = v_[(e + 1) % n];
    // Half-open in y, so a ray through a vertex counts the two edges meeting there exactly once in total.
    if ((a[1] > y) != (b[1] > y)) {
      const double xc = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
      if (x < xc) in = !in;
    }
  }
  return in;
}

std::optional<double> PolygonBody::intersect(const Vec3& a3, const Vec3& b3) const {
  const double ax = a3[0], ay = a3[1], rx = b3[0] - ax, ry = b3[1] - ay;
  if (std::max(ax, b3[0]) < xmin_ || std::min(ax, b3[0]) > xmax_ || std::max(ay, b3[1]) < ymin_ ||
      std::min(ay, b3[1]) > ymax_)
    return std::nullopt;
  // Where two edges meet at a vertex the segment's parameter s on each can round to just outside [0, 1];
  // the slack keeps such a hit from slipping between them.
  constexpr double slack = 1e-12;
  const std::size_t n = v_.size();
  const std::size_t k0 = band_of(std::min(ay, b3[1])), k1 = band_of(std::max(ay, b3[1]));
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = k0; k <= k1; ++k) {
    for (std::uint32_t i = band_start_[k]; i < band_start_[k + 1]; ++i) {
      const std::size_t e = band_edges_[i];
      const Point2& c = v_[e];
      const Point2& d = v_[(e + 1) % n];
      const double ex = d[0] - c[0], ey = d[1] - c[1];
      const double denom = rx * ey - ry * ex;
      if (denom == 0) continue;  // parallel: a grazing overlap is not a crossing
      const double wx = c[0] - ax, wy = c[1] - ay;
      const double t = (wx * ey - wy * ex) / denom;
      const double s = (wx * ry - wy * rx) / denom;
      if (t >= -slack && t <= 1 + slack && s >= -slack && s <= 1 + slack) best = std::min(best, t);
    }
  }
  if (!std::isfinite(best)) return std::nullopt;
  return std::clamp(best, 0.0, 1.0);
}

std::vector<Vec3> PolygonBody::outline() const {
  std::vector<Vec3> out;
  out.reserve(v_.size());
  for (const Point2& p : v_) out.push_back({p[0], p[1], 0.0});
  return out;
}

std::array<Vec3, 2> PolygonBody::bounds() const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return {Vec3{xmin_, ymin_, -inf}, Vec3{xmax_, ymax_, inf}};
}

}  // namespace aerolbm
