// make_body: each geometry type lands where the case says (pivot at body_position_chords × chord_cells).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <unistd.h>

#include "src/geometry/cylinder.hpp"
#include "src/case/make_body.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"

namespace aerolbm {
namespace {

Case naca_case(const std::string& code, double alpha) {
  Case c;
  c.geometry = GeometryType::Naca4;
  c.naca_code = code;
  c.chord_cells = 100;
  c.angle_of_attack_deg = alpha;
  c.body_position_chords = {3, 2.5, 0};
  return c;
}

TEST(MakeBody, Naca4PivotLandsAtBodyPosition) {
  const auto body = make_body(naca_case("0012", 0));
  ASSERT_NE(body, nullptr);
  const auto* poly = dynamic_cast<const PolygonBody*>(body.get());
  ASSERT_NE(poly, nullptr);
  EXPECT_EQ(poly->vertices().size(), std::size_t(2 * naca_points_per_side(100)));
  const auto b = body->bounds();
  EXPECT_NEAR(b[0][0], 300 - 25, 1e-9);  // leading edge a quarter chord ahead of the pivot
  EXPECT_NEAR(b[1][0], 300 + 75, 1e-9);  // trailing edge three quarters behind it
  EXPECT_NEAR(0.5 * (b[0][1] + b[1][1]), 250, 1e-9);  // symmetric about the pivot height
  EXPECT_NEAR(b[1][1] - b[0][1], 12, 0.05);           // 12% thick
}

TEST(MakeBody, Naca4TurnsAboutThePivot) {
  const double alpha = 7;
  const auto body = make_body(naca_case("2412", alpha));
  const auto out = body->outline();
  const std::size_t n = out.size() / 2;
  const double a = alpha * std::numbers::pi / 180;
  // Leading edge (0, 0) and trailing edge (1, 0) of the section, relative to the quarter chord.
  EXPECT_NEAR(out[n][0], 300 - 25 * std::cos(a), 1e-9);
  EXPECT_NEAR(out[n][1], 250 + 25 * std::sin(a), 1e-9);
  EXPECT_NEAR(out[0][0], 300 + 75 * std::cos(a), 1e-9);
  EXPECT_NEAR(out[0][1], 250 - 75 * std::sin(a), 1e-9);
}

TEST(MakeBody, PointsPerSideFollowResolution) {
  EXPECT_EQ(naca_points_per_side(50), 200);
  EXPECT_EQ(naca_points_per_side(160), 320);
  EXPECT_EQ(naca_points_per_side(1000.2), 2001);
}

TEST(MakeBody, CylinderDiameterIsTheReferenceLength) {
  Case c;
  c.geometry = GeometryType::Cylinder;
  c.chord_cells = 40;
  c.angle_of_attack_deg = 30;  // irrelevant for a circle
  c.body_position_chords = {5, 2, 0};
  const auto body = make_body(c);
  const auto* cyl = dynamic_cast<const CylinderBody*>(body.get());
  ASSERT_NE(cyl, nullptr);
  EXPECT_EQ(cyl->centre(), (Point2{200, 80}));
  EXPECT_EQ(cyl->radius(), 20);
  EXPECT_TRUE(body->inside({219.9, 80, 0}));
  EXPECT_FALSE(body->inside({220.1, 80, 0}));
}

TEST(MakeBody, SeligFileMatchesTheSameNacaSection) {
  const auto dir = std::filesystem::temp_directory_path() / ("aerolbm_make_body_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "s.dat";
  {
    std::ofstream out(file);
    out.precision(12);
    out << "NACA 2412 FINE\n";
    const auto pts = naca4_outline("2412", 200);
    for (const Point2& p : pts) out << p[0] << " " << p[1] << "\n";
    out << pts[0][0] << " " << pts[0][1] << "\n";
  }
  Case c = naca_case("2412", 4);
  c.geometry = GeometryType::Selig;
  c.selig_file = file;
  const auto from_file = make_body(c);
  std::filesystem::remove_all(dir);
  const auto from_code = make_body(naca_case("2412", 4));
  const auto a = from_file->bounds(), b = from_code->bounds();
  for (int k = 0; k < 2; ++k)
    for (int d = 0; d < 2; ++d) EXPECT_NEAR(a[k][d], b[k][d], 0.05) << k << "," << d;
  EXPECT_EQ(from_file->inside({300, 250.5, 0}), from_code->inside({300, 250.5, 0}));
}

TEST(MakeBody, NoneGivesNoBody) {
  Case c;
  c.geometry = GeometryType::None;
  EXPECT_EQ(make_body(c), nullptr);
}

TEST(MakeBody, BadInputIsAGeometryError) {
  Case c = naca_case("0012", 0);
  c.chord_cells = 0;
  EXPECT_THROW(make_body(c), GeometryError);
  c.chord_cells = std::nan("");
  EXPECT_THROW(make_body(c), GeometryError);
  c = naca_case("012", 0);
  EXPECT_THROW(make_body(c), GeometryError);
  c = naca_case("0012", 0);
  c.geometry = GeometryType::Selig;  // no file given
  EXPECT_THROW(make_body(c), GeometryError);
  c.selig_file = "/nonexistent/aerolbm/foil.dat";
  EXPECT_THROW(make_body(c), GeometryError);
}

}  // namespace
}  // namespace aerolbm
