#include "src/geometry/stl_body.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace aerolbm {

namespace {

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

bool xy_less(const Vec3& a, const Vec3& b) { return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]); }

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

MeshGridView StlBody::Grid::view() const {
  MeshGridView g;
  for (int a = 0; a < 3; ++a) g.n[a] = n[a], g.inv_h[a] = inv_h[a];
  g.start = start.data();
  g.ids = ids.data();
  return g;
}

MeshView StlBody::view() const {
  static_assert(sizeof(Triangle) == 9 * sizeof(double), "Triangle must be nine packed doubles");
  MeshView m;
  m.tri = tri_.data()->data()->data();
  m.edge_forward = edge_forward_.data();
  m.n_tri = static_cast<std::uint32_t>(tri_.size());
  for (int a = 0; a < 3; ++a) m.lo[a] = lo_[a], m.hi[a] = hi_[a];
  m.columns = columns_.view();
  m.cells = cells_.view();
  return m;
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
    edge_forward_.push_back(static_cast<std::uint8_t>((xy_less(p[0], p[1]) ? 1 : 0) | (xy_less(p[1], p[2]) ? 2 : 0) |
                                                      (xy_less(p[2], p[0]) ? 4 : 0)));
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
        const MeshGridView gv = g.view();
        const double lo[3] = {lo_[0], lo_[1], lo_[2]};
        for (int a = 0; a < dims; ++a) {
          const auto [mn, mx] = std::minmax({tri_[t][0][a], tri_[t][1][a], tri_[t][2][a]});
          i0[a] = mesh_grid_index(gv, mn, a, lo);
          i1[a] = mesh_grid_index(gv, mx, a, lo);
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

bool StlBody::inside(const Vec3& p) const { return mesh_inside(view(), p[0], p[1], p[2]); }

std::optional<double> StlBody::intersect(const Vec3& a, const Vec3& b) const {
  const double t = mesh_intersect(view(), a.data(), b.data());
  if (t < 0) return std::nullopt;
  return t;
}

}  // namespace aerolbm
