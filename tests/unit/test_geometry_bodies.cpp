// PolygonBody and CylinderBody: point tests and link intersections against hand-computed geometry and a
// brute-force reference (so the band acceleration cannot silently drop an edge).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "src/geometry/cylinder.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"

namespace aerolbm {
namespace {

constexpr double kPi = std::numbers::pi;

// ---- cylinder ----------------------------------------------------------------------------------------------

TEST(CylinderBody, InsideIsTheDiscInEverySection) {
  const CylinderBody c({50.5, 40.5}, 10.0);
  EXPECT_TRUE(c.inside({50.5, 40.5, 0.5}));
  EXPECT_TRUE(c.inside({60.4, 40.5, 7.5}));
  EXPECT_FALSE(c.inside({60.6, 40.5, 0.5}));
  EXPECT_TRUE(c.inside({50.5 + 7.0, 40.5 + 7.0, -3.0}));   // r = 9.90
  EXPECT_FALSE(c.inside({50.5 + 7.1, 40.5 + 7.1, 0.0}));   // r = 10.04
  const auto b = c.bounds();
  EXPECT_EQ(b[0][0], 40.5);
  EXPECT_EQ(b[1][1], 50.5);
  EXPECT_TRUE(std::isinf(b[0][2]) && b[0][2] < 0);
}

TEST(CylinderBody, RadialLinksCrossAtTheRadiusInEveryDirection) {
  const Point2 c{50.5, 40.5};
  const CylinderBody body(c, 10.0);
  for (int k = 0; k < 16; ++k) {
    const double th = 2 * kPi * k / 16 + 0.1;
    const Vec3 a{c[0] + 15 * std::cos(th), c[1] + 15 * std::sin(th), 0.5};
    const Vec3 b{c[0], c[1], 0.5};
    const auto t = body.intersect(a, b);
    ASSERT_TRUE(t.has_value()) << "direction " << k;
    EXPECT_NEAR(*t, 5.0 / 15.0, 1e-14) << "direction " << k;
  }
}

TEST(CylinderBody, ChordsMissesAndExits) {
  const Point2 c{20, 20};
  const CylinderBody body(c, 10.0);
  // Horizontal chord at height 3: the circle is met at x = −√(100 − 9).
  auto t = body.intersect({c[0] - 20, c[1] + 3, 0}, {c[0], c[1] + 3, 0});
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (20 - std::sqrt(91.0)) / 20, 1e-14);
  // Diagonal link of a D2Q9 lattice, (1, 1) steps.
  const double r = 10, s = 9.6;  // start on the diagonal at distance s·√2 ≈ 13.6 from the centre
  t = body.intersect({c[0] - s, c[1] - s, 0}, {c[0] - s + 5, c[1] - s + 5, 0});
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (s * std::sqrt(2.0) - r) / (5 * std::sqrt(2.0)), 1e-14);
  // Passing above the top, and stopping short.
  EXPECT_FALSE(body.intersect({c[0] - 20, c[1] + 10.5, 0}, {c[0] + 20, c[1] + 10.5, 0}).has_value());
  EXPECT_FALSE(body.intersect({c[0] - 20, c[1], 0}, {c[0] - 11, c[1], 0}).has_value());
  // From the centre outwards: the exit.
  t = body.intersect({c[0], c[1], 0}, {c[0] + 20, c[1], 0});
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, 0.5, 1e-15);
  // A link along z never crosses the side of the cylinder.
  EXPECT_FALSE(body.intersect({c[0] + 11, c[1], 0}, {c[0] + 11, c[1], 1}).has_value());
}

TEST(CylinderBody, LinkStartingJustOffTheWallKeepsItsSmallFraction) {
  const Point2 c{0, 0};
  const CylinderBody body(c, 10.0);
  const double eps = 1e-9;
  const auto t = body.intersect({10 + eps, 0, 0}, {9 + eps, 0, 0});
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, eps, 1e-6 * eps);
}

// ---- polygon -----------------------------------------------------------------------------------------------

// Unit square about its centre, 10 cells wide, turned 45°: a diamond with vertices 5√2 from (20, 20).
PolygonBody diamond() {
  SectionPlacement pl;
  pl.scale = 10;
  pl.angle_of_attack_deg = 45;
  pl.pivot_section = {0, 0};
  pl.pivot_lattice = {20, 20};
  return PolygonBody({{0.5, 0.5}, {-0.5, 0.5}, {-0.5, -0.5}, {0.5, -0.5}}, pl);
}

