#pragma once
// WALE sub-grid model (wall-adapting local eddy viscosity; Nicoud & Ducros, Flow Turbul. Combust. 62, 183, 1999):
//   ν_t = (C_w Δ)² (S^d:S^d)^{3/2} / ((S:S)^{5/2} + (S^d:S^d)^{5/4}),
//   g = ∇u (g_ij = ∂u_i/∂x_j),  S = ½ (g + gᵀ),  S^d = ½ (g² + g²ᵀ) − ⅓ tr(g²) I,  Δ = 1 cell.
// S^d vanishes in pure shear (g² = 0), so ν_t does too: at a wall, and in a laminar boundary layer or channel,
// where Smagorinsky's (C_s Δ)² |S| damps the flow it should leave alone. ν_t raises the cell's relaxation time,
// τ = τ₀ + 3 ν_t, in BGK, TRT (ω− follows through Λ) and the entropic collision (its shear rate).
//
// The gradient needs the velocity of the neighbours, which a pull step does not have: every cell's velocity of the
// state, Σ c_i f_i / ρ of the stored populations (store_cell_velocity, cell_update.hpp), in a field beside the lattice,
// which the step differentiates (central differences; one-sided at a face that is not periodic; a solid neighbour
// counts with the wall's velocity, 0). Each step writes the field of the state it stores from the populations in
// its registers (store_velocity_of: the same numbers); after the state was set, a pass computes it from the stored
// populations. The field is a function of the state, so a restart, the CPU and the GPU see the same numbers.
// Only square roots and divisions (correctly rounded on both backends), no pow, so the two agree to the bit.
#include "kernels/physics/grid_view.hpp"

namespace aerolbm {

// ∇u at cell x from the velocity field g.velocity: grad[i][a] = ∂u_i/∂x_a (the lattice's axes; the rest 0).
template <class L, class R>
AEROLBM_HD void velocity_gradient(const GridView& g, int x0, int x1, int x2, R (&grad)[3][3]) {
  const int x[3] = {x0, x1, x2};
  const std::int64_t n = g.index(x0, x1, x2);
  AEROLBM_UNROLL
  for (int i = 0; i < 3; ++i)
    for (int a = 0; a < 3; ++a) grad[i][a] = R(0);
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    int lo[3] = {x[0], x[1], x[2]}, hi[3] = {x[0], x[1], x[2]};
    --lo[a];
    ++hi[a];
    const bool wrap = (g.periodic >> a) & 1u;
    bool has_lo = true, has_hi = true;
    if (lo[a] < 0) {
      if (wrap) lo[a] += g.n[a];
      else has_lo = false;
    }
    if (hi[a] >= g.n[a]) {
      if (wrap) hi[a] -= g.n[a];
      else has_hi = false;
    }
    const std::int64_t m = has_lo ? g.index(lo[0], lo[1], lo[2]) : n;
    const std::int64_t p = has_hi ? g.index(hi[0], hi[1], hi[2]) : n;
    const R h = has_lo && has_hi ? R(0.5) : R(1);
    AEROLBM_UNROLL
    for (int i = 0; i < L::D; ++i)
      grad[i][a] = h * (R(g.velocity[i * g.cells + p]) - R(g.velocity[i * g.cells + m]));
  }
}

// ν_t of the header comment for the gradient `gr` and the constant cw (lattice units).
template <class R>
AEROLBM_HD R wale_eddy_viscosity(R cw, const R (&gr)[3][3]) {
  using std::sqrt;
  R g2[3][3];
  AEROLBM_UNROLL
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) g2[i][j] = gr[i][0] * gr[0][j] + gr[i][1] * gr[1][j] + gr[i][2] * gr[2][j];
  const R third_trace = (g2[0][0] + g2[1][1] + g2[2][2]) / R(3);
  R sdsd = 0, ss = 0;
  AEROLBM_UNROLL
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const R sd = R(0.5) * (g2[i][j] + g2[j][i]) - (i == j ? third_trace : R(0));
      const R s = R(0.5) * (gr[i][j] + gr[j][i]);
      sdsd += sd * sd;
      ss += s * s;
    }
  }
  const R den = ss * ss * sqrt(ss) + sdsd * sqrt(sqrt(sdsd));
  if (!(den > R(0))) return R(0);
  return cw * cw * (sdsd * sqrt(sdsd)) / den;
}

// Collision constants with the cell's relaxation times for eddy viscosity nu_t: τ = τ₀ + 3 ν_t (the constants as
// they are for ν_t = 0, so a cell without eddy viscosity collides exactly as without the model).
template <class R>
AEROLBM_HD CollisionConstants<R> with_eddy_viscosity(CollisionConstants<R> k, R nu_t) {
  if (!(nu_t > R(0))) return k;
  const R tau = k.tau0 + R(3) * nu_t;
  k.tau0 = tau;  // a model applied after this one (Smagorinsky's, WALE's after the wall function's) builds on it
  k.omega_plus = R(1) / tau;
  k.omega_minus = k.trt ? R(1) / (k.magic / (tau - R(0.5)) + R(0.5)) : k.omega_plus;
  return k;
}

// The collision constants of cell x under WALE (g.velocity holds the state's velocity field).
template <class L, class R>
AEROLBM_HD CollisionConstants<R> wale_constants(const GridView& g, const CollisionConstants<R>& k, int x0, int x1,
                                                int x2) {
  R grad[3][3];
  velocity_gradient<L, R>(g, x0, x1, x2, grad);
  return with_eddy_viscosity<R>(k, wale_eddy_viscosity<R>(k.wale, grad));
}

}  // namespace aerolbm
