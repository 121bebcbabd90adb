#include "src/geometry/stl_body.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace aerolbm {

namespace {

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

bool xy_less(const Vec3& a, const Vec3& b) { return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]); }

// Sign of the orientation of q relative to the directed x-y line lo → hi (lo <_xy hi), with ties broken as if q
// were moved by (ε, ε²): +1 left, −1 right; 0 only for a zero-length edge. Also returns the raw value.
int edge_side(const Vec3& lo, const Vec3& hi, double qx, double qy, double& value) {
  const double ex = hi[0] - lo[0], ey = hi[1] - lo[1];
  value = ex * (qy - lo[1]) - ey * (qx - lo[0]);
  if (value > 0) return 1;
  if (value < 0) return -1;
  // d/dε of the orientation is −ey, d/dε² is ex; lo <_xy hi makes ey ≠ 0 or ex > 0 unless lo == hi.
  if (ey != 0) return ey < 0 ? 1 : -1;
  return ex > 0 ? 1 : 0;
}

// Cells per axis for about `target` cells over a box of the given extents (each ≥ 1 cell).
std::array<std::size_t, 3> grid_shape(const Vec3& ext, int dims, double target) {
  double vol = 1;
  int used = 0;
  for (int a = 0; a < dims; ++a)
    if (ext[a] > 0) vol *= ext[a], ++used;
  const double h = used > 0 ? std::pow(vol / target, 1.0 / used) : 1.0;
  std::array<std::size_t, 3> n{1, 1, 1};
  if (!(h > 0) || !std::isfinite(h)) return n;  // extents so small or large that vol under/overflows
  for (int a = 0; a < dims; ++a)
    if (ext[a] > 0)
      n[a] = static_cast<std::size_t>(std::clamp(std::ceil(ext[a] / h), 1.0, 4096.0));
  return n;
}

}  // namespace

Vec3 place_point(const Vec3& q, const StlPlacement& pl) {
  const double a = pl.angle_of_attack_deg * std::numbers::pi / 180.0;
  const double c = std::cos(a), s = std::sin(a);
  const Vec3 d = {(q[0] - pl.pivot_model[0]) * pl.scale, (q[1] - pl.pivot_model[1]) * pl.scale,
                  (q[2] - pl.pivot_model[2]) * pl.scale};
  // Rotation by −α about z, as place_point for sections: the nose (ahead of the pivot, dx < 0) rises.
  return {pl.pivot_lattice[0] + c * d[0] + s * d[1], pl.pivot_lattice[1] - s * d[0] + c * d[1],
          pl.pivot_lattice[2] + d[2]};
}

std::size_t StlBody::Grid::index(double x, int axis, const Vec3& lo) const {
  const double f = std::floor((x - lo[axis]) * inv_h[axis]);
  if (!(f > 0)) return 0;  // also NaN
  return std::min(static_cast<std::size_t>(std::min(f, 1e15)), n[axis] - 1);
}

StlBody::StlBody(const std::vector<Triangle>& model, const StlPlacement& pl) {
  if (model.empty()) throw std::invalid_argument("StlBody: no triangles");
  if (model.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("StlBody: too many triangles");
  if (!(pl.scale > 0) || !std::isfinite(pl.scale))
    throw std::invalid_argument("StlBody: scale must be positive and finite");
  tri_.reserve(model.size());
  lo_ = hi_ = place_point(model[0][0], pl);
  for (const Triangle& t : model) {
    Triangle p;
    for (int k = 0; k < 3; ++k) {
      p[k] = place_point(t[k], pl);
      for (int a = 0; a < 3; ++a) lo_[a] = std::min(lo_[a], p[k][a]), hi_[a] = std::max(hi_[a], p[k][a]);
    }
    tri_.push_back(p);
    edge_forward_.push_back({xy_less(p[0], p[1]), xy_less(p[1], p[2]), xy_less(p[2], p[0])});
  }

  const Vec3 ext = sub(hi_, lo_);
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(ext[a]))
      throw std::invalid_argument("StlBody: the placed mesh does not fit in finite lattice coordinates");
  const double target = std::max<double>(1, 2.0 * static_cast<double>(tri_.size()));
  const auto build = [&](Grid& g, int dims) {
    g.n = grid_shape(ext, dims, target);
    for (int a = 0; a < 3; ++a) g.inv_h[a] = ext[a] > 0 ? static_cast<double>(g.n[a]) / ext[a] : 0.0;
    const std::size_t total = g.n[0] * g.n[1] * g.n[2];
    // Two passes (count, then fill) over each triangle's range of cells.
    g.start.assign(total + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<std::uint32_t> fill;
      if (pass == 1) {
        for (std::size_t i = 0; i < total; ++i) g.start[i + 1] += g.start[i];
        g.ids.resize(g.start[total]);
        fill.assign(g.start.begin(), g.start.end() - 1);
      }
      for (std::size_t t = 0; t < tri_.size(); ++t) {
        std::array<std::size_t, 3> i0{0, 0, 0}, i1{0, 0, 0};
        for (int a = 0; a < dims; ++a) {
          const auto [mn, mx] = std::minmax({tri_[t][0][a], tri_[t][1][a], tri_[t][2][a]});
          i0[a] = g.index(mn, a, lo_);
          i1[a] = g.index(mx, a, lo_);
        }
        for (std::size_t z = i0[2]; z <= i1[2]; ++z)
          for (std::size_t y = i0[1]; y <= i1[1]; ++y)
            for (std::size_t x = i0[0]; x <= i1[0]; ++x) {
              const std::size_t c = (z * g.n[1] + y) * g.n[0] + x;
              if (pass == 0) ++g.start[c + 1];
              else g.ids[fill[c]++] = static_cast<std::uint32_t>(t);
            }
      }
    }
  };
  build(columns_, 2);
  build(cells_, 3);
}

