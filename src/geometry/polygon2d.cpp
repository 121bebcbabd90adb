#include "src/geometry/polygon2d.hpp"

#include <algorithm>

namespace aerolbm {

namespace {

double cross(const Point2& o, const Point2& a, const Point2& b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

int sign(double v) { return (v > 0) - (v < 0); }

// For c known to be collinear with a–b: is it within the segment's box?
bool on_segment(const Point2& a, const Point2& b, const Point2& c) {
  return std::min(a[0], b[0]) <= c[0] && c[0] <= std::max(a[0], b[0]) && std::min(a[1], b[1]) <= c[1] &&
         c[1] <= std::max(a[1], b[1]);
}

}  // namespace

double signed_area(const std::vector<Point2>& poly) {
  const std::size_t n = poly.size();
  double twice = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Point2& p = poly[i];
    const Point2& q = poly[(i + 1) % n];
    twice += p[0] * q[1] - q[0] * p[1];
  }
  return 0.5 * twice;
}

bool segments_touch(const Point2& a, const Point2& b, const Point2& c, const Point2& d) {
  const int o1 = sign(cross(a, b, c)), o2 = sign(cross(a, b, d));
  const int o3 = sign(cross(c, d, a)), o4 = sign(cross(c, d, b));
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
         (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

std::optional<std::pair<std::size_t, std::size_t>> find_self_intersection(const std::vector<Point2>& poly) {
  const std::size_t n = poly.size();
  if (n < 4) return std::nullopt;  // a triangle's edges are all adjacent
  for (std::size_t i = 0; i < n; ++i) {
    const Point2& a = poly[i];
    const Point2& b = poly[(i + 1) % n];
    const double ax0 = std::min(a[0], b[0]), ax1 = std::max(a[0], b[0]);
    const double ay0 = std::min(a[1], b[1]), ay1 = std::max(a[1], b[1]);
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // the closing edge shares poly[0] with edge 0
      const Point2& c = poly[j];
      const Point2& d = poly[(j + 1) % n];
      if (std::max(c[0], d[0]) < ax0 || std::min(c[0], d[0]) > ax1 || std::max(c[1], d[1]) < ay0 ||
          std::min(c[1], d[1]) > ay1)
        continue;
      if (segments_touch(a, b, c, d)) return std::make_pair(i, j);
    }
  }
  return std::nullopt;
}

}  // namespace aerolbm
