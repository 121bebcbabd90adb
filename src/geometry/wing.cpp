#include "src/geometry/wing.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace aerolbm {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

double cross2(const Point2& o, const Point2& a, const Point2& b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// Points at cosine-spaced arc lengths along an open chain (both ends included, count + 1 points).
std::vector<Point2> resample_chain(const std::vector<Point2>& chain, int count) {
  std::vector<double> s(chain.size(), 0.0);
  for (std::size_t i = 1; i < chain.size(); ++i)
    s[i] = s[i - 1] + std::hypot(chain[i][0] - chain[i - 1][0], chain[i][1] - chain[i - 1][1]);
  const double total = s.back();
  std::vector<Point2> out(static_cast<std::size_t>(count) + 1);
  std::size_t seg = 1;
  for (int i = 0; i <= count; ++i) {
    if (i == 0 || i == count) {
      out[i] = i == 0 ? chain.front() : chain.back();
      continue;
    }
    const double target = 0.5 * total * (1.0 - std::cos(std::numbers::pi * i / count));
    while (seg + 1 < chain.size() && s[seg] < target) ++seg;
    const double len = s[seg] - s[seg - 1];
    const double f = len > 0 ? std::clamp((target - s[seg - 1]) / len, 0.0, 1.0) : 0.0;
    out[i] = {chain[seg - 1][0] + f * (chain[seg][0] - chain[seg - 1][0]),
              chain[seg - 1][1] + f * (chain[seg][1] - chain[seg - 1][1])};
  }
  return out;
}

// Ear clipping of a simple counter-clockwise polygon: triangles (as vertex indices) counter-clockwise too.
// An airfoil outline is nearly convex, so an ear is found in a step or two and the whole is about O(n²).
std::vector<std::array<int, 3>> triangulate(const std::vector<Point2>& poly) {
  const int n = static_cast<int>(poly.size());
  std::vector<int> prev(n), next(n);
  for (int i = 0; i < n; ++i) prev[i] = (i + n - 1) % n, next[i] = (i + 1) % n;
  std::vector<std::array<int, 3>> out;
  out.reserve(n - 2);
  // Scale for "collinear": a vertex whose turn is this small is clipped only when no proper ear is left.
  double extent = 0;
  for (const Point2& p : poly) extent = std::max({extent, std::abs(p[0]), std::abs(p[1])});
  const double tiny = 1e-14 * extent * extent;
  const auto is_ear = [&](int v, bool allow_flat) {
    const int a = prev[v], b = next[v];
    const double turn = cross2(poly[a], poly[v], poly[b]);
    if (!(turn > tiny) && !(allow_flat && turn >= -tiny)) return false;
    for (int w = next[b]; w != a; w = next[w]) {
      const Point2& p = poly[w];
      if (p == poly[a] || p == poly[v] || p == poly[b]) continue;
      if (cross2(poly[a], poly[v], p) >= 0 && cross2(poly[v], poly[b], p) >= 0 && cross2(poly[b], poly[a], p) >= 0)
        return false;
    }
    return true;
  };
  int remaining = n, v = 0;
  while (remaining > 3) {
    int found = -1;
    for (bool allow_flat : {false, true}) {
      int w = v;
      for (int k = 0; k < remaining && found < 0; ++k, w = next[w])
        if (is_ear(w, allow_flat)) found = w;
      if (found >= 0) break;
    }
    if (found < 0) throw std::invalid_argument("wing: a section outline could not be triangulated (not simple)");
    out.push_back({prev[found], found, next[found]});
    next[prev[found]] = next[found];
    prev[next[found]] = prev[found];
    v = next[found];
    --remaining;
  }
  out.push_back({prev[v], v, next[v]});
  return out;
}

void check_section(const std::vector<Point2>& s, std::size_t size, const char* which) {
  if (s.size() != size || s.size() < 8)
    throw std::invalid_argument(std::string("wing: the ") + which + " section has " + std::to_string(s.size()) +
                                " points, expected " + std::to_string(size) + " (at least 8)");
  for (const Point2& p : s)
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]))
      throw std::invalid_argument(std::string("wing: the ") + which + " section has a non-finite point");
}

}  // namespace

std::vector<Point2> resample_section(const std::vector<Point2>& outline, int n_per_side) {
  if (outline.size() < 4) throw std::invalid_argument("resample_section: fewer than 4 points");
  if (n_per_side < 4) throw std::invalid_argument("resample_section: n_per_side must be at least 4");
  std::size_t le = 0;
  for (std::size_t i = 1; i < outline.size(); ++i)
    if (outline[i][0] < outline[le][0]) le = i;
  if (le == 0 || le + 1 >= outline.size())
    throw std::invalid_argument("resample_section: the leading edge is at an end of the outline (not Selig order)");
  const std::vector<Point2> upper(outline.begin(), outline.begin() + static_cast<std::ptrdiff_t>(le) + 1);
  std::vector<Point2> lower(outline.begin() + static_cast<std::ptrdiff_t>(le), outline.end());
  lower.push_back(outline.front());  // back to the trailing edge (across the base of a blunt one)
  const std::vector<Point2> up = resample_chain(upper, n_per_side), lo = resample_chain(lower, n_per_side);
  std::vector<Point2> out(up.begin(), up.end());           // TE → LE
  out.insert(out.end(), lo.begin() + 1, lo.end() - 1);     // after LE → before TE
  return out;
}