bool StlBody::inside(const Vec3& p) const {
  for (int a = 0; a < 3; ++a)
    if (!(p[a] >= lo_[a] && p[a] <= hi_[a])) return false;
  const std::size_t col = columns_.index(p[1], 1, lo_) * columns_.n[0] + columns_.index(p[0], 0, lo_);
  bool in = false;
  for (std::uint32_t k = columns_.start[col]; k < columns_.start[col + 1]; ++k) {
    const std::uint32_t t = columns_.ids[k];
    const Triangle& v = tri_[t];
    // w[k]: signed value of edge k (vertex k → k+1) at p, evaluated along its canonical direction so that both
    // triangles on an edge see the same number; it is the barycentric weight of the opposite vertex k+2.
    double w[3];
    int side[3];
    for (int e = 0; e < 3; ++e) {
      const Vec3& a = v[e];
      const Vec3& b = v[(e + 1) % 3];
      const bool fwd = edge_forward_[t][e];
      side[e] = fwd ? edge_side(a, b, p[0], p[1], w[e]) : -edge_side(b, a, p[0], p[1], w[e]);
      if (!fwd) w[e] = -w[e];
    }
    if (side[0] == 0 || side[0] != side[1] || side[1] != side[2]) continue;
    const double sum = w[0] + w[1] + w[2];
    if (sum == 0) continue;
    const double z = (w[1] * v[0][2] + w[2] * v[1][2] + w[0] * v[2][2]) / sum;
    if (z > p[2]) in = !in;
  }
  return in;
}

std::optional<double> StlBody::intersect(const Vec3& a, const Vec3& b) const {
  const Vec3 d = sub(b, a);
  std::optional<double> best;
  const auto test = [&](std::uint32_t t) {
    const Triangle& v = tri_[t];
    const Vec3 e1 = sub(v[1], v[0]), e2 = sub(v[2], v[0]);
    const Vec3 pv = cross(d, e2);
    const double det = dot(e1, pv);
    if (det == 0 || !std::isfinite(det)) return;  // parallel: the neighbouring triangles catch the crossing
    const double inv = 1.0 / det;
    const Vec3 tv = sub(a, v[0]);
    const double u = dot(tv, pv) * inv;
    constexpr double eps = 1e-9;
    if (u < -eps || u > 1 + eps) return;
    const Vec3 qv = cross(tv, e1);
    const double w = dot(d, qv) * inv;
    if (w < -eps || u + w > 1 + eps) return;
    const double s = dot(e2, qv) * inv;
    if (s < -1e-12 || s > 1 + 1e-12) return;
    const double c = std::clamp(s, 0.0, 1.0);
    if (!best || c < *best) best = c;
  };
  // Cells overlapping the segment's box; a long segment that covers more cells than there are triangles tests
  // every triangle instead.
  std::array<std::size_t, 3> i0{}, i1{};
  for (int k = 0; k < 3; ++k) {
    const auto [mn, mx] = std::minmax(a[k], b[k]);
    if (mx < lo_[k] || mn > hi_[k]) return std::nullopt;
    i0[k] = cells_.index(mn, k, lo_);
    i1[k] = cells_.index(mx, k, lo_);
  }
  const double span = static_cast<double>(i1[0] - i0[0] + 1) * static_cast<double>(i1[1] - i0[1] + 1) *
                      static_cast<double>(i1[2] - i0[2] + 1);
  if (span > static_cast<double>(tri_.size())) {
    for (std::uint32_t t = 0; t < tri_.size(); ++t) test(t);
    return best;
  }
  for (std::size_t z = i0[2]; z <= i1[2]; ++z)
    for (std::size_t y = i0[1]; y <= i1[1]; ++y)
      for (std::size_t x = i0[0]; x <= i1[0]; ++x) {
        const std::size_t c = (z * cells_.n[1] + y) * cells_.n[0] + x;
        for (std::uint32_t k = cells_.start[c]; k < cells_.start[c + 1]; ++k) test(cells_.ids[k]);
      }
  return best;
}

}  // namespace aerolbm