TEST(PolygonBody, PlacementTurnsClockwiseForPositiveAngle) {
  SectionPlacement pl;
  pl.scale = 2;
  pl.angle_of_attack_deg = 90;
  pl.pivot_section = {0.25, 0};
  pl.pivot_lattice = {10, 10};
  const Point2 te = place_point({1.25, 0}, pl);  // one chord aft of the pivot → 2 cells below it
  EXPECT_NEAR(te[0], 10, 1e-12);
  EXPECT_NEAR(te[1], 8, 1e-12);
  const Point2 pivot = place_point({0.25, 0}, pl);
  EXPECT_EQ(pivot, (Point2{10, 10}));
}

TEST(PolygonBody, RotatedSquareInside) {
  const PolygonBody d = diamond();
  const double h = 5 * std::sqrt(2.0);
  EXPECT_TRUE(d.inside({20, 20, 0}));
  EXPECT_TRUE(d.inside({20 + h - 0.05, 20, 123}));  // z is ignored
  EXPECT_FALSE(d.inside({20 + h + 0.05, 20, 0}));
  EXPECT_TRUE(d.inside({23.5, 23.5, 0}));   // |x|+|y| = 7.0 < 7.07
  EXPECT_FALSE(d.inside({23.6, 23.6, 0}));  // 7.2
  EXPECT_FALSE(d.inside({24.9, 24.9, 0}));  // inside the bounding box, outside the diamond
  EXPECT_FALSE(d.inside({0, 0, 0}));
  const auto b = d.bounds();
  EXPECT_NEAR(b[0][0], 20 - h, 1e-12);
  EXPECT_NEAR(b[1][1], 20 + h, 1e-12);
}

TEST(PolygonBody, RotatedSquareIntersect) {
  const PolygonBody d = diamond();
  const double h = 5 * std::sqrt(2.0);
  auto t = d.intersect({30, 20, 0}, {20, 20, 0});  // straight at the right-hand vertex
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (10 - h) / 10, 1e-12);
  t = d.intersect({30, 21, 0}, {20, 21, 0});  // one cell higher: meets the upper-right edge at x = 20 + h − 1
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (10 - (h - 1)) / 10, 1e-12);
  t = d.intersect({25, 25, 0}, {20, 20, 0});  // along the edge normal
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (10 - h) / 10, 1e-12);
  t = d.intersect({20, 30, 0}, {20, 20, 0});  // through the top vertex, shared by two edges
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (10 - h) / 10, 1e-12);
  t = d.intersect({20, 20, 0}, {10, 20, 0});  // from inside: the exit
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, h / 10, 1e-12);
  EXPECT_FALSE(d.intersect({30, 30, 0}, {26, 26, 0}).has_value());
  EXPECT_FALSE(d.intersect({0, 0, 0}, {1, 1, 0}).has_value());
  // Two crossings (enter, leave): the first one counts.
  t = d.intersect({10, 20, 0}, {30, 20, 0});
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (10 - h) / 20, 1e-12);
}

SectionPlacement airfoil_placement(double alpha) {
  SectionPlacement pl;
  pl.scale = 100;
  pl.angle_of_attack_deg = alpha;
  pl.pivot_lattice = {300, 200};
  return pl;
}

TEST(PolygonBody, AirfoilNoseRisesAtPositiveAngle) {
  const auto section = naca4_outline("0012", 200);
  // Just above the nose: chord station 0.02, 0.03 chords up (the surface there is at 0.0236).
  const Vec3 p{300 + 100 * (0.02 - 0.25), 200 + 100 * 0.03, 0.5};
  EXPECT_FALSE(PolygonBody(section, airfoil_placement(0)).inside(p));
  EXPECT_TRUE(PolygonBody(section, airfoil_placement(10)).inside(p));
  EXPECT_FALSE(PolygonBody(section, airfoil_placement(-10)).inside(p));

  const PolygonBody body(section, airfoil_placement(10));
  const auto out = body.outline();
  ASSERT_EQ(out.size(), section.size());
  const Vec3 te = out.front(), le = out[200];
  EXPECT_LT(te[1], le[1]);
  const double a = 10 * kPi / 180;
  EXPECT_NEAR(te[0], 300 + 75 * std::cos(a), 1e-9);
  EXPECT_NEAR(te[1], 200 - 75 * std::sin(a), 1e-9);
  EXPECT_NEAR(le[0], 300 - 25 * std::cos(a), 1e-9);
  EXPECT_NEAR(le[1], 200 + 25 * std::sin(a), 1e-9);
  for (const Vec3& v : out) EXPECT_EQ(v[2], 0.0);
  EXPECT_TRUE(body.inside({300, 200, 0}));  // the pivot (quarter chord) is inside the section
}

