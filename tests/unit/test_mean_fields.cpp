// The mean fields (output.averages): the per-cell statistics of kernels/physics/field_averages.hpp against two-pass
// formulas, the mean frame built from them, and the case-file keys with their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/physics/field_averages.hpp"
#include "src/case/case.hpp"
#include "src/solver/mean_frame.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;
using case_test::load_error;
using case_test::sketch_with;
using case_test::TempDir;

namespace fa = field_averages;

// Welford's running mean and sum of squared deviations equal the two-pass mean and Σ(x − x̄)², also for values
// with a large offset and small fluctuations (a density ≈ 1 with δρ ~ 1e-6), where Σx² − N x̄² would cancel.
TEST(MeanFields, WelfordMatchesTwoPassStatistics) {
  for (double offset : {0.0, 1.0}) {
    std::vector<double> x;
    for (int k = 0; k < 1000; ++k) x.push_back(offset + 1e-6 * std::sin(0.37 * k) + 2e-7 * std::cos(1.3 * k));
    double mean = 0, m2 = 0;
    for (std::size_t k = 0; k < x.size(); ++k) fa::welford_add(mean, m2, x[k], double(k + 1));
    long double s = 0;
    for (double v : x) s += v;
    const long double ref_mean = s / x.size();
    long double ss = 0;
    for (double v : x) ss += (v - ref_mean) * (v - ref_mean);
    EXPECT_NEAR(mean, double(ref_mean), 1e-15 * (1 + offset));
    EXPECT_NEAR(m2, double(ss), 1e-9 * double(ss)) << "offset " << offset;
    EXPECT_GT(m2, 0);
  }
}

// A constant signal: the mean is the value exactly and the RMS exactly 0 (what makes a steady run's mean frame
// equal to its last frame bit for bit).
TEST(MeanFields, ConstantSignalGivesItsValueAndZeroRms) {
  double mean = 0, m2 = 0;
  const float x = 0.0866025f;
  for (int k = 1; k <= 500; ++k) fa::welford_add(mean, m2, double(x), double(k));
  EXPECT_EQ(mean, double(x));
  EXPECT_EQ(m2, 0.0);
  EXPECT_EQ(fa::rms(m2, 500, 1.0, false), 0.0f);
}

// The layout both backends use (quantity q of cell n at q·cells + n) and the finished fields in free-stream units:
// ū/U, C̄p = (ρ̄ − 1) c_s² / (½U²), RMS = √(m2/N) · scale; solids 0.
TEST(MeanFields, MeanFrameFromStatistics) {
  DomainData d;
  d.nx = 3;
  d.ny = 1;
  d.flags = {cell::fluid, cell::solid, cell::fluid};
  const std::int64_t cells = 3;
  FieldAverages a;
  a.mean.assign(4 * cells, 0.0);
  a.m2.assign(4 * cells, 0.0);
  const fa::View v{a.mean.data(), a.m2.data(), cells};
  const double U = 0.05;
  // Cell 0: ρ alternates 1 ± 0.001, u = (U ± 0.01, 0, 0); cell 2 steady.
  for (int k = 0; k < 10; ++k) {
    const float s = k % 2 ? 1.0f : -1.0f;
    const float u0[3] = {float(U + 0.01 * s), 0.0f, 0.0f};
    const float u2[3] = {0.02f, -0.01f, 0.0f};
    const float uz[3] = {0.0f, 0.0f, 0.0f};
    fa::add_cell(v, 0, float(1.0 + 0.001 * s), u0, double(k + 1));
    fa::add_cell(v, 1, 1.0f, uz, double(k + 1));
    fa::add_cell(v, 2, 1.002f, u2, double(k + 1));
    a.samples = k + 1;
  }
  const MeanFrame f = build_mean_frame(d, a, U);
  const double cp = (1.0 / 3.0) / (0.5 * U * U);
  EXPECT_NEAR(f.velocity[0], 1.0, 1e-6);
  EXPECT_NEAR(f.velocity_rms[0], 0.01 / U, 1e-5);
  EXPECT_NEAR(f.pressure[0], 0.0, 1e-3);
  EXPECT_NEAR(f.pressure_rms[0], 0.001 * cp, 1e-3 * 0.001 * cp);
  EXPECT_EQ(f.mask, (std::vector<std::uint8_t>{0, 1, 0}));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(f.velocity[3 + k], 0.0f);
  EXPECT_EQ(f.pressure[1], 0.0f);
  EXPECT_NEAR(f.velocity[6], 0.02f / U, 1e-5);
  EXPECT_NEAR(f.velocity[7], -0.01f / U, 1e-5);
  EXPECT_NEAR(f.pressure[2], (double(1.002f) - 1) * cp, 1e-4);
  EXPECT_EQ(f.velocity_rms[6], 0.0f);
  EXPECT_EQ(f.pressure_rms[2], 0.0f);
  a.samples = 0;
  EXPECT_THROW(build_mean_frame(d, a, U), std::invalid_argument);
}

TEST(MeanFields, CaseKeysAndDefaults) {
  TempDir dir;
  const Case off = load_case(dir.write("off.yaml", case_test::kSketch));
  EXPECT_FALSE(off.averages);
  EXPECT_EQ(off.averages_every, off.forces_every);  // left out: the force samples' interval
  const Case on = load_case(dir.write("on.yaml", sketch_with(9, "output: {every: 0, averages: {enabled: true}}")),
                            {"forces.every=7"});
  EXPECT_TRUE(on.averages);
  EXPECT_EQ(on.averages_every, 7);
  const Case every = load_case(dir.write("every.yaml", case_test::kSketch),
                               {"output.averages.enabled=true", "output.averages.every=25"});
  EXPECT_TRUE(every.averages);
  EXPECT_EQ(every.averages_every, 25);
}

TEST(MeanFields, BadValuesNameTheKeyAndWhatToDo) {
  TempDir dir;
  const auto zero = dir.write("zero.yaml", sketch_with(9, "output: {averages: {enabled: true, every: 0}}"));
  std::string msg = load_error(zero);
  EXPECT_TRUE(Contains(msg, zero.string() + ":9: output.averages.every: expected"));
  EXPECT_TRUE(Contains(msg, "sampled every N >= 1 steps"));

  const auto word = dir.write("word.yaml", sketch_with(9, "output: {averages: {enabled: yes please}}"));
  msg = load_error(word);
  EXPECT_TRUE(Contains(msg, word.string() + ":9: output.averages.enabled: expected"));

  // A bare boolean where the section is expected says how to write the section.
  const auto bare = dir.write("bare.yaml", sketch_with(9, "output: {averages: true}"));
  msg = load_error(bare);
  EXPECT_TRUE(Contains(msg, bare.string() + ":9: output.averages: expected a mapping of keys (enabled, every)"));

  const auto typo = dir.write("typo.yaml", sketch_with(9, "output: {averages: {enabled: true, evry: 10}}"));
  EXPECT_TRUE(Contains(load_error(typo), "every"));

  // Nothing to write them in.
  const auto none = dir.write("none.yaml", sketch_with(9, "output: {formats: [], averages: {enabled: true}}"));
  msg = load_error(none);
  EXPECT_TRUE(Contains(msg, none.string() + ":9: output.averages.enabled: expected output.formats with hdf5 or vtk"));
  EXPECT_TRUE(Contains(msg, "set output.averages.enabled: false"));
}

}  // namespace
}  // namespace aerolbm
