#pragma once
// Where each streamed population comes from: a neighbour, a periodic image, a mirrored population at a free-slip
// face, or a wall (half-way or interpolated bounce-back). Plus the open boundaries (velocity inlet, pressure outlet)
// by non-equilibrium extrapolation from the interior neighbour (Guo, Zheng & Shi 2002).
//
// `Acc` is the storage accessor of a backend: acc.get(i, n) is the post-collision population i of cell n from the
// previous step (shifted), acc.put(i, n, v) stores the new one. The physics never sees the memory layout.
#include "kernels/physics/grid_view.hpp"

namespace aerolbm {

// Bounce-back value for population i at cell n whose link −c_i ends in the body.
template <class L, class R, class Acc>
AEROLBM_HD_COLD R wall_value(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                        std::int64_t n, std::uint8_t flag, int i) {
  const int ib = opposite(i);
  const R fb = acc.get(ib, n);  // post-collision population heading into the wall
  if (!k.interpolated_walls || !(flag & cell::near_wall)) return fb;
  const R q = R(g.q[std::int64_t(g.link[n]) * L::Q + ib]);
  if (!(q > R(0))) return fb;  // no recorded crossing: treat as half-way
  if (q < R(0.5)) {
    // Bouzidi, q < ½: interpolate with the population leaving the fluid neighbour behind us.
    int y[3];
    bool ok = true;
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) {
      y[a] = x[a] + L::c(i, a);
      if (y[a] < 0 || y[a] >= g.n[a]) ok = false;
    }
    if (ok) {
      const std::int64_t m = g.index(y[0], y[1], y[2]);
      if ((g.flags[m] & cell::type_mask) == cell::fluid) {
        return R(2) * q * fb + (R(1) - R(2) * q) * acc.get(ib, m);
      }
    }
    return fb;
  }
  // Bouzidi, q ≥ ½: interpolate with the population leaving this cell away from the wall.
  return (fb + (R(2) * q - R(1)) * acc.get(i, n)) / (R(2) * q);
}

// The population i arriving at cell x (index n) in this step, for cells at the edge of the grid or next to the
// body (interior cells take the plain pull in update_cell).
template <class L, class R, class Acc>
AEROLBM_HD_COLD R streamed_value(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                            std::int64_t n, std::uint8_t flag, int i) {
  if (i == 0) return acc.get(0, n);
  int s[3] = {x[0] - L::c(i, 0), x[1] - L::c(i, 1), x[2] - L::c(i, 2)};
  int j = i;
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    if (s[a] >= 0 && s[a] < g.n[a]) continue;
    // Both indices compile-time constants: a run-time index into the kernel's parameters would copy them to
    // local memory.
    const auto bc = static_cast<FaceBC>(s[a] < 0 ? k.faces[2 * a] : k.faces[2 * a + 1]);
    if (bc == FaceBC::Periodic) {
      s[a] = s[a] < 0 ? s[a] + g.n[a] : s[a] - g.n[a];
    } else if (bc == FaceBC::Slip) {
      s[a] = x[a];
      j = mirror<L>(j, a);
    } else {
      return acc.get(opposite(i), n);  // no-slip face (or an open face reached sideways): bounce back
    }
  }
  const std::int64_t m = g.index(s[0], s[1], s[2]);
  // Only a near-wall cell has a link into the body (bodies keep clear of the faces, so no link wraps into one):
  // other cells at faces skip the neighbour's flag.
  if ((flag & cell::near_wall) && (g.flags[m] & cell::type_mask) == cell::solid)
    return wall_value<L, R>(g, k, acc, x, n, flag, i);
  return acc.get(j, m);
}

// Inflow velocity at a cell of the inlet face: uniform, or the parabola of a channel whose no-slip walls lie
// half a cell outside the first and last rows (Schäfer–Turek convention: the mean of the profile is u_inlet).
template <class L, class R>
AEROLBM_HD void inlet_velocity(const GridView& g, const StepConstants<R>& k, const int (&x)[3], R (&u)[3]) {
  R scale = 1;
  if (k.parabolic_inlet) {
    const R eta = (R(x[1] + g.origin[1]) + R(0.5)) / R(g.global_size(1));
    scale = R(6) * eta * (R(1) - eta);  // mean 1 over (0,1)
    if (L::D == 3) {
      const R zeta = (R(x[2] + g.origin[2]) + R(0.5)) / R(g.global_size(2));
      scale *= R(6) * zeta * (R(1) - zeta);
    }
  }
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) u[a] = scale * k.u_inlet[a];
}

// Open boundary cell (inlet on the low-x face, outlet on the high-x face): the equilibrium for the boundary values
// plus the non-equilibrium part of the interior neighbour. Inlet: prescribed velocity, density from the neighbour
// (a fixed density there would forbid the pressure drop a channel needs). Outlet: ρ = 1, velocity from the
// neighbour (lets vortices leave with little reflection).
template <class L, class R, class Acc>
AEROLBM_HD_COLD void open_boundary_cell(const GridView& g, const StepConstants<R>& k, Acc& acc, const int (&x)[3],
                                   std::int64_t n, bool inlet) {
  const int nbx = inlet ? x[0] + 1 : x[0] - 1;
  const std::int64_t m = g.index(nbx, x[1], x[2]);
  R fn[L::Q];
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) fn[i] = acc.get(i, m);
  const R minus_half[3] = {R(-0.5) * k.coll.force[0], R(-0.5) * k.coll.force[1], R(-0.5) * k.coll.force[2]};
  const Moments<L, R> mn = moments<L, R>(fn, minus_half);
  R ub[3];
  R rb_s;
  if (inlet) {
    inlet_velocity<L, R>(g, k, x, ub);
    rb_s = mn.rho_s;
  } else {
    ub[0] = mn.u[0];
    ub[1] = mn.u[1];
    ub[2] = mn.u[2];
    rb_s = 0;
  }
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    const R v = equilibrium_shifted<L, R>(i, rb_s, R(1) + rb_s, ub) + fn[i] -
                equilibrium_shifted<L, R>(i, mn.rho_s, mn.rho, mn.u);
    acc.put(i, n, v);
  }
}

}  // namespace aerolbm
