#include "src/geometry/cylinder.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace aerolbm {

CylinderBody::CylinderBody(const Point2& centre, double radius) : c_(centre), r_(radius) {
  if (!(radius > 0) || !std::isfinite(radius))
    throw std::invalid_argument("CylinderBody: radius must be positive and finite");
}

bool CylinderBody::inside(const Vec3& p) const {
  const double dx = p[0] - c_[0], dy = p[1] - c_[1];
  return dx * dx + dy * dy <= r_ * r_;
}

std::optional<double> CylinderBody::intersect(const Vec3& a, const Vec3& b) const {
  const double fx = a[0] - c_[0], fy = a[1] - c_[1];
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double qa = dx * dx + dy * dy;
  if (qa == 0) return std::nullopt;  // no motion in x-y: nothing is crossed
  const double qb = 2 * (fx * dx + fy * dy);
  const double qc = fx * fx + fy * fy - r_ * r_;
  const double disc = qb * qb - 4 * qa * qc;
  if (disc < 0) return std::nullopt;
  // Roots as q/a and c/q rather than (−b ± √disc)/2a: the textbook form subtracts nearly equal numbers for the
  // root near 0 (a link starting next to the wall); this form never does, at no extra cost.
  const double q = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));
  double t0 = q / qa;
  double t1 = q != 0 ? qc / q : t0;
  if (t0 > t1) std::swap(t0, t1);
  if (t0 >= 0 && t0 <= 1) return t0;
  if (t1 >= 0 && t1 <= 1) return t1;  // a starts inside and leaves
  return std::nullopt;
}

std::vector<Vec3> CylinderBody::outline() const {
  constexpr int n = 256;
  std::vector<Vec3> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) {
    const double th = 2 * std::numbers::pi * i / n;
    out.push_back({c_[0] + r_ * std::cos(th), c_[1] + r_ * std::sin(th), 0.0});
  }
  return out;
}

std::array<Vec3, 2> CylinderBody::bounds() const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return {Vec3{c_[0] - r_, c_[1] - r_, -inf}, Vec3{c_[0] + r_, c_[1] + r_, inf}};
}

}  // namespace aerolbm
