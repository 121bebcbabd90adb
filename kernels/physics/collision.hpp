#pragma once
// BGK, TRT and entropic (KBC) collision with Guo's body-force term, on one cell's shifted populations (in place).
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
  // WALE (kernels/physics/les_wale.hpp): its constant C_w, 0 when off. Read by the update functions compiled
  // with their WALE path, which hand collide constants with the cell's relaxation times (with_eddy_viscosity).
  R wale;
  R magic;
  bool trt;
  bool entropic;  // KBC (collide_entropic): the shear relaxes with ω+, the rest at a rate chosen per cell
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
                                                      double smagorinsky = 0, bool entropic = false,
                                                      double wale = 0) {
  CollisionConstants<R> k{};
  k.wale = R(wale);
  k.les_c = R(18.0 * 1.4142135623730951 * smagorinsky * smagorinsky);
  k.tau0 = R(tau);
  k.magic = R(magic);
  k.trt = trt && !entropic;
  k.entropic = entropic;
  const double wp = 1.0 / tau;
  const double wm = k.trt ? 1.0 / (magic / (tau - 0.5) + 0.5) : wp;
  k.omega_plus = R(wp);
  k.omega_minus = R(wm);
  k.has_force = false;
  for (int a = 0; a < 3; ++a) {
    k.force[a] = R(force[a]);
    if (force[a] != 0.0) k.has_force = true;
  }
  return k;
}

// The relaxation time with Smagorinsky's eddy viscosity, from the non-equilibrium momentum flux Π (xx, yy, zz,
// xy, xz, yz) of the cell (header comment).
template <class R>
AEROLBM_HD R smagorinsky_tau(const CollisionConstants<R>& k, const R (&pi)[6], R rho) {
  using std::sqrt;  // float overloads on the host, as on the device
  const R pp = pi[0] * pi[0] + pi[1] * pi[1] + pi[2] * pi[2] + R(2) * (pi[3] * pi[3] + pi[4] * pi[4] + pi[5] * pi[5]);
  return R(0.5) * (k.tau0 + sqrt(k.tau0 * k.tau0 + k.les_c * sqrt(pp) / rho));
}

// Guo's source term S_i = w_i (3 c·F − 3 u·F + 9 (c·u)(c·F)) of population i.
template <class L, class R>
AEROLBM_HD R guo_source(int i, const R (&u)[3], const R (&F)[3], R uF) {
  R cu = 0, cF = 0;
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) {
    if (L::c(i, a) != 0) {
      cu += R(L::c(i, a)) * u[a];
      cF += R(L::c(i, a)) * F[a];
    }
  }
  return R(L::w(i)) * (R(3) * cF - R(3) * uF + R(9) * cu * cF);
}

