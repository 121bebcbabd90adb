#pragma once
// BGK and TRT collision with Guo's body-force term, on one cell's shifted populations (in place).
// TRT relaxes the symmetric part of each opposite pair with ω+ = 1/τ (sets the viscosity) and the antisymmetric
// part with ω− chosen from the magic parameter Λ = (1/ω+ − ½)(1/ω− − ½); Λ = 3/16 puts a half-way bounce-back wall
// exactly half-way for Poiseuille flow, whatever τ.
//
// Smagorinsky LES (les_c > 0): the eddy viscosity ν_t = (C_s Δ)² |S| is added through a local relaxation time.
// The strain rate comes from the non-equilibrium momentum flux Π = Σ c c (f − f_eq) of the cell itself,
// S = −3Π/(2ρτ), so τ_eff solves τ² − τ₀τ − 9√2 C_s² |Π|/(2ρ) = 0:
//   τ_eff = ½ (τ₀ + √(τ₀² + 18√2 C_s² |Π|/ρ)),   |Π| = √(Π:Π), Δ = 1 cell.
// With TRT, ω− follows τ_eff through the same magic parameter Λ. With les_c = 0 the code path is the plain one.
#include <cmath>

#include "kernels/physics/equilibrium.hpp"

namespace aerolbm {

template <class R>
struct CollisionConstants {
  R omega_plus;   // 1/τ
  R omega_minus;  // from Λ (equal to omega_plus for BGK)
  R force[3];     // body force density (lattice units)
  bool has_force;
  // Smagorinsky: les_c = 18√2 C_s² (0: off), tau0 = molecular τ, magic = Λ (TRT) — used only when les_c > 0.
  R les_c;
  R tau0;
  R magic;
  bool trt;
};

// TRT's magic parameter as a run uses it: the case's Λ, lowered where a velocity inlet would make it unstable. With
// Λ fixed, τ− − ½ = Λ/(τ − ½) grows without bound as τ → ½ (Λ = 3/16 at the default case's τ = 0.5166: τ− = 11.8,
// ω− = 0.085), and the antisymmetric modes are then barely damped. The bulk stays stable (von Neumann), but a
// boundary that sets the populations streaming in against the flow (u·n < 0: the inlet) is not: a mode that flips
// sign every step grows by ~3 % per step in the first colliding layer beside it, whatever sets those populations
// (non-equilibrium extrapolation, plain equilibrium, the far-field face, velocity bounce-back all do), while BGK
// damps it. A linear stability analysis of an inlet (scripts/trt_inlet_stability.py, D2Q9) puts the boundary at Λ u²
// / (τ − ½)² ≈ 0.8–1.2 for τ = 0.51–0.525 and Mach 0.09–0.15 (u the inflow speed); runs agree (the default case with
// TRT diverged near step 1000 at Λ = 3/16, near 2400 at 0.05, and runs to the end at 0.02). So Λ is capped at half
// that boundary, Λ ≤ ½ (τ − ½)² / u_max², which still lies above BGK's (τ − ½)² (u_max ≤ 0.4); away from τ = ½ the
// cap does not bind (Λ = 3/16 at Mach 0.15 from τ ≈ 0.553). No inflow (u_max = 0): the case's Λ.
inline constexpr double kTrtInflowMargin = 0.5;

inline double stable_trt_magic(double magic, double tau, double u_max) {
  if (!(u_max > 0.0)) return magic;
  const double cap = kTrtInflowMargin * (tau - 0.5) * (tau - 0.5) / (u_max * u_max);
  return magic < cap ? magic : cap;
}

template <class R>
inline CollisionConstants<R> make_collision_constants(bool trt, double tau, double magic, const double (&force)[3],
                                                      double smagorinsky = 0) {
  CollisionConstants<R> k{};
  k.les_c = R(18.0 * 1.4142135623730951 * smagorinsky * smagorinsky);
  k.tau0 = R(tau);
  k.magic = R(magic);
  k.trt = trt;
  const double wp = 1.0 / tau;
  const double wm = trt ? 1.0 / (magic / (tau - 0.5) + 0.5) : wp;
  k.omega_plus = R(wp);
  k.omega_minus = R(wm);
  k.has_force = false;
  for (int a = 0; a < 3; ++a) {
    k.force[a] = R(force[a]);
    if (force[a] != 0.0) k.has_force = true;
  }
  return k;
}

// Collide pre-collision populations f (shifted) in place. Returns the moments used (pre-collision velocity).
template <class L, class R>
AEROLBM_HD Moments<L, R> collide(R (&f)[L::Q], const CollisionConstants<R>& k) {
  const R half[3] = {R(0.5) * k.force[0], R(0.5) * k.force[1], R(0.5) * k.force[2]};
  const Moments<L, R> m = moments<L, R>(f, half);
  R wp = k.omega_plus, wm = k.omega_minus;
  if (k.les_c > R(0)) {
    using std::sqrt;  // float overloads on the host, as on the device
    // Π = Σ c_a c_b (f − f_eq), shifted populations (the shift cancels in the difference).
    R pi[6] = {0, 0, 0, 0, 0, 0};  // xx, yy, zz, xy, xz, yz
    AEROLBM_UNROLL
    for (int i = 1; i < L::Q; ++i) {
      const R neq = f[i] - equilibrium_shifted<L, R>(i, m.rho_s, m.rho, m.u);
      const R cx = R(L::c(i, 0)), cy = R(L::c(i, 1)), cz = R(L::c(i, 2));
      pi[0] += cx * cx * neq;
      pi[1] += cy * cy * neq;
      pi[2] += cz * cz * neq;
      pi[3] += cx * cy * neq;
      pi[4] += cx * cz * neq;
      pi[5] += cy * cz * neq;
    }
    const R pp = pi[0] * pi[0] + pi[1] * pi[1] + pi[2] * pi[2] +
                 R(2) * (pi[3] * pi[3] + pi[4] * pi[4] + pi[5] * pi[5]);
    const R tau = R(0.5) * (k.tau0 + sqrt(k.tau0 * k.tau0 + k.les_c * sqrt(pp) / m.rho));
    wp = R(1) / tau;
    wm = k.trt ? R(1) / (k.magic / (tau - R(0.5)) + R(0.5)) : wp;
  }
  const R sp = R(1) - R(0.5) * wp, sm = R(1) - R(0.5) * wm;
  R uF = 0;
  if (k.has_force) {
    // Only the lattice's own axes: a z force on a 2D lattice would otherwise leak mass.
    AEROLBM_UNROLL
    for (int a = 0; a < L::D; ++a) uF += m.u[a] * k.force[a];
  }

  // Rest population: purely symmetric.
  {
    const R feq = equilibrium_shifted<L, R>(0, m.rho_s, m.rho, m.u);
    R src = 0;
    if (k.has_force) src = R(L::w(0)) * (R(-3) * uF);
    f[0] = f[0] - wp * (f[0] - feq) + sp * src;
  }
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; i += 2) {
    const int o = i + 1;
    const R feq_i = equilibrium_shifted<L, R>(i, m.rho_s, m.rho, m.u);
    const R feq_o = equilibrium_shifted<L, R>(o, m.rho_s, m.rho, m.u);
    const R fp = R(0.5) * (f[i] + f[o]), fm = R(0.5) * (f[i] - f[o]);
    const R ep = R(0.5) * (feq_i + feq_o), em = R(0.5) * (feq_i - feq_o);
    R srcp = 0, srcm = 0;
    if (k.has_force) {
      R cu = 0, cF = 0;
      AEROLBM_UNROLL
      for (int a = 0; a < 3; ++a) {
        if (L::c(i, a) != 0) {
          cu += R(L::c(i, a)) * m.u[a];
          cF += R(L::c(i, a)) * k.force[a];
        }
      }
      const R w = R(L::w(i));
      srcp = w * (R(-3) * uF + R(9) * cu * cF);
      srcm = w * (R(3) * cF);
    }
    const R dp = -wp * (fp - ep) + sp * srcp;
    const R dm = -wm * (fm - em) + sm * srcm;
    f[i] = f[i] + dp + dm;
    f[o] = f[o] + dp - dm;
  }
  return m;
}

}  // namespace aerolbm
