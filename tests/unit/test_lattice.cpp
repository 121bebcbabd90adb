// Velocity sets and the equilibrium: the moment identities the lattice-Boltzmann method rests on.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/physics/equilibrium.hpp"

namespace aerolbm {
namespace {

template <class L>
void check_isotropy() {
  double w0 = 0, w1[3] = {0, 0, 0}, w2[3][3] = {}, w3 = 0;
  for (int i = 0; i < L::Q; ++i) {
    const double w = L::w(i);
    w0 += w;
    for (int a = 0; a < 3; ++a) {
      w1[a] += w * L::c(i, a);
      for (int b = 0; b < 3; ++b) w2[a][b] += w * L::c(i, a) * L::c(i, b);
    }
    w3 += w * L::c(i, 0) * L::c(i, 0) * L::c(i, 1);  // an odd third moment
  }
  EXPECT_NEAR(w0, 1.0, 1e-15) << L::name;
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(w1[a], 0.0, 1e-15) << L::name;
    for (int b = 0; b < 3; ++b) {
      const double want = (a == b && a < L::D) ? cs2 : 0.0;
      EXPECT_NEAR(w2[a][b], want, 1e-15) << L::name << " " << a << b;
    }
  }
  EXPECT_NEAR(w3, 0.0, 1e-15) << L::name;
  // Fourth-order isotropy: Σ w c_x⁴ = 3 cs⁴, Σ w c_x² c_y² = cs⁴ (what makes the viscous stress isotropic).
  double xxxx = 0, xxyy = 0;
  for (int i = 0; i < L::Q; ++i) {
    xxxx += L::w(i) * std::pow(L::c(i, 0), 4);
    xxyy += L::w(i) * L::c(i, 0) * L::c(i, 0) * L::c(i, 1) * L::c(i, 1);
  }
  EXPECT_NEAR(xxxx, 3 * cs2 * cs2, 1e-15) << L::name;
  EXPECT_NEAR(xxyy, cs2 * cs2, 1e-15) << L::name;
}

TEST(Lattice, WeightsAndMomentsAreIsotropic) {
  check_isotropy<D2Q9>();
  check_isotropy<D3Q19>();
  check_isotropy<D3Q27>();
}

template <class L>
void check_pairs() {
  EXPECT_EQ(opposite(0), 0);
  for (int i = 0; i < L::Q; ++i) {
    const int o = opposite(i);
    for (int a = 0; a < 3; ++a) EXPECT_EQ(L::c(o, a), -L::c(i, a)) << L::name << " i=" << i;
    EXPECT_EQ(L::w(o), L::w(i));
    for (int axis = 0; axis < L::D; ++axis) {
      const int m = mirror<L>(i, axis);
      for (int a = 0; a < 3; ++a) EXPECT_EQ(L::c(m, a), a == axis ? -L::c(i, a) : L::c(i, a));
    }
  }
  // Every direction appears once.
  for (int i = 0; i < L::Q; ++i)
    for (int j = i + 1; j < L::Q; ++j) {
      const bool same = L::c(i, 0) == L::c(j, 0) && L::c(i, 1) == L::c(j, 1) && L::c(i, 2) == L::c(j, 2);
      EXPECT_FALSE(same) << L::name << " " << i << " " << j;
    }
}

TEST(Lattice, OppositeAndMirrorDirections) {
  check_pairs<D2Q9>();
  check_pairs<D3Q19>();
  check_pairs<D3Q27>();
}

template <class L>
void check_equilibrium_moments() {
  const double rho = 1.03, u[3] = {0.05, -0.03, L::D == 3 ? 0.02 : 0.0};
  double m0 = 0, m1[3] = {0, 0, 0}, m2[3][3] = {};
  for (int i = 0; i < L::Q; ++i) {
    const double f = equilibrium_shifted<L, double>(i, rho - 1.0, rho, u) + L::w(i);  // unshifted
    m0 += f;
    for (int a = 0; a < 3; ++a) {
      m1[a] += f * L::c(i, a);
      for (int b = 0; b < 3; ++b) m2[a][b] += f * L::c(i, a) * L::c(i, b);
    }
  }
  EXPECT_NEAR(m0, rho, 1e-14) << L::name;
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(m1[a], rho * u[a], 1e-14) << L::name;
    for (int b = 0; b < 3; ++b) {
      if (a >= L::D || b >= L::D) continue;
      const double want = rho * u[a] * u[b] + (a == b ? rho * cs2 : 0.0);
      EXPECT_NEAR(m2[a][b], want, 1e-14) << L::name << " " << a << b;
    }
  }
  // And the moments function recovers ρ and u from them.
  double f[L::Q];
  for (int i = 0; i < L::Q; ++i) f[i] = equilibrium_shifted<L, double>(i, rho - 1.0, rho, u);
  const double zero[3] = {0, 0, 0};
  const auto m = moments<L, double>(f, zero);
  EXPECT_NEAR(m.rho, rho, 1e-14);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.u[a], u[a], 1e-14);
}

TEST(Equilibrium, ReproducesDensityMomentumAndMomentumFlux) {
  check_equilibrium_moments<D2Q9>();
  check_equilibrium_moments<D3Q19>();
  check_equilibrium_moments<D3Q27>();
}

TEST(Equilibrium, ShiftedRestStateIsZero) {
  const double u[3] = {0, 0, 0};
  for (int i = 0; i < D2Q9::Q; ++i) EXPECT_EQ((equilibrium_shifted<D2Q9, double>(i, 0.0, 1.0, u)), 0.0);
}

}  // namespace
}  // namespace aerolbm
