// Smagorinsky LES in a body-force-driven channel (D2Q9, TRT, half-way walls). For a simple shear the model's
// eddy viscosity is ν_t = C_s² |du/dy| (Δ = 1 cell), so the steady momentum balance
//   (ν + C_s² |u'|) |u'| = g |H/2 − y|
// gives |u'| = (√(ν² + 4 C_s² g |H/2 − y|) − ν) / (2 C_s²), integrated here numerically from the wall. With a
// molecular τ of 0.503 the eddy viscosity near the walls is as large as the molecular one, so the profile is far
// from the laminar parabola; the solver must follow the LES profile, not the laminar one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// u(y) of the steady Smagorinsky channel, walls at 0 and H, by the midpoint rule on a fine grid.
double les_profile(double y, double H, double nu, double cs, double g) {
  const double c2 = cs * cs;
  const double yy = y < H / 2 ? y : H - y;  // symmetric
  const int n = 20000;
  double u = 0;
  for (int k = 0; k < n; ++k) {
    const double s = (k + 0.5) * yy / n;
    const double tau = g * (H / 2 - s);
    u += (std::sqrt(nu * nu + 4 * c2 * tau) - nu) / (2 * c2) * (yy / n);
  }
  return u;
}

TEST(Smagorinsky, ChannelFollowsTheEddyViscosityProfile) {
  const int H = 16;
  const double tau = 0.503, nu = (tau - 0.5) / 3.0, cs = 0.3;
  const double g = 8.0 * nu * 0.05 / (H * H);  // a laminar centre-line speed of 0.05
  const double re = 0.1 / std::sqrt(3.0) * H / nu;
  const std::string yaml =
      "schema_version: 1\n"
      "case: {name: smagorinsky_channel}\n"
      "physics: {reynolds: " + std::to_string(re) + ", mach: 0.1, body_force: [" + std::to_string(g) + ", 0]}\n"
      "geometry: {type: none, reference_cells: " + std::to_string(H) + "}\n"
      "domain: {size_chords: [0.5, 1], body_position_chords: [0.25, 0.5]}\n"
      "lattice: {stencil: D2Q9, collision: trt, precision: fp64, les: {model: smagorinsky, constant: 0.3}}\n"
      "boundaries: {inlet: periodic, outlet: periodic, lateral: wall}\n"
      "time: {steps: 300000}\n"
      "output: {every: 0}\n";
  // The CPU backend (fp64 storage is CPU-only; CPU-vs-CUDA agreement with the model on is a gpu test), one thread:
  // 128 cells are far too few to share, and 300,000 parallel regions would cost more than the physics.
  SolverSetup s(write_temp_case("smagorinsky_channel", yaml), {}, "cpu", 1);
  ASSERT_DOUBLE_EQ(s.p.smagorinsky, cs);
  const double g_used = s.p.body_force[0], nu_used = (s.u.tau - 0.5) / 3.0;
  s.backend->run(300000);
  std::vector<float> rho, vel;
  s.backend->macroscopic(rho, vel);
  double num_les = 0, den_les = 0, num_lam = 0;
  for (int y = 0; y < H; ++y) {
    const double yc = y + 0.5;
    const double got = vel[3 * (1 + s.d.nx * y)];
    const double les = les_profile(yc, H, nu_used, cs, g_used);
    const double laminar = g_used / (2 * nu_used) * yc * (H - yc);
    num_les += (got - les) * (got - les);
    den_les += les * les;
    num_lam += (got - laminar) * (got - laminar);
  }
  const double err_les = std::sqrt(num_les / den_les), err_lam = std::sqrt(num_lam / den_les);
  std::printf("Smagorinsky channel H=%d tau=%.3f Cs=%.2f: rel. L2 vs LES profile %.3e, vs laminar %.3e\n", H, tau,
              cs, err_les, err_lam);
  // 1.6 % at H = 16 (the eddy viscosity changes by a factor of two across the first cells off each wall).
  EXPECT_LT(err_les, 0.025);
  EXPECT_GT(err_lam, 0.2) << "the eddy viscosity should change the profile visibly";
}

}  // namespace
}  // namespace aerolbm::testing
