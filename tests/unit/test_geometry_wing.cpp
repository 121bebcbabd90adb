// Finite wings lofted from sections: a closed, outward mesh whose volume, planform and placement (taper, sweep,
// dihedral, twist, angle of attack) match the analytic wing; NACA 5-digit mean lines; voxelisation on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "src/geometry/geometry_error.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"
#include "src/geometry/stl.hpp"
#include "src/geometry/wing.hpp"
#include "src/solver/mesh_voxelize.hpp"

namespace aerolbm {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

// Area of the closed-trailing-edge NACA 00tt section: ∫ 2 y_t dx = 10 t (0.2969·2/3 − 0.1260/2 − 0.3516/3
// + 0.2843/4 − 0.1036/5) = 0.68088 t (0.0817 for t = 0.12; the open-TE 0.0822 uses −0.1015).
double naca00_area(double t) {
  return 10 * t * (0.2969 * 2.0 / 3.0 - 0.1260 / 2.0 - 0.3516 / 3.0 + 0.2843 / 4.0 - 0.1036 / 5.0);
}

WingShape rectangular(const std::string& code, double span, bool half, int n = 200) {
  WingShape w;
  w.root = naca_outline(code, n);
  w.span = span;
  w.half = half;
  return w;
}

std::array<Vec3, 2> box_of(const std::vector<Triangle>& tri) {
  std::array<Vec3, 2> b{tri[0][0], tri[0][0]};
  for (const auto& t : tri)
    for (const auto& v : t)
      for (int a = 0; a < 3; ++a) b[0][a] = std::min(b[0][a], v[a]), b[1][a] = std::max(b[1][a], v[a]);
  return b;
}

// Vertices of the mesh lying in the plane z = z0.
std::vector<Vec3> station(const std::vector<Triangle>& tri, double z0) {
  std::vector<Vec3> out;
  for (const auto& t : tri)
    for (const auto& v : t)
      if (std::abs(v[2] - z0) < 1e-12) out.push_back(v);
  return out;
}

// Trailing edge (largest x) and leading edge (farthest from it) of a station's vertices.
std::pair<Vec3, Vec3> le_te(const std::vector<Vec3>& v) {
  const Vec3 te = *std::max_element(v.begin(), v.end(), [](auto& a, auto& b) { return a[0] < b[0]; });
  const auto dist = [&](const Vec3& p) { return std::hypot(p[0] - te[0], p[1] - te[1]); };
  const Vec3 le = *std::max_element(v.begin(), v.end(), [&](auto& a, auto& b) { return dist(a) < dist(b); });
  return {le, te};
}

TEST(WingMesh, ClosedAndOutwardForHalfFullTaperedSweptTwistedAndBlended) {
  std::vector<WingShape> shapes = {rectangular("0012", 4, true, 40), rectangular("2412", 4, false, 40)};
  WingShape w = rectangular("2412", 6, false, 40);
  w.tip = naca_outline("0009", 40);
  w.tip_chord = 0.4;
  w.sweep_deg = 30;
  w.dihedral_deg = 5;
  w.twist_deg = -4;
  shapes.push_back(w);
  w.root = naca_outline("23012", 40);
  w.half = true;
  shapes.push_back(w);
  for (const WingShape& s : shapes) {
    const auto tri = wing_mesh(s, 40, 12);
    EXPECT_EQ(check_closed(tri), "") << "span " << s.span << " half " << s.half;
    for (const auto& t : tri) EXPECT_FALSE(is_degenerate(t));
    // Outward: the divergence theorem gives a positive volume.
    EXPECT_GT(mesh_volume(tri), 0.0);
  }
}

TEST(WingMesh, RectangularNaca0012VolumeAndPlanform) {
  const double area = naca00_area(0.12);
  EXPECT_NEAR(area, 0.0817, 1e-4);
  for (bool half : {false, true}) {
    const WingShape w = rectangular("0012", 4, half);
    const auto tri = wing_mesh(w, 200, 8);
    const double span_modelled = half ? 2.0 : 4.0;
    EXPECT_NEAR(mesh_volume(tri), area * span_modelled, 2e-3 * area * span_modelled);
    EXPECT_DOUBLE_EQ(wing_planform_area(w), span_modelled);
    EXPECT_DOUBLE_EQ(wing_mean_aerodynamic_chord(w), 1.0);
    const auto b = box_of(tri);
    EXPECT_DOUBLE_EQ(b[0][2], half ? 0.0 : -2.0);
    EXPECT_DOUBLE_EQ(b[1][2], 2.0);
    // Root quarter chord at the origin: the chord runs from x = −0.25 to 0.75.
    EXPECT_NEAR(b[0][0], -0.25, 1e-12);
    EXPECT_NEAR(b[1][0], 0.75, 1e-12);
  }
}

TEST(WingMesh, TaperedVolumeScalesWithChordSquaredAndSweepDihedralShearOnly) {
  // V = A · ∫ c(z)² dz = A · b (1 + λ + λ²) / 3 for a full wing; sweep and dihedral shear the sections without
  // changing their area.
  WingShape w = rectangular("0012", 5, false);
  w.tip_chord = 0.5;
  w.sweep_deg = 35;
  w.dihedral_deg = 7;
  const double expected = naca00_area(0.12) * 5 * (1 + 0.5 + 0.25) / 3;
  EXPECT_NEAR(mesh_volume(wing_mesh(w, 200, 10)), expected, 2e-3 * expected);
  EXPECT_DOUBLE_EQ(wing_planform_area(w), 5 * 0.75);
  EXPECT_NEAR(wing_mean_aerodynamic_chord(w), 2.0 / 3.0 * 1.75 / 1.5, 1e-15);
}

TEST(WingMesh, TipLeadingEdgeChordAndTwist) {
  WingShape w = rectangular("0012", 6, true, 60);
  w.tip_chord = 0.4;
  w.sweep_deg = 30;
  w.dihedral_deg = 6;
  const auto plain = wing_mesh(w, 60, 6);
  const auto tip = station(plain, 3.0);
  ASSERT_FALSE(tip.empty());
  const auto [le, te] = le_te(tip);
  // Leading edge swept back by (b/2)·tan Λ from the root's (−0.25), raised by (b/2)·tan Γ.
  EXPECT_NEAR(le[0], -0.25 + 3 * std::tan(30 * kDeg), 1e-12);
  EXPECT_NEAR(le[1], 3 * std::tan(6 * kDeg), 1e-12);
  EXPECT_NEAR(te[0] - le[0], 0.4, 1e-12);
  EXPECT_NEAR(te[1], le[1], 1e-12);

  // Twist −5° (washout): the tip's chord line turns nose down about the tip quarter chord.
  w.twist_deg = -5;
  const auto twisted = station(wing_mesh(w, 60, 6), 3.0);
  const auto [le2, te2] = le_te(twisted);
  EXPECT_NEAR(std::atan2(le2[1] - te2[1], te2[0] - le2[0]) / kDeg, -5.0, 1e-9);
  EXPECT_NEAR(std::hypot(te2[0] - le2[0], te2[1] - le2[1]), 0.4, 1e-12);
  // The quarter chord stays put.
  const double qx = le2[0] + 0.25 * (te2[0] - le2[0]), qy = le2[1] + 0.25 * (te2[1] - le2[1]);
  EXPECT_NEAR(qx, le[0] + 0.1, 1e-12);
  EXPECT_NEAR(qy, le[1], 1e-12);
  // The root is untwisted.
  const auto root = station(wing_mesh(w, 60, 6), 0.0);
  for (const auto& v : root)
    if (std::abs(v[0] + 0.25) < 1e-12) EXPECT_NEAR(v[1], 0.0, 1e-12);
}

TEST(WingBody, ReferenceOfHalfAndFullWingAndPlacement) {
  const double L = 20;
  const Vec3 pivot = {60, 40, 80};
  WingShape w = rectangular("0012", 4, false);
  w.tip_chord = 0.5;
  const auto full = make_wing_body(w, L, 0, pivot);
  w.half = true;
  const auto half = make_wing_body(w, L, 0, {60, 40, 0});
  const ForceReference rf = *full->reference(), rh = *half->reference();
  EXPECT_DOUBLE_EQ(rf.area, 4 * 0.75 * L * L);
  EXPECT_DOUBLE_EQ(rh.area, 0.5 * rf.area);
  EXPECT_FALSE(rf.half_model);
  EXPECT_TRUE(rh.half_model);
  EXPECT_NEAR(rf.length, 2.0 / 3.0 * 1.75 / 1.5 * L, 1e-12);
  EXPECT_EQ(rf.span_axis, 2);
  EXPECT_EQ(rf.moment_point, pivot);
  EXPECT_EQ(half->bounds()[0][2], 0.0);
  EXPECT_EQ(full->surface().size(), full->triangles().size());

  // Angle of attack 10° about the root quarter chord: the root leading edge rises by 0.25·L·sin α.
  const auto tilted = make_wing_body(w, L, 10, {60, 40, 0});
  const auto root = station(tilted->triangles(), 0.0);
  const Vec3 le = le_te(root).first;
  EXPECT_NEAR(le[0], 60 - 0.25 * L * std::cos(10 * kDeg), 1e-9);
  EXPECT_NEAR(le[1], 40 + 0.25 * L * std::sin(10 * kDeg), 1e-9);
}

TEST(WingMesh, SeligSectionResampledToTheNacaStructure) {
  // A NACA 2412 outline at other spacing, resampled: leading edge (the point of smallest x; the camber puts it a
  // little ahead of (0, 0)) at index n, trailing edge at 0, same area.
  const auto fine = naca_outline("2412", 150);
  const auto r = resample_section(fine, 100);
  ASSERT_EQ(r.size(), 200u);
  EXPECT_EQ(r[100], *std::min_element(fine.begin(), fine.end(), [](auto& a, auto& b) { return a[0] < b[0]; }));
  EXPECT_EQ(r[0], (Point2{1, 0}));
  EXPECT_EQ(resample_section(naca_outline("0012", 150), 100)[100], (Point2{0, 0}));
  EXPECT_NEAR(signed_area(r), signed_area(naca_outline("2412", 100)), 2e-4);
  WingShape w;
  w.root = r;
  w.tip = naca_outline("2412", 100);
  w.span = 3;
  EXPECT_EQ(check_closed(wing_mesh(w, 100, 4)), "");
}

TEST(WingMesh, BadShapesAreRefused) {
  WingShape w = rectangular("0012", 4, false, 20);
  w.span = -1;
  EXPECT_THROW(wing_mesh(w, 20, 2), std::invalid_argument);
  w.span = 4;
  w.tip_chord = 0;
  EXPECT_THROW(wing_mesh(w, 20, 2), std::invalid_argument);
  w.tip_chord = 1;
  w.tip = naca_outline("0012", 30);  // another point count
  EXPECT_THROW(wing_mesh(w, 20, 2), std::invalid_argument);
}

TEST(Naca5, MeanLine230PeaksAt15PercentWithDesignLift0p3) {
  const Naca5Params f = parse_naca5("23012");
  EXPECT_DOUBLE_EQ(f.t, 0.12);
  EXPECT_DOUBLE_EQ(f.design_cl, 0.3);
  // Published: the 230 mean line has its maximum camber, 1.84 % of the chord, at 15 % chord.
  double xmax = 0, ymax = 0;
  for (int i = 0; i <= 100000; ++i) {
    const double x = i / 100000.0, y = naca5_camber(f, x);
    if (y > ymax) ymax = y, xmax = x;
  }
  EXPECT_NEAR(xmax, 0.15, 1e-3);
  EXPECT_NEAR(ymax, 0.0184, 1e-4);
  // Zero at both ends; continuous in value and slope where the cubic meets the straight rear part.
  EXPECT_NEAR(naca5_camber(f, 0), 0.0, 1e-15);
  EXPECT_NEAR(naca5_camber(f, 1), 0.0, 1e-15);
  EXPECT_NEAR(naca5_camber(f, f.r - 1e-9), naca5_camber(f, f.r), 1e-9);
  EXPECT_NEAR(naca5_camber_slope(f, f.r - 1e-12), naca5_camber_slope(f, f.r), 1e-9);
  // Thin-airfoil theory: the ideal lift coefficient π·A1, A1 = (2/π)∫ dy/dx cos θ dθ, is the design lift 0.3.
  const int n = 200000;
  double a1 = 0;
  for (int i = 0; i < n; ++i) {
    const double th = (i + 0.5) * std::numbers::pi / n, x = 0.5 * (1 - std::cos(th));
    a1 += naca5_camber_slope(f, x) * std::cos(th) * (std::numbers::pi / n);
  }
  EXPECT_NEAR(std::numbers::pi * (2 / std::numbers::pi) * a1, 0.3, 2e-3);
  // The design lift scales the mean line: 43012 has twice the camber of 23012.
  EXPECT_NEAR(naca5_camber(parse_naca5("43012"), 0.3), 2 * naca5_camber(f, 0.3), 1e-15);
}

TEST(Naca5, OutlineAndBadCodes) {
  const auto o = naca_outline("23012", 100);
  ASSERT_EQ(o.size(), 200u);
  EXPECT_GT(signed_area(o), 0.0);
  // Thickness as the 4-digit family: the section's area is that of the 0012 within camber effects.
  EXPECT_NEAR(signed_area(o), signed_area(naca_outline("0012", 100)), 1e-3);
  for (const char* bad : {"03012", "26012", "23112", "23000", "230121", "2a012", "123"})
    EXPECT_THROW(naca_outline(bad, 50), GeometryError) << bad;
  EXPECT_DOUBLE_EQ(naca_thickness("23015"), 0.15);
}

TEST(WingVoxels, RectangularWingSlicesAreThe2DSectionsCells) {
  // An untapered, unswept, untwisted wing is an extruded section: every spanwise slice of its voxels must be the
  // 2D section's cells (PolygonBody, an independent even-odd test in x-y).
  const double L = 40;
  const WingShape w = rectangular("2412", 2, true, 80);
  const auto wing = make_wing_body(w, L, 7, {30, 20, 0});
  SectionPlacement pl;
  pl.scale = L;
  pl.angle_of_attack_deg = 7;
  pl.pivot_lattice = {30, 20};
  const PolygonBody section(naca_outline("2412", 80), pl);
  const std::int64_t lo[3] = {0, 10, 0}, n[3] = {60, 20, 40};
  std::vector<std::uint8_t> in;
  mesh_inside_cells(*wing->mesh(), lo, n, in, VoxelDevice::Cpu);
  std::int64_t solid2d = 0;
  for (std::int64_t y = 0; y < n[1]; ++y)
    for (std::int64_t x = 0; x < n[0]; ++x) {
      const bool s2 = section.inside({x + 0.5, lo[1] + y + 0.5, 0});
      solid2d += s2;
      for (std::int64_t z = 0; z < n[2]; ++z) {
        const bool s3 = in[std::size_t(x + n[0] * (y + n[1] * z))];
        EXPECT_EQ(s3, z < 40 && s2) << "x " << x << " y " << lo[1] + y << " z " << z;
      }
    }
  EXPECT_GT(solid2d, 100);
}

TEST(WingVoxels, SolidCellsMatchTheMeshVolumeAndStlBodyInside) {
  // Thin sections sampled at cell centres alias, and a spanwise slice repeats its neighbour's error unless the
  // section moves against the grid along the span: sweep moves it in x, dihedral in y (0.09 cells per slice).
  const double L = 48;
  WingShape w = rectangular("2412", 3, true, 100);
  w.tip_chord = 0.6;
  w.sweep_deg = 20;
  w.dihedral_deg = 5;
  w.twist_deg = -3;
  const auto body = make_wing_body(w, L, 6, {30, 20, 0});
  const auto b = body->bounds();
  std::int64_t lo[3], n[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::max<std::int64_t>(0, std::int64_t(std::floor(b[0][a] - 1)));
    n[a] = std::int64_t(std::ceil(b[1][a] + 1)) - lo[a];
  }
  std::vector<std::uint8_t> in;
  EXPECT_EQ(mesh_inside_cells(*body->mesh(), lo, n, in, VoxelDevice::Cpu), "cpu");
  std::int64_t solid = 0, differ = 0;
  for (std::int64_t z = 0; z < n[2]; ++z)
    for (std::int64_t y = 0; y < n[1]; ++y)
      for (std::int64_t x = 0; x < n[0]; ++x) {
        const bool s = in[std::size_t(x + n[0] * (y + n[1] * z))];
        solid += s;
        differ += s != body->inside({lo[0] + x + 0.5, lo[1] + y + 0.5, lo[2] + z + 0.5});
      }
  EXPECT_EQ(differ, 0);
  const double volume = mesh_volume(body->triangles());
  EXPECT_GT(volume, 0);
  std::printf("solid cells %lld, mesh volume %.1f cells (%+.2f %%)\n", static_cast<long long>(solid), volume,
              100.0 * (double(solid) / volume - 1.0));
  EXPECT_NEAR(double(solid), volume, 0.03 * volume);

  // Links from just outside to just inside cross the surface: fractions in [0, 1]; a link in open fluid misses.
  std::vector<double> seg = {30, 10, 0.5, 30, 20, 0.5,  // up through the lower surface at the root quarter chord
                             0.5, 0.5, 0.5, 1.5, 0.5, 0.5};
  std::vector<double> t;
  EXPECT_EQ(mesh_link_fractions(*body->mesh(), seg, t, VoxelDevice::Cpu), "cpu");
  ASSERT_EQ(t.size(), 2u);
  // The NACA 2412's lower surface lies 4.2 % of the chord (2 cells) below the quarter-chord pivot: t ≈ 0.8.
  EXPECT_GT(t[0], 0.77);
  EXPECT_LT(t[0], 0.83);
  EXPECT_EQ(t[1], -1.0);
  const auto hit = body->intersect({seg[0], seg[1], seg[2]}, {seg[3], seg[4], seg[5]});
  ASSERT_TRUE(hit);
  EXPECT_EQ(*hit, t[0]);
}

}  // namespace
}  // namespace aerolbm