// Entropic multi-relaxation collision (KBC: Karlin, Bösch & Chikatamarla, Phys. Rev. E 90, 031302, 2014; Bösch,
// Chikatamarla & Karlin, Phys. Rev. E 92, 043309, 2015). The non-equilibrium part f_neq = f − f_eq splits into its
// shear part Δs, the traceless second moment P = dev Σ c c f_neq put back on the populations through the
// second-order Hermite polynomial (Δs_i = 4.5 w_i c_i·P·c_i: the moments of Δs are P and nothing of lower order),
// and the rest Δh = f_neq − Δs (the trace of the stress, the third and higher moments: the modes BGK leaves
// undamped as τ → ½). The shear relaxes at ω = 1/τ as in BGK, which sets the viscosity; the rest relaxes at β γ,
// with β = ω/2 and γ chosen in every cell so that the post-collision state has the least entropy production that
// the H-theorem allows (to first order):
//   f ← f − β (2 Δs + γ Δh),   γ = 1/β − (2 − 1/β) ⟨Δs|Δh⟩ / ⟨Δh|Δh⟩,   ⟨X|Y⟩ = Σ_i X_i Y_i / f_eq,i
// (1/f_eq,i taken to second order in u, below)
// (γ = 2 is BGK; ⟨Δh|Δh⟩ = 0: BGK). The per-cell γ is what keeps it stable at τ − ½ ~ 10⁻⁵: with γ = 1/β (the rest
// relaxed to equilibrium outright) a periodic double shear layer diverges as early as with BGK
// (docs/numerics.md). Guo's source enters as in BGK, with the factor 1 − ω/2; with Smagorinsky ω follows the
// eddy viscosity from |Π| as in BGK.
template <class L, class R>
AEROLBM_HD Moments<L, R> collide_entropic(R (&f)[L::Q], const CollisionConstants<R>& k) {
  // Written for the arithmetic to hide behind memory (it runs at the bandwidth of the populations it moves): Π
  // from the raw second moments, not from f − f_eq; f_eq evaluated twice per population (the sums, the update)
  // rather than kept (19 or 27 more registers); products and sums as explicit fused multiply-adds. fma rounds
  // once, the same on every IEEE machine, so the CPU and the GPU still compute the same numbers (the rest of the
  // physics is built without contraction, -fmad=false / -ffp-contract=off, for the same reason).
  using std::fma;
  const R half[3] = {R(0.5) * k.force[0], R(0.5) * k.force[1], R(0.5) * k.force[2]};
  const Moments<L, R> m = moments<L, R>(f, half);
  // Π = Σ c c f̃ − ρ u u − (ρ − 1) I/3 (f̃ = f − w, and the equilibrium's flux ρ u u + ρ I/3; u with half the force).
  R pi[6] = {0, 0, 0, 0, 0, 0};  // xx, yy, zz, xy, xz, yz
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; ++i) {
    const int cx = L::c(i, 0), cy = L::c(i, 1), cz = L::c(i, 2);
    if (cx) pi[0] += f[i];
    if (cy) pi[1] += f[i];
    if (cz) pi[2] += f[i];
    if (cx && cy) pi[3] += R(cx * cy) * f[i];
    if (cx && cz) pi[4] += R(cx * cz) * f[i];
    if (cy && cz) pi[5] += R(cy * cz) * f[i];
  }
  const R third = R(1.0 / 3.0), rs3 = m.rho_s * third;
  const R ru[3] = {m.rho * m.u[0], m.rho * m.u[1], m.rho * m.u[2]};
  pi[0] = fma(-ru[0], m.u[0], pi[0]) - rs3;
  pi[1] = fma(-ru[1], m.u[1], pi[1]) - rs3;
  pi[3] = fma(-ru[0], m.u[1], pi[3]);
  if constexpr (L::D == 3) {
    pi[2] = fma(-ru[2], m.u[2], pi[2]) - rs3;
    pi[4] = fma(-ru[0], m.u[2], pi[4]);
    pi[5] = fma(-ru[1], m.u[2], pi[5]);
  }
  const bool les = k.les_c > R(0);
  const R tau = les ? smagorinsky_tau<R>(k, pi, m.rho) : k.tau0;
  const R omega = les ? R(1) / tau : k.omega_plus;
  const R trace = (pi[0] + pi[1] + pi[2]) * (L::D == 3 ? third : R(0.5));
  const R P[6] = {pi[0] - trace, pi[1] - trace, pi[2] - trace, pi[3], pi[4], pi[5]};
  // Δs_i / (4.5 w_i) = c_i·P·c_i (P's zz is not used on a 2D lattice, where c_z = 0).
  const auto cpc = [&P](int i) {
    const int cx = L::c(i, 0), cy = L::c(i, 1), cz = L::c(i, 2);
    R v = 0;
    if (cx) v += P[0];
    if (cy) v += P[1];
    if (cz) v += P[2];
    if (cx && cy) v = fma(R(2 * cx * cy), P[3], v);
    if (cx && cz) v = fma(R(2 * cx * cz), P[4], v);
    if (cy && cz) v = fma(R(2 * cy * cz), P[5], v);
    return v;
  };
  const auto cu_of = [&m](int i) {
    R cu = 0;
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) {
      if (L::c(i, a) > 0) cu += m.u[a];
      if (L::c(i, a) < 0) cu -= m.u[a];
    }
    return cu;
  };
  const R uu = fma(m.u[0], m.u[0], fma(m.u[1], m.u[1], m.u[2] * m.u[2]));
  // Directions come in opposite pairs (i, i + 1 for odd i; kernels/lattice/lattice.hpp): c_{i+1} = −c_i, so the
  // pair shares c·u (up to its sign, exactly), Δs and the even parts of f_eq and of the weights below; the odd parts
  // change sign. Shifted equilibrium w (ρ − 1) + w ρ (3 c·u + 4.5 (c·u)² − 1.5 u²) = E ± O with
  // E = w (ρ (4.5 (c·u)² − 1.5 u²) + ρ − 1) and O = 3 w ρ c·u.
  const R eq0 = R(-1.5) * uu, rho3 = R(3) * m.rho;
  const auto even_of = [&m, eq0](int i, R cu) { return R(L::w(i)) * fma(m.rho, fma(R(4.5) * cu, cu, eq0), m.rho_s); };
  const auto odd_of = [rho3](int i, R cu) { return R(L::w(i)) * (rho3 * cu); };
  // With a body force f_neq also carries −F/2 of momentum (f_eq's velocity holds half the force): its first-order
  // Hermite part Δj_i = −1.5 w_i c_i·F (odd: Δj_{i+1} = −Δj_i exactly) relaxes with ω as in BGK, so the momentum
  // gains exactly F, and it is kept out of Δh and of γ.
  const auto dj = [&k](int i) {
    R cF = 0;
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) {
      if (L::c(i, a) > 0) cF += k.force[a];
      if (L::c(i, a) < 0) cF -= k.force[a];
    }
    return R(-1.5 * L::w(i)) * cF;
  };
  // The entropic scalar product's weights 1/f_eq,i to second order in u, less the factor 1/ρ, which cancels in γ:
  // (1 + 1.5 u² + 4.5 (c·u)² ∓ 3 c·u) / w_i, positive for every u. No division per population; the exact weights,
  // tried, kept the double shear layer of tests/unit/test_collision_entropic.cpp just as bounded.
  const R wt0 = fma(R(1.5), uu, R(1));
  // The rest population: c = 0, so Δs_0 = 0 and Δh_0 = f_neq,0.
  f[0] -= R(L::w(0)) * fma(m.rho, eq0, m.rho_s);
  R sh = 0, hh = f[0] * (f[0] * (R(1.0 / L::w(0)) * wt0));
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; i += 2) {
    const R cu = cu_of(i), e = even_of(i, cu), o = odd_of(i, cu);
    f[i] -= e + o;  // f becomes f_neq
    f[i + 1] -= e - o;
    const R ds = R(4.5 * L::w(i)) * cpc(i);
    R dh = f[i] - ds, dh_opp = f[i + 1] - ds;
    if (k.has_force) {
      const R d = dj(i);
      dh -= d;
      dh_opp += d;
    }
    const R we = fma(R(4.5) * cu, cu, wt0), wo = R(3) * cu, iw = R(1.0 / L::w(i));
    const R r = dh * (iw * (we - wo)), r_opp = dh_opp * (iw * (we + wo));
    sh = fma(ds, r + r_opp, sh);
    hh = fma(dh, r, fma(dh_opp, r_opp, hh));
  }
  // β = ω/2 and 1/β = 2τ (τ with the eddy viscosity under Smagorinsky).
  const R beta = R(0.5) * omega, inv_beta = R(2) * tau;
  const R gamma = hh > R(0) ? fma(-(R(2) - inv_beta), sh / hh, inv_beta) : R(2);
  // f = f_eq + f_neq − β (2 Δs + 2 Δj + γ Δh), Δh = f_neq − Δs − Δj:
  //   f = f_eq + (1 − βγ) f_neq − β (2 − γ) (Δs + Δj), plus (1 − ω/2) S.
  const R keep = fma(-beta, gamma, R(1)), shear = beta * (R(2) - gamma), sp = R(1) - beta;
  R uF = 0;
  if (k.has_force) {
    AEROLBM_UNROLL
    for (int a = 0; a < L::D; ++a) uF += m.u[a] * k.force[a];
  }
  f[0] = fma(keep, f[0], R(L::w(0)) * fma(m.rho, eq0, m.rho_s));
  if (k.has_force) f[0] += sp * guo_source<L, R>(0, m.u, k.force, uF);
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; i += 2) {
    const R cu = cu_of(i), e = even_of(i, cu), o = odd_of(i, cu);
    const R ds = R(4.5 * L::w(i)) * cpc(i);
    R ds_i = ds, ds_opp = ds;
    if (k.has_force) {
      const R d = dj(i);
      ds_i += d;
      ds_opp -= d;
    }
    R v = fma(keep, f[i], fma(-shear, ds_i, e + o));
    R v_opp = fma(keep, f[i + 1], fma(-shear, ds_opp, e - o));
    if (k.has_force) {
      v += sp * guo_source<L, R>(i, m.u, k.force, uF);
      v_opp += sp * guo_source<L, R>(i + 1, m.u, k.force, uF);
    }
    f[i] = v;
    f[i + 1] = v_opp;
  }
  return m;
}

