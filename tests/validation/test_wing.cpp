// Finite wing against lifting-line theory and its tip vortices (cases/ci/wing_naca0012_ar4.yaml: a rectangular
// NACA 0012 half wing of aspect ratio 4 at 5° and Re = 200, 16 cells per chord, on the symmetry plane z = 0).
// Lifting-line theory with elliptic loading gives C_L(3D)/C_L(2D) ≈ A/(A+2) = 2/3 for A = 4; the 2D section runs
// at the same Reynolds number, Mach number, resolution and height of domain.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "src/solver/frame_builder.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// Mean lift coefficient over the last `average` of `total` convective times, on the body's reference area.
double mean_lift(SolverSetup& s, double area_cells, int total, int average) {
  const std::int64_t per = s.u.steps_per_convective_time;
  s.backend->run(std::int64_t(total - average) * per);
  const double q = 0.5 * s.u.u_lattice * s.u.u_lattice;
  double sum = 0;
  const int samples = 10 * average;
  for (int k = 0; k < samples; ++k) {
    s.backend->run(per / 10);
    sum += s.backend->wall_force()[1] / (q * area_cells);
  }
  return sum / samples;
}

TEST(FiniteWing, LiftRatioFollowsLiftingLineAndTipVorticesForm) {
  SolverSetup wing(cases_dir() / "ci/wing_naca0012_ar4.yaml");
  const auto ref = wing.body->reference();
  ASSERT_TRUE(ref.has_value());
  ASSERT_TRUE(ref->half_model);
  const double cl3 = mean_lift(wing, ref->area, 10, 3);

  const std::string section =
      "schema_version: 1\n"
      "case: {name: naca0012_section_re200}\n"
      "physics: {reynolds: 200, mach: 0.15, angle_of_attack_deg: 5}\n"
      "geometry: {type: naca4, code: \"0012\", chord_cells: 16}\n"
      "domain: {size_chords: [6, 3], body_position_chords: [2, 1.5]}\n"
      "lattice: {stencil: D2Q9, collision: bgk, precision: fp32}\n"
      "boundaries: {inlet: velocity, outlet: pressure, lateral: slip, wall: interpolated}\n"
      "time: {convective_times: 10}\n"
      "output: {every: 0}\n";
  SolverSetup sec(write_temp_case("naca0012_section_re200", section));
  const double cl2 = mean_lift(sec, sec.u.length_cells, 10, 3);
  const double A = 4, lifting_line = A / (A + 2);
  const double ratio = cl3 / cl2;
  std::printf("finite wing A=4, Re=200, 5 deg, 16 cells/chord: C_L = %.4f, section C_L = %.4f, ratio %.3f "
              "(lifting line %.3f, %+.1f %%)\n", cl3, cl2, ratio, lifting_line, 100 * (ratio / lifting_line - 1));
  EXPECT_GT(cl2, 0.1);
  EXPECT_LT(ratio, 1.0);
  EXPECT_NEAR(ratio, lifting_line, 0.15 * lifting_line);

  // Tip vortex: half a chord behind the trailing edge, the largest Q in the y-z plane sits near the tip
  // (half span 2 chords) and rotates the right way for a wing lifting in +y with its tip towards +z: air flows
  // round the tip from the lower surface to the upper, so the streamwise vorticity there is negative.
  std::vector<float> rho, u;
  wing.backend->macroscopic(rho, u);
  FrameRequest req = FrameRequest::from_names({"q_criterion", "vorticity"});
  const Frame f = build_frame(wing.d, rho.data(), u.data(), wing.u.u_lattice, wing.u.dx, req);
  const double L = wing.u.length_cells;
  const auto& D = wing.d;
  const std::int64_t x = std::int64_t(wing.c.body_position_chords[0] * L + 1.25 * L);
  double qmax = 0, z_at = -1, wx_at = 0, q_mid = 0;
  for (std::int64_t z = 0; z < D.nz; ++z)
    for (std::int64_t y = 0; y < D.ny; ++y) {
      const std::int64_t n = x + D.nx * (y + D.ny * z);
      const double q = f.q_criterion[std::size_t(n)];
      if (q > qmax) qmax = q, z_at = (z + 0.5) / L, wx_at = f.vorticity[3 * std::size_t(n)];
      if (std::abs((z + 0.5) / L - 1.0) < 0.5 / L) q_mid = std::max(q_mid, q);
    }
  std::printf("tip vortex 0.5 chord behind the trailing edge: Q max %.3f (U/c)^2 at z = %.2f chords (tip at 2), "
              "streamwise vorticity there %.3f U/c; Q max at mid half-span %.3f\n", qmax, z_at, wx_at, q_mid);
  EXPECT_GT(qmax, 0.0);
  EXPECT_NEAR(z_at, 2.0, 0.3);
  EXPECT_LT(wx_at, 0.0);
  EXPECT_GT(qmax, 5 * q_mid);
}

}  // namespace
}  // namespace aerolbm::testing
