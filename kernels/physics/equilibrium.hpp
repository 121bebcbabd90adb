#pragma once
// Moments and the second-order equilibrium, in the shifted form the solver stores: f̃_i = f_i − w_i, so the
// stored numbers are deviations from rest (ρ=1, u=0). Density then reads ρ = 1 + Σ f̃ and keeps its precision in
// single and half storage. Every linear operation with coefficients summing to one (bounce-back, interpolation,
// non-equilibrium extrapolation) is the same in shifted and unshifted form, because w_i = w_opp(i).
#include "kernels/lattice/lattice.hpp"

namespace aerolbm {

template <class L, class R>
struct Moments {
  R rho_s;   // ρ − 1
  R rho;     // ρ
  R u[3];    // velocity (with the half-force shift when a body force acts)
};

// Moments of shifted populations. `half_force` is F/2 for the pre-collision velocity (Guo) or −F/2 when `f` holds
// post-collision values (which already carry the full force).
template <class L, class R>
AEROLBM_HD Moments<L, R> moments(const R (&f)[L::Q], const R (&half_force)[3]) {
  Moments<L, R> m;
  R rs = 0, j[3] = {0, 0, 0};
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    rs += f[i];
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) {
      if (L::c(i, a) != 0) j[a] += R(L::c(i, a)) * f[i];
    }
  }
  m.rho_s = rs;
  m.rho = R(1) + rs;
  const R inv = R(1) / m.rho;
  // Axes the lattice does not have stay at rest, whatever force is passed (a 2D lattice has no z momentum).
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) m.u[a] = a < L::D ? (j[a] + half_force[a]) * inv : R(0);
  return m;
}

// Shifted equilibrium f̃eq_i = w_i(ρ−1) + w_i ρ (3 c·u + 4.5 (c·u)² − 1.5 u²).
template <class L, class R>
AEROLBM_HD R equilibrium_shifted(int i, R rho_s, R rho, const R (&u)[3]) {
  const R w = R(L::w(i));
  R cu = 0;
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) {
    if (L::c(i, a) != 0) cu += R(L::c(i, a)) * u[a];
  }
  const R uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  return w * rho_s + w * rho * (R(3) * cu + R(4.5) * cu * cu - R(1.5) * uu);
}

}  // namespace aerolbm
