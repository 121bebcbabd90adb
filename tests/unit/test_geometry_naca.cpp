// NACA 4-digit formula and outline: checked against published stations, the analytic area and the geometry of
// the construction itself (Selig order, thickness perpendicular to the camber line).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "src/geometry/geometry_error.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon2d.hpp"

namespace aerolbm {
namespace {

// The textbook form, written independently of the factored one in naca.cpp.
double textbook_half_thickness(double t, double x) {
  return 5 * t * (0.2969 * std::sqrt(x) - 0.1260 * x - 0.3516 * x * x + 0.2843 * x * x * x - 0.1036 * x * x * x * x);
}

TEST(Naca4Thickness, PublishedStationOf0012) {
  EXPECT_NEAR(naca4_half_thickness(0.12, 0.3), 0.06002, 1e-4);
  // Maximum thickness of a 4-digit section is t at about 30% chord.
  EXPECT_NEAR(2 * naca4_half_thickness(0.12, 0.3), 0.12, 2e-4);
  EXPECT_NEAR(naca4_half_thickness(0.12, 0.1), 0.04683, 2e-4);
}

TEST(Naca4Thickness, ClosedTrailingEdgeIsExactlyZero) {
  EXPECT_EQ(naca4_half_thickness(0.12, 1.0), 0.0);
  EXPECT_EQ(naca4_half_thickness(0.12, 0.0), 0.0);
  // Just ahead of the trailing edge the section is thin but not negative.
  EXPECT_GT(naca4_half_thickness(0.12, 1.0 - 1e-9), 0.0);
  EXPECT_LT(naca4_half_thickness(0.12, 1.0 - 1e-9), 1e-8);
}

TEST(Naca4Thickness, FactoredFormEqualsTextbookPolynomial) {
  for (int i = 0; i <= 1000; ++i) {
    const double x = i / 1000.0;
    EXPECT_NEAR(naca4_half_thickness(0.15, x), textbook_half_thickness(0.15, x), 1e-15) << "x = " << x;
  }
}

TEST(Naca4Thickness, LeadingEdgeIsRoundWithRadius1p1019TSquared) {
  // Near x = 0, y_t ≈ √(2 r x): a round nose of radius r = 1.1019 t².
  for (double t : {0.06, 0.12, 0.21}) {
    const double x = 1e-8;
    const double y = naca4_half_thickness(t, x);
    EXPECT_NEAR(y * y / (2 * x), 1.1019 * t * t, 1e-3 * t * t) << "t = " << t;
  }
  // Square-root growth: quadrupling x doubles the thickness close to the nose.
  EXPECT_NEAR(naca4_half_thickness(0.12, 4e-8) / naca4_half_thickness(0.12, 1e-8), 2.0, 1e-3);
}

TEST(Naca4Thickness, RefusesStationsOffTheChord) {
  EXPECT_THROW(naca4_half_thickness(0.12, -1e-3), std::domain_error);
  EXPECT_THROW(naca4_half_thickness(0.12, 1.001), std::domain_error);
}

TEST(Naca4Camber, Naca2412PeaksAt2PercentAt40Percent) {
  const Naca4Params f = parse_naca4("2412");
  EXPECT_DOUBLE_EQ(f.m, 0.02);
  EXPECT_DOUBLE_EQ(f.p, 0.4);
  EXPECT_DOUBLE_EQ(f.t, 0.12);
  double best = -1, at = -1;
  for (int i = 0; i <= 10000; ++i) {
    const double x = i / 10000.0;
    const double y = naca4_camber(f.m, f.p, x);
    if (y > best) best = y, at = x;
  }
  EXPECT_NEAR(best, 0.02, 1e-12);
  EXPECT_NEAR(at, 0.4, 1e-4);
  EXPECT_EQ(naca4_camber(f.m, f.p, 0.0), 0.0);
  EXPECT_EQ(naca4_camber(f.m, f.p, 1.0), 0.0);
  EXPECT_NEAR(naca4_camber_slope(f.m, f.p, 0.4), 0.0, 1e-15);
}

TEST(Naca4Camber, SlopeIsTheDerivativeOfTheLine) {
  const double m = 0.04, p = 0.3, h = 1e-6;
  for (double x : {0.05, 0.2, 0.29, 0.31, 0.6, 0.95}) {
    const double fd = (naca4_camber(m, p, x + h) - naca4_camber(m, p, x - h)) / (2 * h);
    EXPECT_NEAR(naca4_camber_slope(m, p, x), fd, 1e-7) << "x = " << x;
  }
  EXPECT_EQ(naca4_camber(0.0, 0.4, 0.5), 0.0);
  EXPECT_EQ(naca4_camber_slope(0.0, 0.4, 0.5), 0.0);
}

TEST(Naca4Outline, SeligOrderClosedAndCounterClockwise) {
  const int n = 50;
  const auto pts = naca4_outline("0012", n);
  ASSERT_EQ(pts.size(), std::size_t(2 * n));
  EXPECT_EQ(pts.front(), (Point2{1.0, 0.0}));  // starts at the trailing edge
  EXPECT_EQ(pts[n], (Point2{0.0, 0.0}));       // leading edge in the middle
  for (int i = 1; i <= n; ++i) EXPECT_LT(pts[i][0], pts[i - 1][0]) << "upper surface must run TE→LE at " << i;
  for (int i = n + 1; i < 2 * n; ++i) EXPECT_GT(pts[i][0], pts[i - 1][0]) << "lower surface must run LE→TE";
  for (int i = 1; i < n; ++i) EXPECT_GT(pts[i][1], 0.0);
  for (int i = n + 1; i < 2 * n; ++i) EXPECT_LT(pts[i][1], 0.0);
  // The trailing-edge point is not repeated, but the last point is next to it (the polygon closes itself).
  EXPECT_NE(pts.back(), pts.front());
  EXPECT_LT(std::hypot(pts.back()[0] - 1.0, pts.back()[1]), 0.01);
  EXPECT_GT(signed_area(pts), 0.0);
  EXPECT_FALSE(find_self_intersection(pts).has_value());
}

TEST(Naca4Outline, CosineSpacingClustersAtTheEdges) {
  const int n = 100;
  const auto pts = naca4_outline("0012", n);
  const double first_gap = pts[n - 1][0] - pts[n][0];          // next to the leading edge
  const double mid_gap = pts[n / 2 - 1][0] - pts[n / 2][0];    // mid-chord
  EXPECT_NEAR(first_gap, 0.5 * (1 - std::cos(std::numbers::pi / n)), 1e-12);
  EXPECT_LT(first_gap, mid_gap / 20);
}

TEST(Naca4Outline, AreaOf0012) {
  const double area = signed_area(naca4_outline("0012", 200));
  EXPECT_NEAR(area, 0.0822, 0.01 * 0.0822);
  // Exact integral with the closed-TE coefficient: 10t(0.2969·2/3 − 0.1260/2 − 0.3516/3 + 0.2843/4 − 0.1036/5).
  const double exact = 1.2 * (0.2969 * 2 / 3 - 0.1260 / 2 - 0.3516 / 3 + 0.2843 / 4 - 0.1036 / 5);
  EXPECT_NEAR(area, exact, 1e-4 * exact);
}

TEST(Naca4Outline, ThicknessIsLaidOffPerpendicularToTheCamberLine) {
  const int n = 40;
  const auto pts = naca4_outline("4415", n);
  const Naca4Params f = parse_naca4("4415");
  for (int i = 1; i < n; ++i) {
    const Point2& up = pts[n - i];  // upper surface at station i
    const Point2& lo = pts[n + i];  // lower surface at station i
    const double x = 0.5 * (up[0] + lo[0]);
    EXPECT_NEAR(0.5 * (up[1] + lo[1]), naca4_camber(f.m, f.p, x), 1e-12);
    // upper − lower is normal to the camber tangent (1, y_c').
    const double dx = up[0] - lo[0], dy = up[1] - lo[1];
    EXPECT_NEAR(dx + dy * naca4_camber_slope(f.m, f.p, x), 0.0, 1e-12) << "station " << i;
    EXPECT_NEAR(std::hypot(dx, dy), 2 * naca4_half_thickness(f.t, x), 1e-12);
    // Where the camber line climbs the upper point sits further forward, where it falls further aft.
    EXPECT_LT(dx * naca4_camber_slope(f.m, f.p, x), 0.0) << "station " << i;
  }
}

TEST(Naca4Code, RejectsMalformedCodes) {
  for (const char* code : {"12", "00120", "00a2", " 012", "0000", "2012", ""}) {
    try {
      parse_naca4(code);
      ADD_FAILURE() << "accepted \"" << code << "\"";
    } catch (const GeometryError& e) {
      EXPECT_NE(std::string(e.what()).find("geometry.code"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(parse_naca4("0412"));  // no camber: the position digit is irrelevant
  EXPECT_THROW(naca4_outline("x012", 50), GeometryError);
  EXPECT_THROW(naca4_outline("0012", 3), std::invalid_argument);
}

}  // namespace
}  // namespace aerolbm