TEST(PolygonBody, AirfoilIntersectAtThirtyPercentChord) {
  const PolygonBody body(naca4_outline("0012", 200), airfoil_placement(0));
  const double yt = 100 * naca4_half_thickness(0.12, 0.3);
  auto t = body.intersect({305, 220, 0}, {305, 200, 0});  // from above, down to the chord line
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (20 - yt) / 20, 1e-4);
  t = body.intersect({305, 180, 0}, {305, 200, 0});  // from below
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, (20 - yt) / 20, 1e-4);
}

TEST(PolygonBody, MaskAreaMatchesSectionArea) {
  const PolygonBody body(naca4_outline("0012", 200), airfoil_placement(5));
  int n = 0;
  for (int j = 150; j < 250; ++j)
    for (int i = 150; i < 450; ++i) n += body.inside({i + 0.5, j + 0.5, 0.5});
  EXPECT_NEAR(n, 0.08171 * 100 * 100, 0.03 * 817);
}

// Reference without bands or boxes: every edge, every time.
bool brute_inside(const std::vector<Point2>& v, double x, double y) {
  bool in = false;
  for (std::size_t i = 0, n = v.size(); i < n; ++i) {
    const Point2& a = v[i];
    const Point2& b = v[(i + 1) % n];
    if ((a[1] > y) != (b[1] > y) && x < a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])) in = !in;
  }
  return in;
}

std::optional<double> brute_intersect(const std::vector<Point2>& v, const Vec3& a, const Vec3& b) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0, n = v.size(); i < n; ++i) {
    const Point2& c = v[i];
    const Point2& d = v[(i + 1) % n];
    const double rx = b[0] - a[0], ry = b[1] - a[1], ex = d[0] - c[0], ey = d[1] - c[1];
    const double den = rx * ey - ry * ex;
    if (den == 0) continue;
    const double t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / den;
    const double s = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / den;
    if (t >= 0 && t <= 1 && s >= 0 && s <= 1) best = std::min(best, t);
  }
  if (std::isinf(best)) return std::nullopt;
  return best;
}

TEST(PolygonBody, AgreesWithBruteForceOnRandomPointsAndLinks) {
  const PolygonBody body(naca4_outline("4415", 150), airfoil_placement(12));
  const auto& v = body.vertices();
  const auto bb = body.bounds();
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> ux(bb[0][0] - 2, bb[1][0] + 2), uy(bb[0][1] - 2, bb[1][1] + 2);
  std::uniform_int_distribution<int> dir(-1, 1);
  int inside = 0, crossings = 0;
  for (int k = 0; k < 20000; ++k) {
    const Vec3 p{ux(rng), uy(rng), 0};
    const bool in = body.inside(p);
    ASSERT_EQ(in, brute_inside(v, p[0], p[1])) << p[0] << ", " << p[1];
    inside += in;
    const Vec3 q{p[0] + dir(rng), p[1] + dir(rng), 0};
    const auto t = body.intersect(p, q), tb = brute_intersect(v, p, q);
    ASSERT_EQ(t.has_value(), tb.has_value()) << p[0] << ", " << p[1];
    if (t) {
      EXPECT_NEAR(*t, *tb, 1e-12);
    }
    crossings += t.has_value();
  }
  // Make sure the sample actually exercised both sides and the surface.
  EXPECT_GT(inside, 1000);
  EXPECT_GT(crossings, 100);
}

TEST(PolygonBody, LinksThroughVerticesAreNotMissed) {
  // A link through a vertex sits on the end of two edges at once; rounding must not let it slip between them.
  const PolygonBody body(naca4_outline("0012", 200), airfoil_placement(10));
  const auto& v = body.vertices();
  const std::size_t n = v.size();
  int missed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Point2& prev = v[(i + n - 1) % n];
    const Point2& next = v[(i + 1) % n];
    // Outward normal of a counter-clockwise polygon: the tangent turned clockwise.
    const double tx = next[0] - prev[0], ty = next[1] - prev[1], len = std::hypot(tx, ty);
    const double nx = 0.7 * ty / len, ny = -0.7 * tx / len;
    const auto t = body.intersect({v[i][0] + nx, v[i][1] + ny, 0}, {v[i][0] - nx, v[i][1] - ny, 0});
    if (!t) {
      ++missed;
    } else {
      EXPECT_NEAR(*t, 0.5, 1e-9) << "vertex " << i;
    }
  }
  EXPECT_EQ(missed, 0);
}

TEST(PolygonBody, RejectsDegenerateInput) {
  SectionPlacement pl;
  EXPECT_THROW(PolygonBody({{0, 0}, {1, 0}}, pl), std::invalid_argument);
  pl.scale = 0;
  EXPECT_THROW(PolygonBody({{0, 0}, {1, 0}, {0, 1}}, pl), std::invalid_argument);
}

}  // namespace
}  // namespace aerolbm
