// The CUDA backend runs the same per-cell physics as the CPU backend: after 1000 steps of the default case the
// fields agree to float rounding.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

struct Fields {
  std::vector<float> rho, u;
  std::vector<double> f;  // shifted populations: the whole state
  std::array<double, 3> force;
};

Fields run_default(const std::string& backend, std::int64_t steps, const std::vector<std::string>& sets = {}) {
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml", sets, backend);
  s.backend->run(steps);
  Fields f;
  s.backend->macroscopic(f.rho, f.u);
  s.backend->read_populations(f.f);
  f.force = s.backend->wall_force();
  return f;
}

TEST(CpuVsCuda, DefaultCaseAfter1000Steps) {
  const Fields cpu = run_default("cpu", 1000);
  const Fields gpu = run_default("cuda", 1000);
  const double eu = relative_l2(gpu.u, cpu.u), er = relative_l2(gpu.rho, cpu.rho), ef = relative_l2(gpu.f, cpu.f);
  std::printf("CPU vs CUDA after 1000 steps: velocity rel. L2 %.3e, density rel. L2 %.3e, populations (f - w) "
              "rel. L2 %.3e; Fx %.6e vs %.6e, Fy %.6e vs %.6e\n", eu, er, ef, cpu.force[0], gpu.force[0],
              cpu.force[1], gpu.force[1]);
  EXPECT_LT(eu, 1e-5);
  EXPECT_LT(er, 1e-5);
  // The populations minus their weights are the deviations from rest: the strictest comparison of the state.
  EXPECT_LT(ef, 1e-5);
  EXPECT_NEAR(gpu.force[1], cpu.force[1], 1e-4 * std::abs(cpu.force[1]));
}

TEST(CpuVsCuda, HalfwayWallsAndBgkAgreeToo) {
  const std::vector<std::string> sets = {"boundaries.wall=halfway", "lattice.collision=bgk", "physics.reynolds=200"};
  const Fields cpu = run_default("cpu", 500, sets);
  const Fields gpu = run_default("cuda", 500, sets);
  EXPECT_LT(relative_l2(gpu.u, cpu.u), 1e-5);
}

TEST(CpuVsCuda, SchaeferTurekDragOnTheGpu) {
  SolverSetup s(cases_dir() / "ci/schaefer_turek_2d1.yaml", {}, "cuda");
  s.backend->run(30 * s.u.steps_per_convective_time);
  double cd = 0;
  for (int k = 0; k < 100; ++k) {
    s.backend->run(s.u.steps_per_convective_time / 10);
    cd += s.coefficients()[0] / 100;
  }
  std::printf("Schäfer-Turek 2D-1 on the GPU, D = 20: C_D = %.4f\n", cd);
  EXPECT_NEAR(cd, 5.5795, 0.02 * 5.5795);
}

}  // namespace
}  // namespace aerolbm::testing

namespace aerolbm::testing {
namespace {

// 3D: the Schäfer–Turek 3D-1Z cylinder (D3Q19, interpolated walls, parabolic inlet, no-slip channel walls), once
// plain and once with the Smagorinsky model at a Reynolds number where it is active, and D3Q27: fields within
// 1e-5 relative L2 and the per-cell wall forces (moments, spanwise loads) equal.
void expect_3d_agreement(const std::vector<std::string>& sets, std::int64_t steps) {
  SolverSetup cpu(cases_dir() / "ci/schaefer_turek_3d1z.yaml", sets, "cpu");
  SolverSetup gpu(cases_dir() / "ci/schaefer_turek_3d1z.yaml", sets, "cuda");
  cpu.backend->run(steps);
  gpu.backend->run(steps);
  Fields a, b;
  cpu.backend->macroscopic(a.rho, a.u);
  gpu.backend->macroscopic(b.rho, b.u);
  std::vector<double> fa, fb;
  cpu.backend->wall_force_cells(fa);
  gpu.backend->wall_force_cells(fb);
  const double eu = relative_l2(b.u, a.u), er = relative_l2(b.rho, a.rho), ef = relative_l2(fb, fa);
  std::printf("3D CPU vs CUDA (%zu overrides) after %lld steps: velocity %.3e, density %.3e, per-cell wall forces "
              "%.3e (rel. L2)\n", sets.size(), (long long)steps, eu, er, ef);
  EXPECT_LT(eu, 1e-5);
  EXPECT_LT(er, 1e-5);
  EXPECT_LT(ef, 1e-5);
}

TEST(CpuVsCuda3D, SchaeferTurek3D1Z) { expect_3d_agreement({}, 300); }

TEST(CpuVsCuda3D, SmagorinskyAtHighReynoldsNumber) {
  expect_3d_agreement({"physics.reynolds=20000", "physics.mach=0.1", "lattice.les.model=smagorinsky",
                       "lattice.collision=bgk"}, 300);
}

TEST(CpuVsCuda3D, D3Q27) { expect_3d_agreement({"lattice.stencil=D3Q27"}, 200); }

}  // namespace
}  // namespace aerolbm::testing
