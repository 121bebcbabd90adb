// The window statistics (src/solver/window_analysis.hpp) on real solver runs: the Strouhal number of a shedding
// cylinder from its lift spectrum, inside the published range, and the default case steady and converged (disabled
// until the boundaries of issue 15 are in). The steady Schäfer-Turek 2D-1 case's null Strouhal number and
// converged window are checked in test_schaefer_turek.cpp, on the run that test makes anyway.
#include <gtest/gtest.h>

#include <cstdio>

#include "src/solver/window_analysis.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

void print(const char* what, const WindowAnalysis& a) {
  std::printf("%s:\n  %s\n  %s\n", what, statistics_line(a).c_str(), verdict_line(a, "").c_str());
}

// Schäfer & Turek (1996) 2D-2: the 2D-1 channel and cylinder at Re = 100 (mean inflow speed, diameter), periodic
// shedding. Published: St = f D / U_mean in [0.295, 0.305]. D = 20 cells and Mach 0.05 (cases/ci); the lift's
// shedding is established after about 12 convective times; the window of 15 holds 4.5 periods, sampled every 10
// steps (1,000 samples).
TEST(WindowStatisticsRun, SchaeferTurek2D2StrouhalFromTheLiftSpectrum) {
  SolverSetup s(cases_dir() / "ci/schaefer_turek_2d1.yaml", {"physics.reynolds=100"});
  const auto w = window_samples(s, 15, 15, 10);
  const WindowAnalysis a = analyse_window(w, 2, 15);
  print("Schäfer-Turek 2D-2, D = 20 cells", a);
  ASSERT_TRUE(a.strouhal().has_value()) << a.lift.reason;
  EXPECT_GE(*a.strouhal(), 0.295);
  EXPECT_LE(*a.strouhal(), 0.305);
  EXPECT_GE(a.lift.periods_in_window, 3.0);
  EXPECT_GT(a.lift.peak_fraction, 0.9) << "shedding: the lift is nearly one sine";
}

// Issue 15, part 6: the steady default case at CI size has C_L and C_D standard deviations within 1 % of their
// means over the window, no Strouhal number, and mean C_L, C_D within 10 % of Kouser et al. (2021): 0.247, 0.130.
// Disabled until the far-field boundaries and the smooth start (parts 1 and 2) let the start-up pressure waves
// out: on 2026-12-01 the window's C_L std is 61 % of its mean and C_D's 22 %, and the test fails. Run it with
// --gtest_also_run_disabled_tests.
TEST(WindowStatisticsRun, DISABLED_DefaultCaseIsSteadyAndConverged) {
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml");
  const double end = double(s.u.total_steps) / double(s.u.steps_per_convective_time);
  const double average = double(s.u.average_steps) / double(s.u.steps_per_convective_time);
  const auto w = window_samples(s, end - average, average, s.c.forces_every);
  const WindowAnalysis a = analyse_window(w, 2, average);
  print("default case (NACA 0012, Re 1000, 5 degrees, 64 cells per chord)", a);
  EXPECT_FALSE(a.strouhal().has_value()) << *a.strouhal();
  EXPECT_LE(a.find("cl")->std_relative(), 0.01);
  EXPECT_LE(a.find("cd")->std_relative(), 0.01);
  EXPECT_TRUE(a.convergence.converged) << a.convergence.reasons.at(0);
  EXPECT_NEAR(a.find("cl")->mean, 0.247, 0.1 * 0.247);
  EXPECT_NEAR(a.find("cd")->mean, 0.130, 0.1 * 0.130);
}

}  // namespace
}  // namespace aerolbm::testing
