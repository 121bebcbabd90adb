// Selig .dat reader: a good file round-trips, and every kind of bad file is refused with file:line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "src/geometry/geometry_error.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/selig.hpp"

#ifndef AEROLBM_SOURCE_DIR
#define AEROLBM_SOURCE_DIR ""
#endif

namespace aerolbm {
namespace {

namespace fs = std::filesystem;

class SeligFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("aerolbm_selig_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }

  // Header + the points, one per line, with the trailing-edge point repeated at the end as published files do.
  static std::string selig_text(const std::vector<Point2>& pts, bool repeat_te = true) {
    std::ostringstream s;
    s.precision(10);
    s << "TEST SECTION\n";
    for (const Point2& p : pts) s << "  " << p[0] << "  " << p[1] << "\n";
    if (repeat_te) s << "  " << pts.front()[0] << "  " << pts.front()[1] << "\n";
    return s.str();
  }

  // Runs read_selig, expects a GeometryError naming "file:line", returns the message.
  std::string expect_error(const fs::path& file, int line) {
    try {
      read_selig(file);
    } catch (const GeometryError& e) {
      const std::string msg = e.what();
      const std::string where = file.string() + ":" + std::to_string(line) + ":";
      EXPECT_NE(msg.find(where), std::string::npos) << "expected \"" << where << "\" in: " << msg;
      return msg;
    }
    ADD_FAILURE() << "no GeometryError for " << file;
    return {};
  }

  fs::path dir_;
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST_F(SeligFiles, ReadsAGoodFileWithBlankLinesTrailingSpaceAndCrLf) {
  const auto ref = naca4_outline("2412", 30);
  std::string text = selig_text(ref);
  text.insert(text.find('\n') + 1, "\n   \n");  // blank lines after the name
  text.replace(text.find('\n', text.find("  1")), 1, "   \t\r\n");  // trailing whitespace and a CR
  text += "\n\n";
  const auto pts = read_selig(write("good.dat", text));
  ASSERT_EQ(pts.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(pts[i][0], ref[i][0], 1e-9) << i;
    EXPECT_NEAR(pts[i][1], ref[i][1], 1e-9) << i;
  }
}

TEST_F(SeligFiles, DropsExactDuplicatePoints) {
  const auto ref = naca4_outline("0012", 30);
  std::ostringstream s;
  s.precision(10);
  s << "DUPLICATES\n";
  for (std::size_t i = 0; i < ref.size(); ++i) {
    s << ref[i][0] << " " << ref[i][1] << "\n";
    if (i == 30 || i == 10) s << ref[i][0] << " " << ref[i][1] << "\n";  // leading edge and one more, twice
  }
  const auto pts = read_selig(write("dup.dat", s.str()));  // no repeated TE at the end: also fine
  EXPECT_EQ(pts.size(), ref.size());
}

TEST_F(SeligFiles, MissingFile) {
  const fs::path p = dir_ / "nowhere.dat";
  try {
    read_selig(p);
    FAIL() << "no error";
  } catch (const GeometryError& e) {
    EXPECT_TRUE(contains(e.what(), p.string())) << e.what();
    EXPECT_TRUE(contains(e.what(), "check the path")) << e.what();
  }
}

TEST_F(SeligFiles, NonNumericLine) {
  std::string text = selig_text(naca4_outline("0012", 20));
  // Line 5 (name + 3 points before it) gets a stray word.
  std::size_t pos = 0;
  for (int i = 0; i < 4; ++i) pos = text.find('\n', pos) + 1;
  text.insert(pos, "0.5 abc\n");
  const auto msg = expect_error(write("word.dat", text), 5);
  EXPECT_TRUE(contains(msg, "expected two numbers")) << msg;
}

TEST_F(SeligFiles, ThreeNumbersOnALine) {
  const auto msg = expect_error(write("three.dat", "X\n1 0\n0.5 0.05 7\n"), 3);
  EXPECT_TRUE(contains(msg, "expected two numbers")) << msg;
}

TEST_F(SeligFiles, FewerThanTenPoints) {
  const auto msg = expect_error(write("short.dat", "SHORT\n1 0\n0.5 0.06\n0 0\n0.5 -0.06\n1 0\n"), 6);
  EXPECT_TRUE(contains(msg, "only 4 distinct points")) << msg;
}

TEST_F(SeligFiles, NotNormalised) {
  // Coordinates in percent of chord: the first point is already out of range.
  std::ostringstream s;
  s << "PERCENT\n";
  for (const Point2& p : naca4_outline("0012", 20)) s << 100 * p[0] << " " << 100 * p[1] << "\n";
  const auto msg = expect_error(write("percent.dat", s.str()), 2);
  EXPECT_TRUE(contains(msg, "normalised")) << msg;
}

TEST_F(SeligFiles, Lednicer) {
  const auto ref = naca4_outline("0012", 20);
  std::ostringstream s;
  s << "NACA 0012 LEDNICER\n21. 21.\n\n";
  for (int i = 20; i >= 0; --i) s << ref[i][0] << " " << ref[i][1] << "\n";
  const auto msg = expect_error(write("lednicer.dat", s.str()), 2);
  EXPECT_TRUE(contains(msg, "Lednicer")) << msg;
  EXPECT_TRUE(contains(msg, "convert")) << msg;
}

TEST_F(SeligFiles, SelfIntersecting) {
  auto pts = naca4_outline("0012", 20);
  // Pull an upper-surface point at mid-chord below the lower surface: its two edges cut through the lower one.
  const std::size_t k = 10;
  pts[k][1] = -0.2;
  // Edge k-1 (points k-1 → k) is the first to cross; point j sits on line j + 2.
  const auto msg = expect_error(write("cross.dat", selig_text(pts)), int(k - 1) + 2);
  EXPECT_TRUE(contains(msg, "crosses itself")) << msg;
}

TEST_F(SeligFiles, DoesNotReturnToTheTrailingEdge) {
  const auto ref = naca4_outline("0012", 20);
  std::ostringstream s;
  s.precision(10);
  s << "TRUNCATED\n";
  for (std::size_t i = 0; i < 30; ++i) s << ref[i][0] << " " << ref[i][1] << "\n";  // stops mid lower surface
  const auto msg = expect_error(write("truncated.dat", s.str()), 31);
  EXPECT_TRUE(contains(msg, "truncated")) << msg;
}

TEST_F(SeligFiles, ChordNotOne) {
  std::ostringstream s;
  s.precision(10);
  s << "SHORT CHORD\n";
  for (const Point2& p : naca4_outline("0012", 20)) s << 0.95 * p[0] << " " << 0.95 * p[1] << "\n";
  s << "0.95 0\n";
  // The largest x is the trailing edge on line 2.
  const auto msg = expect_error(write("chord.dat", s.str()), 2);
  EXPECT_TRUE(contains(msg, "not 1 within 1%")) << msg;
}

TEST_F(SeligFiles, NormalisesAChordWithinOnePercent) {
  std::ostringstream s;
  s.precision(12);
  s << "SLIGHTLY LONG\n";
  const auto ref = naca4_outline("0012", 20);
  for (const Point2& p : ref) s << 1.005 * p[0] - 0.002 << " " << 1.005 * p[1] << "\n";
  const auto pts = read_selig(write("long.dat", s.str()));
  ASSERT_EQ(pts.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(pts[i][0], ref[i][0], 1e-10);
    EXPECT_NEAR(pts[i][1], ref[i][1], 1e-10);
  }
}

// cases/data/naca2412.dat is generated from naca4_outline; it must stay in step with the formula.
TEST(SeligShippedData, Naca2412MatchesTheFormula) {
  fs::path root = AEROLBM_SOURCE_DIR;
  if (root.empty()) root = fs::path(__FILE__).parent_path().parent_path().parent_path();
  const fs::path file = root / "cases" / "data" / "naca2412.dat";
  std::ifstream in(file);
  std::string header;
  ASSERT_TRUE(std::getline(in, header)) << file;
  EXPECT_EQ(header, "NACA 2412 (generated by aerolbm)");
  const auto pts = read_selig(file);
  const auto ref = naca4_outline("2412", 60);
  ASSERT_EQ(pts.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(pts[i][0], ref[i][0], 1e-6) << i;
    EXPECT_NEAR(pts[i][1], ref[i][1], 1e-6) << i;
  }
}

}  // namespace
}  // namespace aerolbm

namespace aerolbm {
namespace {

// The self-intersection check is quadratic: a file of far more points than any real airfoil is refused at once
// (the fuzzing helper measured 7 s for a valid 20,000-point file; 10x that would hang for minutes).
TEST_F(SeligFiles, RefusesAnOutlineFarLargerThanAnyRealAirfoil) {
  const auto pts = naca4_outline("0012", 15000);  // 30,000 distinct points
  const auto file = write("huge.dat", selig_text(pts));
  std::string msg;
  try {
    read_selig(file);
  } catch (const GeometryError& e) {
    msg = e.what();
  }
  EXPECT_TRUE(contains(msg, "at most 20000")) << msg;
  EXPECT_TRUE(contains(msg, "resample")) << msg;
}

}  // namespace
}  // namespace aerolbm
