// aerolbm sweep's pieces: sweep.yaml reading (located errors), the splitmix64 expansion against SCHEMA.md's check
// values, the surrogate's inputs (signed distance, mask), Cl/Cd from a field, and a 3-case sweep on the CPU that
// must produce a schema-valid dataset.h5 with physically sensible values.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "src/case/case.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"
#include "src/io/hdf5_reader.hpp"
#include "src/surrogate/airfoil_inputs.hpp"
#include "src/surrogate/dataset_writer.hpp"
#include "src/surrogate/field_sampling.hpp"
#include "src/surrogate/sweep_file.hpp"
#include "src/surrogate/sweep_runner.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm::surrogate {
namespace {

using test::TempDir;

std::string base_case() { return std::string(AEROLBM_SOURCE_DIR) + "/cases/naca0012_re1000_aoa5.yaml"; }

std::filesystem::path write_sweep(const TempDir& dir, const std::string& body) {
  const auto p = dir.path() / "sweep.yaml";
  std::ofstream(p) << "format: aerolbm-sweep\nversion: 1\nbase_case: " << base_case() << "\n" << body;
  return p;
}

const char* kTiny =
    "set: {geometry.chord_cells: 16, domain.size_chords: [6, 3], domain.body_position_chords: [2, 1.5]}\n"
    "time: {convective_times: 3, average_last: 1}\n"
    "sample_grid: {nx: 32, ny: 16, x: [-1.0, 3.0], y: [-1.0, 1.0]}\n"
    "surface_points: 40\n"
    "sampling: random\n"
    "count: 2\n"
    "seed: 5\n"
    "parameters:\n"
    "  camber: {values: [0.0, 0.02]}\n"
    "  camber_position: {values: [0.4]}\n"
    "  thickness: {values: [0.12]}\n"
    "  aoa_deg: {range: [4.0, 8.0]}\n"
    "  reynolds: {range: [100, 200], log: true}\n"
    "split: {test_fraction: 0.5}\n"
    "extrapolation: {count: 1, aoa_deg: {range: [9.0, 10.0]}}\n";

std::string error_of(const std::filesystem::path& p) {
  try {
    read_sweep(p);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "";
}

TEST(SurrogateSweep, SplitMixCheckValues) {
  SplitMix64 g(1);
  EXPECT_EQ(g.next(), 0x910a2dec89025cc1ull);
  EXPECT_EQ(g.next(), 0xbeeb8da1658eec67ull);
  EXPECT_EQ(g.next(), 0xf893a2eefb32555eull);
  SplitMix64 u(1);
  EXPECT_DOUBLE_EQ(u.uniform(), 0.5665615751722809);
  EXPECT_DOUBLE_EQ(u.uniform(), 0.7457817572627011);
}

TEST(SurrogateSweep, ExpandsWithSplitsAndCodes) {
  TempDir dir;
  const SweepSpec s = read_sweep(write_sweep(dir, kTiny));
  const auto cases = expand_sweep(s);
  ASSERT_EQ(cases.size(), 3u);
  int test = 0;
  for (int i = 0; i < 2; ++i) {
    EXPECT_NE(cases[i].split, 2);
    test += cases[i].split;
    EXPECT_GE(cases[i].params[3], 4.0);
    EXPECT_LT(cases[i].params[3], 8.0);
    EXPECT_GE(cases[i].params[4], 100.0);
    EXPECT_LT(cases[i].params[4], 200.0);
    // Code digits and params agree; camber 0 records position 0.
    const Naca4Params n = parse_naca4(cases[i].code);
    EXPECT_DOUBLE_EQ(n.m, cases[i].params[0]);
    EXPECT_DOUBLE_EQ(n.m == 0 ? 0.0 : n.p, cases[i].params[1]);
    EXPECT_DOUBLE_EQ(n.t, cases[i].params[2]);
  }
  EXPECT_EQ(test, 1);  // round(0.5 · 2)
  EXPECT_EQ(cases[2].split, 2);
  EXPECT_GE(cases[2].params[3], 9.0);
}

TEST(SurrogateSweep, BadFilesNameLineKeyAndFix) {
  TempDir dir;
  std::string body = kTiny;
  // A range for a geometry parameter: NACA codes need whole percents.
  std::string bad = body;
  bad.replace(bad.find("thickness: {values: [0.12]}"), 27, "thickness: {range: [0.1, 0.2]}");
  std::string msg = error_of(write_sweep(dir, bad));
  EXPECT_NE(msg.find("sweep.yaml:14"), std::string::npos) << msg;
  EXPECT_NE(msg.find("parameters.thickness.range"), std::string::npos) << msg;
  EXPECT_NE(msg.find("whole percents"), std::string::npos) << msg;
  // An off-table thickness.
  bad = body;
  bad.replace(bad.find("[0.12]"), 6, "[0.085]");
  msg = error_of(write_sweep(dir, bad));
  EXPECT_NE(msg.find("parameters.thickness.values[0]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("round(t*100)"), std::string::npos) << msg;
  // A misspelt key, with a suggestion.
  bad = body;
  bad.replace(bad.find("sampling:"), 9, "samplng:");
  msg = error_of(write_sweep(dir, bad));
  EXPECT_NE(msg.find("unknown section 'samplng'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sampling"), std::string::npos) << msg;
  // A set entry that the sweep owns.
  bad = body;
  bad.replace(bad.find("set: {"), 6, "set: {physics.reynolds: 5, ");
  msg = error_of(write_sweep(dir, bad));
  EXPECT_NE(msg.find("set.physics.reynolds"), std::string::npos) << msg;
  // Wrong format.
  const auto p = dir.path() / "other.yaml";
  std::ofstream(p) << "format: something\nversion: 1\n";
  msg = error_of(p);
  EXPECT_NE(msg.find("other.yaml:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("aerolbm-sweep"), std::string::npos) << msg;
  EXPECT_NE(msg.find("parameters"), std::string::npos) << msg;  // and the missing sections in the same report
}

TEST(SurrogateInputs, SignedDistanceAndMask) {
  const std::vector<Point2> outline = [] {
    SectionPlacement pl;
    std::vector<Point2> o = naca4_outline("0012", 200);
    for (auto& p : o) p = place_point(p, pl);
    return o;
  }();
  // Quarter chord (origin) lies inside, 6 % of the chord from either surface; 2 chords downstream lies 1.25
  // chords behind the trailing edge at x = 0.75.
  EXPECT_LT(signed_distance(outline, {0.0, 0.0}), -0.05);
  EXPECT_GT(signed_distance(outline, {0.0, 0.0}), -0.07);
  EXPECT_NEAR(signed_distance(outline, {2.0, 0.0}), 1.25, 1e-9);
  EXPECT_NEAR(signed_distance(outline, {-0.25 - 0.5, 0.0}), 0.5, 1e-6);
  SampleGrid g{41, 21, -1.0, 3.0, -1.0, 1.0};  // spacing 0.1: the origin is point (10, 10)
  const auto f = point_features(g, outline);
  const std::size_t origin = std::size_t(10 * 41 + 10);
  EXPECT_FLOAT_EQ(f[origin * 4 + 0], 0.0f);
  EXPECT_FLOAT_EQ(f[origin * 4 + 3], 1.0f);
  EXPECT_LT(f[origin * 4 + 2], 0.0f);
  EXPECT_FLOAT_EQ(f[0 * 4 + 3], 0.0f);
  EXPECT_GT(f[0 * 4 + 2], 0.0f);
}

TEST(SurrogateInputs, CoefficientsFromAField) {
  // A closed contour in a uniform field: constant Cp gives no net force, and shear follows the tangential speed.
  SampleGrid g{81, 41, -1.0, 3.0, -1.0, 1.0};
  std::vector<Point2> square = {{0, 0}, {0.5, 0}, {0.5, 0.5}, {0, 0.5}};  // counter-clockwise
  const std::size_t T = std::size_t(g.points());
  std::vector<float> u(T, 1.0f), v(T, 0.0f), p(T, 0.7f);
  std::vector<std::uint8_t> mask(T, 0);
  auto c = coefficients_from_field(g, u.data(), v.data(), p.data(), 1, mask.data(), square, 100.0);
  EXPECT_NEAR(c.cl_p, 0.0, 1e-12);
  EXPECT_NEAR(c.cd_p, 0.0, 1e-12);
  // Cp = y: the pressure pushes down on the top (Cp 0.5) more than up on the bottom (Cp 0): Cl = −0.5 · 0.5.
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) p[std::size_t(j) * g.nx + i] = float(g.y(j));
  c = coefficients_from_field(g, u.data(), v.data(), p.data(), 1, mask.data(), square, 100.0);
  EXPECT_NEAR(c.cl_p, -0.25, 1e-6);
  EXPECT_NEAR(c.cd_p, 0.0, 1e-6);
  // Viscous: u = 1 at distance h on the top and bottom, in +x on both; drag 2/Re · 1/h per unit length, twice.
  // h = min(0.05, 0.05); the sides see no tangential speed.
  EXPECT_NEAR(c.cd - c.cd_p, 2 * 0.5 * (2.0 / 100.0) / 0.05, 1e-9);
  EXPECT_NEAR(c.cl - c.cl_p, 0.0, 1e-12);
}

TEST(SurrogateSweep, TinyCpuSweepWritesAValidDataset) {
  TempDir dir;
  const SweepSpec s = read_sweep(write_sweep(dir, kTiny));
  const auto cases = expand_sweep(s);
  const auto built = build_sweep_cases(s, cases);
  SweepOptions opt;
  opt.backend = BackendKind::Cpu;
  std::string backend;
  const auto results = run_sweep(s, built, opt, &backend);
  for (const auto& r : results) ASSERT_TRUE(r.ok) << r.error;
  const auto out = dir.path() / "dataset.h5";
  write_dataset(out, s, cases, results, backend);
  EXPECT_FALSE(std::filesystem::exists(out.string() + ".tmp"));

  const h5::Reader f(out);
  EXPECT_EQ(f.attr_string("/", "format").value_or(""), "aerolbm-dataset");
  EXPECT_EQ(f.attr_int("/", "version").value_or(0), 1);
  EXPECT_EQ(f.attr_int("/", "nx").value_or(0), 32);
  EXPECT_EQ(f.attr_double("/", "x1").value_or(0), 3.0);
  EXPECT_EQ(f.attr_string("/", "sweep_yaml").value_or(""), s.text);
  using Shape = std::vector<std::int64_t>;
  EXPECT_EQ(f.shape("/params"), Shape({3, 5}));
  EXPECT_EQ(f.shape("/split"), Shape({3}));
  for (const char* n : {"/fields/u", "/fields/v", "/fields/p", "/fields/sdf", "/fields/mask"})
    EXPECT_EQ(f.shape(n), Shape({3, 16, 32})) << n;
  for (const char* n : {"/surface/x", "/surface/y", "/surface/cp"}) EXPECT_EQ(f.shape(n), Shape({3, 40})) << n;
  for (const char* n : {"/coefficients/cl", "/coefficients/cd", "/timing/seconds"})
    EXPECT_EQ(f.shape(n), Shape({3})) << n;
  EXPECT_EQ(f.type_class("/fields/mask"), "integer");

  for (const char* n : {"/fields/u", "/fields/v", "/fields/p", "/fields/sdf", "/surface/cp"})
    for (float x : f.read<float>(n)) ASSERT_TRUE(std::isfinite(x)) << n;
  const auto sdf = f.read<float>("/fields/sdf");
  const auto mask = f.read<std::uint8_t>("/fields/mask");
  const auto u = f.read<float>("/fields/u");
  // Mask and signed distance agree everywhere, some points are inside, the corner (0, 0) is far outside.
  for (int c = 0; c < 3; ++c) {
    const std::size_t base = std::size_t(c) * 16 * 32;
    int inside = 0;
    for (std::size_t t = 0; t < 16 * 32; ++t) {
      EXPECT_EQ(mask[base + t] == 1, sdf[base + t] < 0);
      if (mask[base + t]) {
        ++inside;
        EXPECT_EQ(u[base + t], 0.0f);
      }
    }
    EXPECT_GT(inside, 0);
    EXPECT_GT(sdf[base + 0], 0.5f);
    // Free stream far upstream: u/U near 1.
    EXPECT_NEAR(u[base + 8 * 32 + 0], 1.0, 0.2);
  }
  const auto cl = f.read<double>("/coefficients/cl");
  const auto cd = f.read<double>("/coefficients/cd");
  const auto params = f.read<double>("/params");
  for (int c = 0; c < 3; ++c) {
    EXPECT_GT(params[c * 5 + 3], 0.0);
    EXPECT_GT(cl[c], 0.05) << "positive angle of attack, positive lift";
    EXPECT_GT(cd[c], 0.0);
  }
  const auto split = f.read<std::int64_t>("/split");
  EXPECT_EQ(split[2], 2);
}

}  // namespace
}  // namespace aerolbm::surrogate
