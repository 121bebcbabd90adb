// The window statistics (src/solver/window_analysis.hpp) on real solver runs: the Strouhal number of a shedding
// cylinder from its lift spectrum, inside the published range, and the default case steady and converged. The steady Schäfer-Turek 2D-1 case's null Strouhal number and
// converged window are checked in test_schaefer_turek.cpp, on the run that test makes anyway.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

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
// Before the far field (characteristic outlet, far-field faces, sponge) and the smooth start, the window's C_L
// standard deviation was 61 % of its mean and C_D's 22 % (2026-12-01, slip faces, fixed-density outlet).
TEST(WindowStatisticsRun, DefaultCaseIsSteadyAndConverged) {
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


// The shedding of 2D-2 grows from the symmetric start for about 40 convective times (with 15-30 the drag's mean
// still drifted by 2.3 % across the window, time constant 11); the maxima are taken over the 12 after that, 3.6
// periods.
constexpr double kSettle = 40, kWindow = 12;

// Issue 15, part 6 (CI size): Schäfer & Turek 2D-2 at D = 28 cells with the characteristic outlet, the maxima of
// the drag and lift and the Strouhal number over the window, within 3 % of the published intervals C_D,max
// 3.22-3.24, C_L,max 0.99-1.01, St 0.295-0.305; and the drag's oscillation beside the fixed-density outlet's, whose
// reflected pressure waves ride on it. At D = 20 the drag maximum sat 3.1 % above its interval (3.340; 3.342 at
// Ma 0.025: the resolution, not the Mach number); measured 2026-12-02 (CPU, aerolbm run with the same settings):
// D = 24: C_D,max 3.334, C_L,max 1.039; D = 28: C_D,max 3.301 (+1.9 %), C_L,max 1.022 (+1.2 %), St 0.301.
TEST(WindowStatisticsRun, SchaeferTurek2D2CharacteristicOutletMaximaAndStrouhal) {
  auto run = [](const std::string& outlet) {
    SolverSetup s(cases_dir() / "ci/schaefer_turek_2d1.yaml",
                  {"physics.reynolds=100", "geometry.diameter_cells=28", "boundaries.outlet=" + outlet});
    return window_samples(s, kSettle, kWindow, 10);
  };
  const auto w = run("characteristic");
  const auto closed = run("pressure");
  double cd_max = -1e9, cl_max = -1e9;
  for (const auto& c : w) {
    cd_max = std::max(cd_max, c.cd);
    cl_max = std::max(cl_max, c.cl);
  }
  const WindowAnalysis a = analyse_window(w, 2, kWindow), b = analyse_window(closed, 2, kWindow);
  print("Schäfer-Turek 2D-2, D = 28 cells, characteristic outlet", a);
  print("the same, fixed-density outlet", b);
  std::printf("C_D,max %.4f, C_L,max %.4f\n", cd_max, cl_max);
  ASSERT_TRUE(a.strouhal().has_value()) << a.lift.reason;
  EXPECT_GE(*a.strouhal(), 0.295 * 0.97);
  EXPECT_LE(*a.strouhal(), 0.305 * 1.03);
  EXPECT_GE(cl_max, 0.99 * 0.97);
  EXPECT_LE(cl_max, 1.01 * 1.03);
  EXPECT_GE(cd_max, 3.22 * 0.97);
  EXPECT_LE(cd_max, 3.24 * 1.03);
  EXPECT_LT(a.find("cd")->std, 0.35 * b.find("cd")->std) << "the outlet lets the start-up waves out";
}

// Issue 15, part 6 (validation, `long`: run on the H200 with AEROLBM_TEST_BACKEND=cuda): Schäfer & Turek 2D-2 at
// D = 80 cells, characteristic outlet, Mach 0.0125, forces every 10 steps over the window after the shedding has
// grown: C_D,max, C_L,max and St inside the published intervals. The benchmark is incompressible; the lattice's
// acoustic waves ride on the drag (rms 0.006 at Ma 0.025, 0.0023 at Ma 0.0125) and raise its maximum by about their
// amplitude. H200, 2026-12-02, window 40-52 (aerolbm run with the same settings, which gives this test's numbers):
// Ma 0.025: D = 40, 80, 160: C_D,max 3.255, 3.247, 3.244 (above 3.24); Ma 0.0125: D = 40: 3.246, C_L,max 0.986
// (outside); D = 80: 3.238, 0.992, St 0.302 (inside; this test on the H200: 3.2381, 0.9919, 0.3019, 8 s); D = 160:
// 3.234, 0.990 (C_L,max on the interval's edge).
TEST(WindowStatisticsRunLong, SchaeferTurek2D2InsideThePublishedIntervals) {
  for (const int D : {80}) {
    SolverSetup s(cases_dir() / "ci/schaefer_turek_2d1.yaml",
                  {"physics.reynolds=100", "physics.mach=0.0125", "boundaries.outlet=characteristic",
                   "geometry.diameter_cells=" + std::to_string(D)});
    const auto w = window_samples(s, kSettle, kWindow, 10);
    double cd_max = -1e9, cl_max = -1e9;
    for (const auto& c : w) {
      cd_max = std::max(cd_max, c.cd);
      cl_max = std::max(cl_max, c.cl);
    }
    const WindowAnalysis a = analyse_window(w, 2, kWindow);
    print(("Schäfer-Turek 2D-2, D = " + std::to_string(D) + " cells, characteristic outlet").c_str(), a);
    std::printf("D = %d: C_D,max %.4f (3.22-3.24), C_L,max %.4f (0.99-1.01), St %.4f (0.295-0.305)\n", D, cd_max,
                cl_max, a.strouhal().value_or(0.0));
    ASSERT_TRUE(a.strouhal().has_value()) << a.lift.reason;
    EXPECT_GE(*a.strouhal(), 0.295) << D;
    EXPECT_LE(*a.strouhal(), 0.305) << D;
    EXPECT_GE(cl_max, 0.99) << D;
    EXPECT_LE(cl_max, 1.01) << D;
    EXPECT_GE(cd_max, 3.22) << D;
    EXPECT_LE(cd_max, 3.24) << D;
  }
}

}  // namespace
}  // namespace aerolbm::testing
