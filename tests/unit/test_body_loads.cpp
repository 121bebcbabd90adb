// Moments, coefficients and spanwise loads from per-cell wall forces, and the Q-criterion output field.
#include <gtest/gtest.h>

#include <cmath>

#include "src/solver/body_loads.hpp"
#include "src/solver/frame_builder.hpp"

namespace aerolbm {
namespace {

// Three wall cells in a 4×4×4 box; cell index = x + 4 (y + 4 z).
DomainData three_wall_cells() {
  DomainData d;
  d.nx = d.ny = d.nz = 4;
  d.flags.assign(64, cell::fluid);
  d.link.assign(64, -1);
  d.wall_cells = {1 + 4 * (1 + 4 * 1), 2 + 4 * (1 + 4 * 2), 2 + 4 * (3 + 4 * 2)};
  return d;
}

TEST(BodyLoads, MomentsAreTheSumOfArmCrossForce) {
  const DomainData d = three_wall_cells();
  ForceReference ref;
  ref.length = 2;
  ref.area = 8;
  ref.moment_point = {1.0, 1.0, 1.0};
  const double u = 0.1, q = 0.5 * u * u;
  LoadIntegrator li(d, ref, u);
  // x components of all rows, then y, then z.
  const std::vector<double> f = {1, 0, 0, /*y*/ 0, 2, 0, /*z*/ 0, 0, 3};
  const BodyLoads l = li.loads(f);
  EXPECT_DOUBLE_EQ(l.force[0], 1);
  EXPECT_DOUBLE_EQ(l.force[1], 2);
  EXPECT_DOUBLE_EQ(l.force[2], 3);
  // Arms from (1,1,1) to the cell centres: (0.5,0.5,0.5), (1.5,0.5,1.5), (1.5,2.5,1.5).
  // M = a1 × (1,0,0) + a2 × (0,2,0) + a3 × (0,0,3).
  const double Mx = 0 + (0.5 * 0 - 1.5 * 2) + (2.5 * 3 - 0);
  const double My = (0.5 * 1 - 0) + (1.5 * 0 - 1.5 * 0) + (0 - 1.5 * 3);
  const double Mz = (0 - 0.5 * 1) + (1.5 * 2 - 0) + 0;
  EXPECT_DOUBLE_EQ(l.moment[0], Mx);
  EXPECT_DOUBLE_EQ(l.moment[1], My);
  EXPECT_DOUBLE_EQ(l.moment[2], Mz);
  EXPECT_DOUBLE_EQ(l.coefficients[1], 2 / (q * 8));
  const double b = 8.0 / 2.0;
  EXPECT_DOUBLE_EQ(l.moment_coefficients[0], Mx / (q * 8 * b));
  EXPECT_DOUBLE_EQ(l.moment_coefficients[2], -Mz / (q * 8 * 2)) << "nose-up pitching moment is positive";
}

TEST(BodyLoads, SpanwiseSlicesAddUpToTheTotal) {
  const DomainData d = three_wall_cells();
  ForceReference ref;
  ref.length = 2;
  ref.area = 8;
  ref.moment_point = {1.0, 1.0, 0.0};
  LoadIntegrator li(d, ref, 0.1);
  const std::vector<double> f = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const auto s = li.spanwise(f);
  ASSERT_EQ(s.size(), 2u);  // layers z = 1 and z = 2
  EXPECT_DOUBLE_EQ(s[0].position, 1.5 / 2);
  EXPECT_DOUBLE_EQ(s[1].position, 2.5 / 2);
  EXPECT_DOUBLE_EQ(s[0].force[1], 4);
  EXPECT_DOUBLE_EQ(s[1].force[1], 5 + 6);
  EXPECT_DOUBLE_EQ(s[0].force[0] + s[1].force[0], 1 + 2 + 3);
  EXPECT_DOUBLE_EQ(s[1].cl_c, 11 / (0.5 * 0.01 * 2));
  EXPECT_THROW(li.loads({1, 2}), std::invalid_argument);
}

// Q = ½(|Ω|² − |S|²): Ω² for solid-body rotation, −a² for plane strain (central differences are exact on linear
// fields).
TEST(QCriterion, RotationIsPositiveAndStrainNegative) {
  DomainData d;
  d.nx = d.ny = d.nz = 5;
  d.flags.assign(125, cell::fluid);
  d.link.assign(125, -1);
  std::vector<float> rho(125, 1.0f), rot(3 * 125), strain(3 * 125);
  const double w = 0.01, a = 0.02;
  for (int n = 0; n < 125; ++n) {
    const double x = n % 5, y = (n / 5) % 5;
    rot[3 * n] = float(-w * y), rot[3 * n + 1] = float(w * x), rot[3 * n + 2] = 0;
    strain[3 * n] = float(a * x), strain[3 * n + 1] = float(-a * y), strain[3 * n + 2] = 0;
  }
  FrameRequest req = FrameRequest::from_names({"q_criterion"});
  const double u_ref = 0.1, dx = 0.5;  // gradients in U/L: (1/u_ref) / dx per lattice unit
  const double scale = 1.0 / (u_ref * dx);
  const Frame fr = build_frame(d, rho.data(), rot.data(), u_ref, dx, req);
  const Frame fs = build_frame(d, rho.data(), strain.data(), u_ref, dx, req);
  ASSERT_EQ(fr.q_criterion.size(), 125u);
  const int centre = 2 + 5 * (2 + 5 * 2);
  EXPECT_NEAR(fr.q_criterion[centre], w * w * scale * scale, 1e-5);
  EXPECT_NEAR(fs.q_criterion[centre], -a * a * scale * scale, 1e-5);
  EXPECT_TRUE(fr.velocity.empty());
}

}  // namespace
}  // namespace aerolbm