// BGK and TRT (with Smagorinsky where les_c > 0).
template <class L, class R>
AEROLBM_HD Moments<L, R> collide_bgk_trt(R (&f)[L::Q], const CollisionConstants<R>& k) {
  const R half[3] = {R(0.5) * k.force[0], R(0.5) * k.force[1], R(0.5) * k.force[2]};
  const Moments<L, R> m = moments<L, R>(f, half);
  R wp = k.omega_plus, wm = k.omega_minus;
  if (k.les_c > R(0)) {
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
    const R tau = smagorinsky_tau<R>(k, pi, m.rho);
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

// The velocity set L whose cells collide entropically, as a type of its own: the CUDA backend compiles its kernels
// for EntropicCollision<L> (kernels/cuda/cuda_backend_<lattice>_kbc.cu), so that the entropic path is chosen at
// compile time. As a branch on k.entropic it sized every kernel for its registers: the D2Q9 box kernel went from
// 40 to 63 registers and the block-role kernel's spills from 36 to 184 bytes, for BGK runs as well.
template <class L>
struct EntropicCollision : L {};
template <class L>
inline constexpr bool kEntropicLattice = false;
template <class L>
inline constexpr bool kEntropicLattice<EntropicCollision<L>> = true;

// Collide pre-collision populations f (shifted) in place. Returns the moments used (pre-collision velocity).
// Entropic: compiled in for EntropicCollision<L>; the CPU backend (host code) also takes it at run time from
// k.entropic, which its vector loops fix at compile time (kernels/cpu/cpu_rows.hpp). Device code for a plain L
// has no entropic path; the CUDA backend refuses constants that ask for it (make_cuda_backend).
template <class L, class R>
AEROLBM_HD Moments<L, R> collide(R (&f)[L::Q], const CollisionConstants<R>& k) {
  if constexpr (kEntropicLattice<L>) {
    return collide_entropic<L, R>(f, k);
  } else {
#ifndef __CUDA_ARCH__
    if (k.entropic) return collide_entropic<L, R>(f, k);
#endif
    return collide_bgk_trt<L, R>(f, k);
  }
}

}  // namespace aerolbm
