// Collision conserves mass and momentum, adds exactly the body force to the momentum, and relaxes toward the
// equilibrium at the rate 1/τ.
#include <gtest/gtest.h>

#include <random>

#include "kernels/physics/collision.hpp"

namespace aerolbm {
namespace {

template <class L>
void random_state(std::mt19937& rng, double (&f)[L::Q]) {
  std::uniform_real_distribution<double> d(-0.01, 0.01);
  const double u[3] = {0.04, -0.02, 0.01};
  for (int i = 0; i < L::Q; ++i) f[i] = equilibrium_shifted<L, double>(i, 0.02, 1.02, u) + d(rng) * L::w(i);
}

template <class L>
void check_conservation(bool trt, const double (&force)[3]) {
  std::mt19937 rng(7);
  double f[L::Q];
  random_state<L>(rng, f);
  const double zero[3] = {0, 0, 0};
  const auto before = moments<L, double>(f, zero);
  const auto k = make_collision_constants<double>(trt, 0.62, 3.0 / 16.0, force);
  collide<L, double>(f, k);
  const auto after = moments<L, double>(f, zero);
  EXPECT_NEAR(after.rho, before.rho, 1e-15) << L::name;
  for (int a = 0; a < L::D; ++a) {
    // Momentum after = momentum before + F (Guo forcing, both BGK and TRT).
    EXPECT_NEAR(after.rho * after.u[a], before.rho * before.u[a] + force[a], 1e-15) << L::name << " axis " << a;
  }
}

TEST(Collision, ConservesMassAndMomentum) {
  const double none[3] = {0, 0, 0}, push[3] = {1e-4, -2e-5, 3e-5};
  for (bool trt : {false, true}) {
    check_conservation<D2Q9>(trt, none);
    check_conservation<D3Q19>(trt, none);
    check_conservation<D3Q27>(trt, none);
    check_conservation<D2Q9>(trt, push);
    check_conservation<D3Q19>(trt, push);
  }
}

TEST(Collision, BgkRelaxesTheNonEquilibriumByOneMinusOmega) {
  std::mt19937 rng(3);
  double f[D2Q9::Q];
  random_state<D2Q9>(rng, f);
  const double zero[3] = {0, 0, 0};
  const auto m = moments<D2Q9, double>(f, zero);
  double neq[D2Q9::Q];
  for (int i = 0; i < D2Q9::Q; ++i) neq[i] = f[i] - equilibrium_shifted<D2Q9, double>(i, m.rho_s, m.rho, m.u);
  const double tau = 0.8;
  const auto k = make_collision_constants<double>(false, tau, 0.25, zero);
  collide<D2Q9, double>(f, k);
  for (int i = 0; i < D2Q9::Q; ++i) {
    const double after = f[i] - equilibrium_shifted<D2Q9, double>(i, m.rho_s, m.rho, m.u);
    EXPECT_NEAR(after, (1 - 1 / tau) * neq[i], 1e-15);
  }
}

TEST(Collision, TrtWithEqualRatesIsBgk) {
  // Λ = (τ − ½)² gives ω− = ω+: TRT must then be BGK exactly.
  std::mt19937 rng(11);
  double a[D3Q19::Q], b[D3Q19::Q];
  random_state<D3Q19>(rng, a);
  for (int i = 0; i < D3Q19::Q; ++i) b[i] = a[i];
  const double tau = 0.7, zero[3] = {0, 0, 0};
  collide<D3Q19, double>(a, make_collision_constants<double>(false, tau, 0.25, zero));
  collide<D3Q19, double>(b, make_collision_constants<double>(true, tau, (tau - 0.5) * (tau - 0.5), zero));
  for (int i = 0; i < D3Q19::Q; ++i) EXPECT_NEAR(a[i], b[i], 1e-15);
}

// TRT's magic parameter near τ = ½ with an inflow (stable_trt_magic): capped at ½ (τ − ½)²/u_max², above BGK's
// (τ − ½)²; the case's Λ away from τ = ½ and without an inflow.
TEST(Collision, TrtMagicCappedNearHalfWithAnInflow) {
  const double tau = 0.516628, u = 0.0866025;  // the default case
  const double capped = stable_trt_magic(3.0 / 16.0, tau, u);
  EXPECT_NEAR(capped, 0.5 * (tau - 0.5) * (tau - 0.5) / (u * u), 1e-15);
  EXPECT_NEAR(capped, 0.01843, 1e-5);
  EXPECT_GT(capped, (tau - 0.5) * (tau - 0.5)) << "still TRT, not BGK";
  EXPECT_EQ(stable_trt_magic(3.0 / 16.0, 0.6, u), 3.0 / 16.0);
  EXPECT_EQ(stable_trt_magic(0.01, tau, u), 0.01) << "a smaller Λ is kept";
  EXPECT_EQ(stable_trt_magic(3.0 / 16.0, tau, 0.0), 3.0 / 16.0) << "no inflow: no cap";
}

}  // namespace
}  // namespace aerolbm
