#pragma once
// Where each streamed population comes from: a neighbour, a periodic image, a mirrored population at a free-slip
// face, or a wall (half-way or interpolated bounce-back, the wall links of a cell read from its row of the wall
// table). Plus the open boundaries (velocity inlet, pressure outlet)
// by non-equilibrium extrapolation from the interior neighbour (Guo, Zheng & Shi 2002).
//
// `Acc` is the storage accessor of a backend: acc.get(i, n) is the post-collision population i of cell n from the
// previous step (shifted), acc.put(i, n, v) stores the new one. The physics never sees the memory layout.
#include "kernels/physics/grid_view.hpp"

namespace aerolbm {

// Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001) of population i at the near-wall cell n (row
// `row` of the wall table) whose link −c_i ends in the body. `behind_fluid`: the cell at x + c_i lies inside the grid
// and is fluid, `behind` = its post-collision population opp(i) (the second point of the q < ½ interpolation).
template <class L, class R, class Acc>
AEROLBM_HD R wall_link_value(const GridView& g, const StepConstants<R>& k, const Acc& acc, std::int64_t n,
                             std::int32_t row, bool behind_fluid, R behind, int i) {
  const int ib = opposite(i);
  const R fb = acc.get(ib, n);  // post-collision population heading into the wall
  if (!k.interpolated_walls) return fb;
  const R q = R(g.q[std::int64_t(row) * L::Q + ib]);
  if (!(q > R(0))) return fb;  // no recorded crossing: treat as half-way
  // q < ½: interpolate with the population leaving the fluid neighbour behind us.
  if (q < R(0.5)) return behind_fluid ? R(2) * q * fb + (R(1) - R(2) * q) * behind : fb;
  // q ≥ ½: interpolate with the population leaving this cell away from the wall.
  return (fb + (R(2) * q - R(1)) * acc.get(i, n)) / (R(2) * q);
}

// Where population i of cell x (index n) streams from in this step, once the faces have had their say: the
// post-collision population j of cell m — the neighbour at x − c_i, its periodic image, or the cell itself with the
// population mirrored at a free-slip face. A no-slip face (or an open face reached sideways) bounces the cell's own
// opposite population back: m = n, j = opp(i).
struct StreamSource {
  std::int64_t m;
  int j;
};

template <class L, class R>
AEROLBM_HD StreamSource stream_source(const GridView& g, const StepConstants<R>& k, const int (&x)[3],
                                      std::int64_t n, int i) {
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
      return {n, opposite(i)};
    }
  }
  return {g.index(s[0], s[1], s[2]), j};
}

// The wall table's masks of a near-wall cell n: bit i of `wall` when population i arrives through the body in a
// step (its stream source, after the faces, is a solid cell), bit i of `behind` when the cell at x + c_i lies inside
// the grid and is fluid, bit i of `force` when the neighbour at x − c_i lies inside the grid and is solid (the links
// the momentum exchange counts: a link across a face carries no force). Computed once at set-up
// (kernels/physics/wall_masks.hpp), so a step or a force sample reads one row instead of the flags of every
// neighbour one after the other.
inline constexpr int kWallMaskWords = 3;

template <class L, class R>
inline void wall_link_masks(const GridView& g, const StepConstants<R>& k, std::int64_t n, std::uint32_t& wall,
                            std::uint32_t& behind, std::uint32_t& force) {
  static_assert(L::Q <= 32, "one bit per direction");
  wall = behind = force = 0;
  const int x[3] = {int(n % g.n[0]), int((n / g.n[0]) % g.n[1]), int(n / (std::int64_t(g.n[0]) * g.n[1]))};
  auto inside = [&](const int (&y)[3]) { return y[0] >= 0 && y[0] < g.n[0] && y[1] >= 0 && y[1] < g.n[1] &&
                                                y[2] >= 0 && y[2] < g.n[2]; };
  auto type = [&](const int (&y)[3]) { return g.flags[g.index(y[0], y[1], y[2])] & cell::type_mask; };
  for (int i = 1; i < L::Q; ++i) {
    const StreamSource s = stream_source<L, R>(g, k, x, n, i);
    if ((g.flags[s.m] & cell::type_mask) == cell::solid) wall |= 1u << i;
    const int ahead[3] = {x[0] + L::c(i, 0), x[1] + L::c(i, 1), x[2] + L::c(i, 2)};
    if (inside(ahead) && type(ahead) == cell::fluid) behind |= 1u << i;
    const int back[3] = {x[0] - L::c(i, 0), x[1] - L::c(i, 1), x[2] - L::c(i, 2)};
    if (inside(back) && type(back) == cell::solid) force |= 1u << i;
  }
}

// What a cell that is not plain interior needs of the wall table: its row (−1: no wall links) and the row's two
// step masks, wall and behind (wall_link_masks). Read from the grid by the one-pass kernels and the CPU; carried in
// the list entry of a separate boundary pass (kernels/storage/boundary_list.hpp), so those cells skip the dependent
// loads.
struct BoundaryLinks {
  std::int32_t row = -1;
  std::uint32_t wall = 0, behind = 0;
};

AEROLBM_HD BoundaryLinks boundary_links(const GridView& g, std::int64_t n, std::uint8_t flag) {
  BoundaryLinks b;
  if (flag & cell::near_wall) {
    b.row = g.link[n];
    b.wall = g.wall_mask[kWallMaskWords * std::int64_t(b.row)];
    b.behind = g.wall_mask[kWallMaskWords * std::int64_t(b.row) + 1];
  }
  return b;
}

// The populations arriving at a cell that is not plain interior (at a face or next to the body), in this step:
// first every population that streams from a fluid cell, a periodic image or a face (all loads independent of
// each other), then those that come through the body, by bounce-back from the cell's own populations and, for
// q < ½, the neighbour behind, which is one of the populations just pulled.
template <class L, class R, class Acc>
AEROLBM_HD void pull_boundary(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                              std::int64_t n, const BoundaryLinks& b, R (&f)[L::Q]) {
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    if ((b.wall >> i) & 1u) {
      f[i] = R(0);  // set below
      continue;
    }
    const StreamSource s = stream_source<L, R>(g, k, x, n, i);
    f[i] = acc.get(s.j, s.m);
  }
  if (b.wall == 0) return;
  // A link with the fluid cell behind it (bit i of `behind`) has x + c_i inside the grid and not solid, so
  // population opp(i) was pulled from there above and is not a wall link: f[opp(i)] is the value Bouzidi needs.
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; ++i)
    if ((b.wall >> i) & 1u)
      f[i] = wall_link_value<L, R>(g, k, acc, n, b.row, (b.behind >> i) & 1u, f[opposite(i)], i);
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
