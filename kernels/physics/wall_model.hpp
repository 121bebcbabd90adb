#pragma once
// Wall model, the near-wall cell's part: where the first cell lies far outside the viscous sublayer (y⁺ of tens to
// hundreds at aircraft Reynolds numbers), the no-slip wall's resolved gradient U/y with the molecular viscosity
// gives a wall shear stress far below the real one, ρ u_τ². The wall-function eddy viscosity raises the near-wall
// cell's viscosity so that the resolved stress is the one the law of the wall gives (the approach of
// OpenFOAM's nutUSpaldingWallFunction, here per near-wall cell):
//   u_τ = friction_velocity(U_t, y, ν) (Spalding's law, wall_function.hpp),   (ν + ν_t) U_t / y = u_τ²,
//   so ν_t = u_τ² y / U_t − ν = ν (y⁺/u⁺ − 1) ≥ 0,
// with U_t the cell's velocity tangential to the wall and y its distance from the wall. In the viscous sublayer
// u⁺ = y⁺ and ν_t vanishes: a resolved wall is left as it is.
//
// The wall's normal and distance come from the cell's wall links (the wall table's masks and link fractions q,
// wall_masks.hpp): the links that cross into the body, c_j with q_j its fraction to the wall, give the normal into
// the wall n ∝ Σ w_j c_j / q_j and the distance y = Σ w_j q_j (c_j·n) / Σ w_j. For a plane wall q_j = y/(c_j·n), so
// the normal's sum is Σ w_j c_j (c_j·n) / y, and over every link with c_j·n > 0 that is c_s² n / (2y): exact where
// all of them reach the wall within one link, and short only of the shallow links' small terms where some do not;
// each link alone gives the exact distance, q_j c_j·n = y. A link with no recorded crossing (q ≤ 0, half-way walls)
// counts at ½.
//
// This header is the model's arithmetic; cell_update.hpp (wall_function_constants) applies it in the near-wall
// cells of a run with `boundaries.wall: wall_model`.
#include <cmath>
#include <cstdint>

#include "kernels/lattice/lattice.hpp"
#include "kernels/physics/hd.hpp"
#include "kernels/physics/wall_function.hpp"

namespace aerolbm {

template <class R>
struct WallGeometry {
  R n[3];  // unit normal from the cell into the wall (0 where the cell has no wall links)
  R y;     // distance of the cell's centre from the wall, lattice units (0: no wall links)
};

// The wall geometry of a near-wall cell from `into_wall` (bit j: link j, along c_j, crosses into the body) and its
// link fractions q[j] (the wall table's row).
template <class L, class R>
AEROLBM_HD WallGeometry<R> wall_geometry(std::uint32_t into_wall, const float* q) {
  WallGeometry<R> w{{R(0), R(0), R(0)}, R(0)};
  R s[3] = {R(0), R(0), R(0)};
  AEROLBM_UNROLL
  for (int j = 1; j < L::Q; ++j) {
    if (!((into_wall >> j) & 1u)) continue;
    const R qj = q[j] > 0.0f ? R(q[j]) : R(0.5);
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) s[a] += R(L::w(j)) * R(L::c(j, a)) / qj;
  }
  const R len = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  if (!(len > R(0))) return w;
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) w.n[a] = s[a] / len;
  R num = R(0), den = R(0);
  AEROLBM_UNROLL
  for (int j = 1; j < L::Q; ++j) {
    if (!((into_wall >> j) & 1u)) continue;
    const R qj = q[j] > 0.0f ? R(q[j]) : R(0.5);
    const R cn = R(L::c(j, 0)) * w.n[0] + R(L::c(j, 1)) * w.n[1] + R(L::c(j, 2)) * w.n[2];
    num += R(L::w(j)) * qj * cn;
    den += R(L::w(j));
  }
  w.y = num / den;
  return w;
}

// The wall-function eddy viscosity of the header comment for the cell velocity u at wall geometry `w`, molecular
// viscosity nu; 0 without wall links or tangential velocity.
template <class R>
AEROLBM_HD R wall_model_eddy_viscosity(const WallGeometry<R>& w, const R (&u)[3], R nu) {
  if (!(w.y > R(0))) return R(0);
  const R un = u[0] * w.n[0] + u[1] * w.n[1] + u[2] * w.n[2];
  R ut[3];
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) ut[a] = u[a] - un * w.n[a];
  const R speed = std::sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]);
  if (!(speed > R(0))) return R(0);
  const R u_tau = friction_velocity<R>(speed, w.y, nu);
  const R nu_t = u_tau * u_tau * w.y / speed - nu;
  return nu_t > R(0) ? nu_t : R(0);
}

}  // namespace aerolbm
