// A body through the whole periodic span (a cylinder, an airfoil section in 3D): its wall links across the
// periodic seam, and physics.initial_noise, the initial velocity's pseudo-random perturbation that lets such a flow
// leave its two-dimensional state (cases/cylinder_re3900.yaml has 0.02; the tests set their own).
#include <gtest/gtest.h>

#include <cmath>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

const std::filesystem::path kCase = "cylinder_re3900.yaml";

// Largest difference of the velocity between any span plane and the first, after `steps`.
double plane_spread(SolverSetup& s, int steps) {
  s.backend->initialize();
  s.backend->run(steps);
  std::vector<float> rho, u;
  s.backend->macroscopic(rho, u);
  const std::int64_t plane = s.u.nx * s.u.ny;
  double worst = 0;
  for (std::int64_t n = plane; n < plane * s.u.nz; ++n)
    for (int a = 0; a < 3; ++a) worst = std::max(worst, double(std::abs(u[3 * n + a] - u[3 * (n % plane) + a])));
  return worst;
}

// Without a seed the flow past a span-periodic cylinder is the same in every plane, the planes at the seam
// included (their links to the body's periodic image are wall links like any other: before they were, the seam
// planes differed from the rest by 0.8 % of U after 50 steps), and the force per unit span does not depend on the
// span.
TEST(SpanPeriodic, BodyThroughTheSeamKeepsEveryPlaneTheSame) {
  const auto file = cases_dir() / kCase;
  const std::vector<std::string> quiet = {"geometry.diameter_cells=8", "physics.initial_noise=0"};
  SolverSetup s(file, quiet, "cpu", 2);
  EXPECT_EQ(plane_spread(s, 60), 0.0);
  auto wide = quiet;
  wide.push_back("domain.size_chords=[20, 16, 1.5]");  // 12 planes
  auto narrow = quiet;
  narrow.push_back("domain.size_chords=[20, 16, 0.75]");  // 6 planes
  for (auto* v : {&wide, &narrow}) v->push_back("domain.body_position_chords=[6, 8, 0.3]");
  SolverSetup a(file, wide, "cpu", 2), b(file, narrow, "cpu", 2);
  ASSERT_EQ(a.u.nz, 2 * b.u.nz);
  EXPECT_EQ(plane_spread(a, 60), 0.0);
  EXPECT_EQ(plane_spread(b, 60), 0.0);
  const auto fa = a.backend->wall_force(), fb = b.backend->wall_force();
  std::printf("drag force, 12 planes %.9g, 6 planes %.9g\n", fa[0], fb[0]);
  EXPECT_GT(std::abs(fa[0]), 0.0);
  EXPECT_NEAR(fa[0], 2 * fb[0], 1e-9 * std::abs(fa[0]));
  EXPECT_NEAR(fa[1], 2 * fb[1], 1e-9 * std::abs(fa[0]));
}

TEST(SpanPeriodic, InitialNoiseIsBoundedUniformAndSeedsTheSpan) {
  const auto file = cases_dir() / kCase;
  const std::vector<std::string> sets = {"geometry.diameter_cells=8", "physics.initial_noise=0.04"};
  SolverSetup s(file, sets, "cpu", 2);
  s.backend->initialize();
  std::vector<float> rho, u;
  s.backend->macroscopic(rho, u);
  const double amp = 0.04 * s.u.u_lattice;
  const std::int64_t plane = s.u.nx * s.u.ny, nz = s.u.nz;
  ASSERT_GT(nz, 4);
  double sum = 0, sum2 = 0, worst = 0;
  std::int64_t count = 0, same_as_plane0 = 0;
  for (std::int64_t n = 0; n < plane * nz; ++n) {
    if (u[3 * n] == 0.0f && u[3 * n + 1] == 0.0f && u[3 * n + 2] == 0.0f) continue;  // solid: at rest
    for (int a = 0; a < 3; ++a) {
      const double v = u[3 * n + a];
      sum += v;
      sum2 += v * v;
      worst = std::max(worst, std::abs(v));
      ++count;
    }
    if (n >= plane && u[3 * n] == u[3 * (n % plane)]) ++same_as_plane0;
  }
  const double mean = sum / count, rms = std::sqrt(sum2 / count);
  std::printf("initial noise: %lld components, mean %.3g, rms %.4g (uniform: %.4g), max %.4g of %.4g\n",
              static_cast<long long>(count), mean, rms, amp / std::sqrt(3.0), worst, amp);
  EXPECT_LE(worst, amp * (1 + 1e-6));
  EXPECT_GT(worst, 0.99 * amp);
  EXPECT_NEAR(rms, amp / std::sqrt(3.0), 0.02 * amp);
  EXPECT_LT(std::abs(mean), 0.01 * amp);
  EXPECT_LT(same_as_plane0, count / 3 / 1000);  // the span planes differ

  SolverSetup again(file, sets, "cpu", 2);
  again.backend->initialize();
  std::vector<float> rho2, u2;
  again.backend->macroscopic(rho2, u2);
  EXPECT_EQ(u, u2);  // the same field in two runs

  SolverSetup seeded(file, sets, "cpu", 2);
  EXPECT_GT(plane_spread(seeded, 60), 0.01 * s.u.u_lattice);
}

}  // namespace
}  // namespace aerolbm::testing