std::vector<Triangle> wing_mesh(const WingShape& w, int points_per_side, int intervals_per_half) {
  if (!(w.span > 0) || !std::isfinite(w.span)) throw std::invalid_argument("wing: the span must be positive");
  if (!(w.tip_chord > 0) || !std::isfinite(w.tip_chord))
    throw std::invalid_argument("wing: the tip chord must be positive");
  if (!(std::abs(w.sweep_deg) < 80) || !(std::abs(w.dihedral_deg) < 80) || !(std::abs(w.twist_deg) <= 45))
    throw std::invalid_argument("wing: sweep and dihedral must be within ±80°, twist within ±45°");
  if (points_per_side < 4 || intervals_per_half < 1)
    throw std::invalid_argument("wing: at least 4 points per side and 1 spanwise interval");
  const std::vector<Point2>& tip = w.tip.empty() ? w.root : w.tip;
  check_section(w.root, w.root.size(), "root");
  check_section(tip, w.root.size(), "tip");
  const std::size_t m = w.root.size();

  // Stations: η = |z|/(span/2) from 0 at the root to 1 at the tips; a full wing has its root station in the
  // middle so the linear twist and taper kink there as they should.
  const int S = intervals_per_half;
  const int stations = w.half ? S + 1 : 2 * S + 1;
  const double half_span = 0.5 * w.span;
  const double tan_sweep = std::tan(w.sweep_deg * kDeg), tan_dihedral = std::tan(w.dihedral_deg * kDeg);
  std::vector<std::vector<Vec3>> ring(static_cast<std::size_t>(stations), std::vector<Vec3>(m));
  for (int j = 0; j < stations; ++j) {
    const int from_root = w.half ? j : std::abs(j - S);
    const double eta = double(from_root) / S;
    const double z = (w.half || j >= S ? 1.0 : -1.0) * half_span * eta;
    const double chord = 1.0 + eta * (w.tip_chord - 1.0);
    const double theta = w.twist_deg * kDeg * eta;
    const double c = std::cos(theta), s = std::sin(theta);
    const double x_quarter = -0.25 + half_span * eta * tan_sweep + 0.25 * chord;
    const double y_quarter = half_span * eta * tan_dihedral;
    for (std::size_t i = 0; i < m; ++i) {
      const double sx = (1.0 - eta) * w.root[i][0] + eta * tip[i][0];
      const double sy = (1.0 - eta) * w.root[i][1] + eta * tip[i][1];
      const double X = (sx - 0.25) * chord, Y = sy * chord;
      // Nose up by θ: the same turn (by −θ about z) as the angle of attack.
      ring[j][i] = {x_quarter + c * X + s * Y, y_quarter - s * X + c * Y, z};
    }
  }

  std::vector<Triangle> out;
  const std::vector<std::array<int, 3>> cap = triangulate(w.root);
  out.reserve(2 * m * (stations - 1) + 2 * cap.size());
  // Sides: the section runs counter-clockwise seen from +z, so (a, b, next-station b) faces outwards.
  for (int j = 0; j + 1 < stations; ++j)
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t k = (i + 1) % m;
      const Vec3 &a = ring[j][i], &b = ring[j][k], &c = ring[j + 1][k], &d = ring[j + 1][i];
      out.push_back({a, b, c});
      out.push_back({a, c, d});
    }
  // Caps: the root's triangulation fits every station (same topology); the far end faces +z, the near end −z.
  // The tip section may differ in shape from the root, so it gets its own triangulation.
  const std::vector<std::array<int, 3>> tip_cap = w.tip.empty() ? cap : triangulate(tip);
  const auto& near_cap = w.half ? cap : tip_cap;
  for (const auto& t : near_cap) out.push_back({ring.front()[t[0]], ring.front()[t[2]], ring.front()[t[1]]});
  for (const auto& t : tip_cap) out.push_back({ring.back()[t[0]], ring.back()[t[1]], ring.back()[t[2]]});
  return out;
}

double wing_planform_area(const WingShape& w) {
  const double full = 0.5 * w.span * (1.0 + w.tip_chord);
  return w.half ? 0.5 * full : full;
}

double wing_mean_aerodynamic_chord(const WingShape& w) {
  const double l = w.tip_chord;
  return 2.0 / 3.0 * (1.0 + l + l * l) / (1.0 + l);
}

int wing_points_per_side(double cells_per_reference) {
  return std::max(200, static_cast<int>(std::ceil(2.0 * cells_per_reference)));
}

int wing_intervals_per_half(const WingShape& w, double cells_per_reference) {
  return std::max(1, static_cast<int>(std::ceil(0.5 * w.span * cells_per_reference)));
}

std::unique_ptr<StlBody> make_wing_body(const WingShape& w, double L, double angle_of_attack_deg,
                                        const Vec3& root_quarter_chord) {
  StlPlacement pl;
  pl.scale = L;
  pl.angle_of_attack_deg = angle_of_attack_deg;
  pl.pivot_model = {0, 0, 0};
  pl.pivot_lattice = root_quarter_chord;
  auto body = std::make_unique<StlBody>(wing_mesh(w, wing_points_per_side(L), wing_intervals_per_half(w, L)), pl);
  ForceReference ref;
  ref.length = wing_mean_aerodynamic_chord(w) * L;
  ref.area = wing_planform_area(w) * L * L;
  ref.moment_point = root_quarter_chord;
  ref.span_axis = 2;
  ref.half_model = w.half;
  body->set_reference(ref);
  return body;
}

double mesh_volume(const std::vector<Triangle>& tri) {
  double v = 0;
  for (const Triangle& t : tri) {
    const Vec3 &a = t[0], &b = t[1], &c = t[2];
    v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return v / 6.0;
}

}  // namespace aerolbm
