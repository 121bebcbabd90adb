// Schäfer & Turek (1996) 3D-1Z: steady flow past a cylinder spanning a square channel at Re = 20
// (cases/ci/schaefer_turek_3d1z.yaml, D3Q19). Published: C_D = 6.18533, C_L = 0.009401.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

TEST(SchaeferTurek3D1Z, DragWithinThreePercent) {
  SolverSetup s(cases_dir() / "ci/schaefer_turek_3d1z.yaml");
  const auto c = mean_coefficients(s, 20, 2);
  std::printf("Schäfer-Turek 3D-1Z, D = 10 cells: C_D = %.4f (%.2f %%), C_L = %.5f\n", c[0],
              100 * (c[0] / 6.18533 - 1), c[1]);
  EXPECT_NEAR(c[0], 6.18533, 0.03 * 6.18533);
}

// D = 20 cells, Mach 0.025: label `long` (a GPU run, minutes on a CPU).
TEST(SchaeferTurek3D1ZLong, DragWithinOnePercent) {
  SolverSetup s(cases_dir() / "ci/schaefer_turek_3d1z.yaml",
                {"geometry.diameter_cells=20", "physics.mach=0.025"});
  const auto c = mean_coefficients(s, 20, 2);
  std::printf("Schäfer-Turek 3D-1Z, D = 20 cells: C_D = %.4f (%.2f %%), C_L = %.5f\n", c[0],
              100 * (c[0] / 6.18533 - 1), c[1]);
  EXPECT_NEAR(c[0], 6.18533, 0.01 * 6.18533);
}

}  // namespace
}  // namespace aerolbm::testing
