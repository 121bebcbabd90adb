// The wall model (boundaries.wall: wall_model) where the wall is resolved: the default airfoil at Re 1000 and 32
// cells per chord, whose first cells sit in the viscous sublayer (y⁺ of order 1), where the law of the wall's eddy
// viscosity ν (y⁺/u⁺ − 1) nearly vanishes: the lift and drag stay within 2 % of the interpolated walls' (the same
// bounce-back without the model). At Re 10⁶ (entropic collision), first cells at y⁺ of hundreds, the model acts:
// the drag moves by more than 2 %. The backend of AEROLBM_TEST_BACKEND (the GPU host runs it on CUDA too).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/physics/wall_function.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

std::array<double, 3> coefficients_after(const std::vector<std::string>& sets, double convective_times) {
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml", sets);
  s.backend->run(std::int64_t(convective_times * double(s.u.steps_per_convective_time)));
  return s.coefficients();
}

TEST(WallModel, ResolvedWallIsLeftAlmostAlone) {
  const std::vector<std::string> base = {"geometry.chord_cells=32"};
  auto with = base, without = base;
  with.push_back("boundaries.wall=wall_model");
  without.push_back("boundaries.wall=interpolated");
  const auto a = coefficients_after(with, 6), b = coefficients_after(without, 6);
  std::printf("Re 1000, 32 cells per chord: wall model C_D %.5f C_L %.5f; interpolated C_D %.5f C_L %.5f\n", a[0],
              a[1], b[0], b[1]);
  EXPECT_NEAR(a[0] / b[0], 1.0, 0.02);
  EXPECT_NEAR(a[1] / b[1], 1.0, 0.02);
}

TEST(WallModel, UnresolvedWallChangesTheDrag) {
  const std::vector<std::string> base = {"geometry.chord_cells=32", "physics.reynolds=1000000",
                                         "lattice.collision=kbc"};
  auto with = base, without = base;
  with.push_back("boundaries.wall=wall_model");
  without.push_back("boundaries.wall=interpolated");
  const auto a = coefficients_after(with, 3), b = coefficients_after(without, 3);
  std::printf("Re 1e6, 32 cells per chord, KBC: wall model C_D %.5f C_L %.5f; interpolated C_D %.5f C_L %.5f\n",
              a[0], a[1], b[0], b[1]);
  EXPECT_GT(std::fabs(a[0] / b[0] - 1.0), 0.02);
}

// A wall-model face (boundaries.lateral: wall_model) takes out of the flow exactly the law of the wall's stress:
// over one step of the plane channel with such faces (cases/channel_re_tau1000_faces.yaml at h = 10 cells, a few
// hundred steps from its seeded start), the fluid's x momentum grows by the body force on every cell less
// Σ ρ₂ u_τ², u_τ from Spalding's law for the velocity along the wall of the probe (boundaries.wall_model_probe
// cells from the wall: the second row at 1.5, the fourth at 3.5) in the state before the step, computed here from
// the fields the backend reports. The free-slip reflection itself exchanges no momentum along the wall, so nothing
// else may move it.
TEST(WallModel, FaceTakesOutTheLawsStressExactly) {
  for (const double probe : {1.5, 3.5}) {
    SolverSetup s(cases_dir() / "channel_re_tau1000_faces.yaml",
                  {"geometry.reference_cells=10", "physics.body_force=[8.342e-07,0,0]",
                   "boundaries.wall_model_probe=" + std::to_string(probe)});
    const double nu = s.u.nu_lattice, g = 8.342e-07;
    const std::int64_t nx = s.d.nx, ny = s.d.ny, nz = s.d.nz, cells = s.d.cells();
    const auto row = std::int64_t(probe);  // 1.5 → the row next to the face's
    s.backend->run(300);
    std::vector<float> rho_a, u_a, rho_b, u_b;
    s.backend->macroscopic(rho_a, u_a);
    s.backend->run(1);
    s.backend->macroscopic(rho_b, u_b);
    double momentum_a = 0, momentum_b = 0, stress = 0;
    for (std::int64_t n = 0; n < cells; ++n) {
      momentum_a += double(rho_a[std::size_t(n)]) * double(u_a[std::size_t(3 * n)]);
      momentum_b += double(rho_b[std::size_t(n)]) * double(u_b[std::size_t(3 * n)]);
    }
    for (std::int64_t z = 0; z < nz; ++z)
      for (std::int64_t x = 0; x < nx; ++x)
        for (const std::int64_t y : {row, ny - 1 - row}) {  // the probes of the low and the high face
          const std::size_t n = std::size_t(x + nx * (y + ny * z));
          const double ux = u_a[3 * n], uz = u_a[3 * n + 2], speed = std::hypot(ux, uz);
          const double u_tau = friction_velocity<double>(speed, probe, nu);
          stress += double(rho_a[n]) * u_tau * u_tau * ux / speed;
        }
    const double expected = g * double(cells) - stress;
    std::printf("channel with wall-model faces, h = 10, probe %.1f: x momentum gained in a step %.6e, body force "
                "%.6e less the law's stress %.6e = %.6e\n",
                probe, momentum_b - momentum_a, g * double(cells), stress, expected);
    EXPECT_GT(stress, 0.5 * g * double(cells)) << probe;  // the law's stress is of the order of the driving force
    EXPECT_NEAR(momentum_b - momentum_a, expected, 0.01 * stress) << probe;
  }
}

}  // namespace
}  // namespace aerolbm::testing
