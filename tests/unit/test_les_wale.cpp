// The WALE sub-grid model (kernels/physics/les_wale.hpp) against closed forms: its eddy viscosity for velocity
// gradients whose invariants are known by hand, and the velocity gradient of a linear field (exact for central and
// one-sided differences alike, so at the faces too), with a solid neighbour counting as the wall at rest.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/lattice/lattice.hpp"
#include "kernels/physics/cell_update.hpp"

namespace aerolbm {
namespace {

using Grad = double[3][3];

// Pure shear (u = (γ y, 0, 0)): g·g = 0, so S^d = 0 and the eddy viscosity vanishes, where Smagorinsky's would be
// (C_s Δ)² γ. This is what lets WALE leave walls and laminar shear layers alone.
TEST(Wale, PureShearHasNoEddyViscosity) {
  const Grad g = {{0, 0.01, 0}, {0, 0, 0}, {0, 0, 0}};
  EXPECT_EQ(wale_eddy_viscosity<double>(0.5, g), 0.0);
  const Grad g3 = {{0, 0.01, -0.02}, {0, 0, 0.005}, {0, 0, 0}};  // strictly upper triangular: g·g·g = 0, g·g ≠ 0
  EXPECT_GT(wale_eddy_viscosity<double>(0.5, g3), 0.0);
}

// Solid-body rotation (u = ω (−y, x, 0)): S = 0, g·g = −ω² diag(1, 1, 0), S^d = −ω² diag(⅓, ⅓, −⅔),
// S^d:S^d = ⅔ ω⁴, so ν_t = C_w² (⅔ ω⁴)^{3/2} / (⅔ ω⁴)^{5/4} = C_w² (⅔)^{1/4} |ω| (Δ = 1).
TEST(Wale, SolidRotationMatchesTheClosedForm) {
  const double w = 0.02, cw = 0.5;
  const Grad g = {{0, -w, 0}, {w, 0, 0}, {0, 0, 0}};
  EXPECT_NEAR(wale_eddy_viscosity<double>(cw, g), cw * cw * std::pow(2.0 / 3.0, 0.25) * w, 1e-15);
}

// Plane strain (u = a (x, −y, 0)): S:S = 2a², S^d:S^d = ⅔ a⁴.
TEST(Wale, PlaneStrainMatchesTheClosedForm) {
  const double a = 0.01, cw = 0.4;
  const Grad g = {{a, 0, 0}, {0, -a, 0}, {0, 0, 0}};
  const double sd = 2.0 / 3.0 * a * a * a * a, ss = 2 * a * a;
  EXPECT_NEAR(wale_eddy_viscosity<double>(cw, g), cw * cw * std::pow(sd, 1.5) / (std::pow(ss, 2.5) + std::pow(sd, 1.25)),
              1e-18);
}

// With ν_t > 0 the relaxation time is τ₀ + 3 ν_t (TRT: ω− through Λ); with ν_t = 0 the constants are untouched.
TEST(Wale, EddyViscosityRaisesTheRelaxationTime) {
  const double force[3] = {0, 0, 0};
  const CollisionConstants<double> k = make_collision_constants<double>(true, 0.51, 0.1875, force, 0, false, 0.5);
  const CollisionConstants<double> same = with_eddy_viscosity<double>(k, 0.0);
  EXPECT_EQ(same.omega_plus, k.omega_plus);
  EXPECT_EQ(same.omega_minus, k.omega_minus);
  const CollisionConstants<double> up = with_eddy_viscosity<double>(k, 0.01);
  EXPECT_DOUBLE_EQ(1.0 / up.omega_plus, 0.51 + 0.03);
  EXPECT_NEAR(1.0 / up.omega_minus, 0.1875 / 0.04 + 0.5, 1e-12);
}

// A linear velocity field u_i = A_ij x_j on a 6 × 5 × 4 grid that is periodic in none of its axes: every cell,
// corners included, sees ∇u = A (central inside, one-sided at the faces). A solid cell in the middle counts with
// velocity 0, so its neighbour along x sees the difference to the wall.
TEST(Wale, VelocityGradientOfALinearFieldIsExact) {
  const double A[3][3] = {{0.01, -0.02, 0.003}, {0.004, 0.005, -0.006}, {-0.007, 0.008, 0.009}};
  GridView g{};
  g.n[0] = 6;
  g.n[1] = 5;
  g.n[2] = 4;
  g.cells = 6 * 5 * 4;
  g.periodic = 0;
  std::vector<float> u(std::size_t(3 * g.cells));
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 6; ++x)
        for (int i = 0; i < 3; ++i) u[i * g.cells + g.index(x, y, z)] = float(A[i][0] * x + A[i][1] * y + A[i][2] * z);
  g.velocity = u.data();
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 6; ++x) {
        double grad[3][3];
        velocity_gradient<D3Q19, double>(g, x, y, z, grad);
        for (int i = 0; i < 3; ++i)
          for (int a = 0; a < 3; ++a) EXPECT_NEAR(grad[i][a], A[i][a], 1e-6) << x << " " << y << " " << z;
      }
  // Cell (2, 2, 2) solid: the velocity field holds 0 there (store_cell_velocity), and (3, 2, 2) differentiates
  // across it: ∂u/∂x = (u(4) − 0) / 2.
  for (int i = 0; i < 3; ++i) u[i * g.cells + g.index(2, 2, 2)] = 0.0f;
  double grad[3][3];
  velocity_gradient<D3Q19, double>(g, 3, 2, 2, grad);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(grad[i][0], 0.5 * double(u[i * g.cells + g.index(4, 2, 2)]), 1e-9);
  // A 2D lattice differentiates along x and y only.
  velocity_gradient<D2Q9, double>(g, 1, 1, 1, grad);
  EXPECT_NEAR(grad[0][1], A[0][1], 1e-6);
  EXPECT_EQ(grad[0][2], 0.0);
  EXPECT_EQ(grad[2][0], 0.0);
}

}  // namespace
}  // namespace aerolbm
