// The mean fields' statistics (output.averages) on the CUDA backend equal the CPU backend's bit for bit: both run
// kernels/physics/field_averages.hpp's sample_cell on the same state (which the two backends hold bit for bit:
// test_cases_bitwise.cpp), in double, with the same IEEE operations in the same order and nothing contracted into
// a multiply-add. Samples are taken between pieces of steps as a run takes them (on the GPU queued behind the
// steps, beside the force samples), during the inflow ramp and after it, for both layouts and a 3D case.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tests/cases_dir.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

FieldAverages averages(const std::filesystem::path& file, std::vector<std::string> sets, const std::string& backend) {
  sets.push_back("time.ramp_convective_times=0.1");
  SolverSetup s(file, sets, backend);
  for (std::int64_t piece : {7, 13, 20, 20, 3, 77, 20, 40}) {
    s.backend->queue_steps(piece);
    s.backend->queue_force_sample(false);
    s.backend->sample_averages();
  }
  s.backend->take_force_samples();
  FieldAverages a;
  s.backend->read_averages(a);
  return a;
}

std::size_t differing_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
  return n;
}

void expect_same(const std::filesystem::path& file, const std::string& kernel) {
  const std::vector<std::string> sets = {"lattice.kernel=" + kernel, "lattice.precision=fp32"};
  const FieldAverages cpu = averages(file, {"lattice.kernel=pull", "lattice.precision=fp32"}, "cpu");
  const FieldAverages gpu = averages(file, sets, "cuda");
  ASSERT_EQ(cpu.samples, 8);
  ASSERT_EQ(gpu.samples, cpu.samples);
  ASSERT_FALSE(cpu.mean.empty());
  const std::size_t dm = differing_bits(cpu.mean, gpu.mean), d2 = differing_bits(cpu.m2, gpu.m2);
  std::printf("%s, %s: %zu values per statistic, %zu means and %zu sums of squares differ\n",
              file.filename().c_str(), kernel.c_str(), cpu.mean.size(), dm, d2);
  EXPECT_EQ(dm, 0u) << file << " " << kernel;
  EXPECT_EQ(d2, 0u) << file << " " << kernel;
}

TEST(MeanFieldsGpu, DefaultCasePullEqualsCpuBitForBit) {
  expect_same(cases_dir() / "naca0012_re1000_aoa5.yaml", "pull");
}

TEST(MeanFieldsGpu, DefaultCaseInPlaceEqualsCpuBitForBit) {
  expect_same(cases_dir() / "naca0012_re1000_aoa5.yaml", "aa");
}

TEST(MeanFieldsGpu, ThreeDimensionalCaseEqualsCpuBitForBit) {
  expect_same(cases_dir() / "ci/schaefer_turek_3d1z.yaml", "pull");
}

}  // namespace
}  // namespace aerolbm::testing
