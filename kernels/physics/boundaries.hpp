#pragma once
// Where each streamed population comes from: a neighbour, a periodic image, a mirrored population at a free-slip
// face, or a wall (half-way or interpolated bounce-back, the wall links of a cell read from its row of the wall
// table), or the free stream at a far-field face. Plus the open boundaries (velocity inlet, pressure outlet)
// by non-equilibrium extrapolation from the interior neighbour (Guo, Zheng & Shi 2002), the outlet optionally by
// characteristics, and the sponge layer in front of the outlet and far-field faces.
//
// `Acc` is the storage accessor of a backend: acc.get(i, n) is the post-collision population i of cell n from the
// previous step (shifted), acc.put(i, n, v) stores the new one. The physics never sees the memory layout.
#include "kernels/physics/grid_view.hpp"

namespace aerolbm {

// Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001) of population i at a near-wall cell whose link −c_i
// ends in the body, from values already loaded: q = the wall distance of link opp(i) (≤ 0 or NaN: no recorded
// crossing, treated as half-way), fb = the cell's post-collision population opp(i) (heading into the wall), fi = its
// post-collision population i (leaving away from the wall), and, where `behind_fluid` (the cell at x + c_i lies
// inside the grid and is fluid), `behind` = that cell's post-collision population opp(i).
template <class R>
AEROLBM_HD R bouzidi_value(R q, R fb, R fi, bool behind_fluid, R behind) {
  if (!(q > R(0))) return fb;
  // q < ½: interpolate with the population leaving the fluid neighbour behind us.
  if (q < R(0.5)) return behind_fluid ? R(2) * q * fb + (R(1) - R(2) * q) * behind : fb;
  // q ≥ ½: interpolate with the population leaving this cell away from the wall.
  return (fb + (R(2) * q - R(1)) * fi) / (R(2) * q);
}

// The bounced-back population i of the near-wall cell n (row `row` of the wall table): half-way, or interpolated.
template <class L, class R, class Acc>
AEROLBM_HD R wall_link_value(const GridView& g, const StepConstants<R>& k, const Acc& acc, std::int64_t n,
                             std::int32_t row, bool behind_fluid, R behind, int i) {
  const int ib = opposite(i);
  const R fb = acc.get(ib, n);
  if (!k.interpolated_walls) return fb;
  return bouzidi_value<R>(R(g.q[std::int64_t(row) * L::Q + ib]), fb, acc.get(i, n), behind_fluid, behind);
}

// Where population i of cell x (index n) streams from in this step, once the faces have had their say: the
// post-collision population j of cell m — the neighbour at x − c_i, its periodic image, or the cell itself with the
// population mirrored at a free-slip face. A no-slip face (or an open face reached sideways) bounces the cell's own
// opposite population back: m = n, j = opp(i). Across a far-field face the population is the free stream's
// equilibrium (free_stream_population): m = −1.
struct StreamSource {
  std::int64_t m;
  int j;
};

// Population i of the free stream (ρ = 1, the inflow velocity), shifted: what a far-field face lets in, and what
// the sponge relaxes toward. Its weightless part is tabulated per direction in the step constants.
template <class L, class R>
AEROLBM_HD R free_stream_population(const StepConstants<R>& k, int i) {
  return R(L::w(i)) * k.free_stream[(L::c(i, 0) + 1) + 3 * (L::c(i, 1) + 1) + 9 * (L::c(i, 2) + 1)];
}

// x lies inside the grid (0 ≤ x[a] < n[a]), so along an axis where c_i has no component the source stays inside,
// and where it has one only the face on that side can be crossed (x[a] = 0 for c > 0, x[a] = n[a] − 1 for c < 0):
// the direction decides at compile time which test and which face's rule apply (the list's face cells run this for
// every population).
template <class L, class R>
AEROLBM_HD StreamSource stream_source(const GridView& g, const StepConstants<R>& k, const int (&x)[3],
                                      std::int64_t n, int i) {
  int s[3] = {x[0] - L::c(i, 0), x[1] - L::c(i, 1), x[2] - L::c(i, 2)};
  int j = i;
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    const int c = L::c(i, a);
    if (c == 0) continue;
    if (c > 0 ? s[a] >= 0 : s[a] < g.n[a]) continue;
    // Both indices compile-time constants: a run-time index into the kernel's parameters would copy them to
    // local memory.
    const auto bc = static_cast<FaceBC>(c > 0 ? k.faces[2 * a] : k.faces[2 * a + 1]);
    if (bc == FaceBC::Periodic) {
      s[a] += c > 0 ? g.n[a] : -g.n[a];
    } else if (bc == FaceBC::Slip || bc == FaceBC::WallModel) {
      s[a] = x[a];
      j = mirror<L>(j, a);
    } else if (bc == FaceBC::FarField) {
      return {-1, i};
    } else {
      return {n, opposite(i)};
    }
  }
  return {g.index(s[0], s[1], s[2]), j};
}

// The cell at y with the periodic faces wrapped (its periodic image), as stream_source finds it; false where y
// lies beyond a face that is not periodic.
template <class L, class R>
AEROLBM_HD bool periodic_image(const GridView& g, const StepConstants<R>& k, int (&y)[3]) {
  for (int a = 0; a < 3; ++a) {
    if (y[a] >= 0 && y[a] < g.n[a]) continue;
    if (a >= L::D || static_cast<FaceBC>(y[a] < 0 ? k.faces[2 * a] : k.faces[2 * a + 1]) != FaceBC::Periodic)
      return false;
    y[a] += y[a] < 0 ? g.n[a] : -g.n[a];
  }
  return true;
}

// The wall table's masks of a near-wall cell n: bit i of `wall` when population i arrives through the body in a
// step (its stream source, after the faces, is a solid cell), bit i of `behind` when the cell at x + c_i lies inside
// the grid (or is a periodic image) and is fluid, bit i of `force` when the neighbour at x − c_i lies inside the
// grid (or is a periodic image) and is solid (the links the momentum exchange counts: a link across a non-periodic
// face carries no force; across a periodic one, as a body spanning a periodic span has, it does). Computed once at set-up
// (kernels/physics/wall_masks.hpp), so a step or a force sample reads one row instead of the flags of every
// neighbour one after the other.
inline constexpr int kWallMaskWords = 3;

template <class L, class R>
inline void wall_link_masks(const GridView& g, const StepConstants<R>& k, std::int64_t n, std::uint32_t& wall,
                            std::uint32_t& behind, std::uint32_t& force) {
  static_assert(L::Q <= 32, "one bit per direction");
  wall = behind = force = 0;
  const int x[3] = {int(n % g.n[0]), int((n / g.n[0]) % g.n[1]), int(n / (std::int64_t(g.n[0]) * g.n[1]))};
  auto type = [&](const int (&y)[3]) { return g.flags[g.index(y[0], y[1], y[2])] & cell::type_mask; };
  for (int i = 1; i < L::Q; ++i) {
    const StreamSource s = stream_source<L, R>(g, k, x, n, i);
    if (s.m >= 0 && (g.flags[s.m] & cell::type_mask) == cell::solid) wall |= 1u << i;
    int ahead[3] = {x[0] + L::c(i, 0), x[1] + L::c(i, 1), x[2] + L::c(i, 2)};
    if (periodic_image<L, R>(g, k, ahead) && type(ahead) == cell::fluid) behind |= 1u << i;
    int back[3] = {x[0] - L::c(i, 0), x[1] - L::c(i, 1), x[2] - L::c(i, 2)};
    if (periodic_image<L, R>(g, k, back) && type(back) == cell::solid) force |= 1u << i;
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

// The populations arriving at a cell that is not plain interior (at a face or next to the body), in this step.
// Every load comes first, independent of each other: the populations that stream from a fluid cell, a periodic
// image or a face, and for each wall link the cell's own two populations along it and its wall distance. Then the
// wall links' arithmetic (bouzidi_value), whose second point for q < ½ is the neighbour behind, one of the
// populations just pulled. (Loaded link by link, each link's distance decided whether its second load was needed,
// and a GPU thread waited for two round trips to memory per link, one link after the other: on a small grid that
// chain was the step's length.)
template <class L, class R, class Acc>
AEROLBM_HD void pull_boundary(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                              std::int64_t n, const BoundaryLinks& b, R (&f)[L::Q]) {
  R fi[L::Q], q[L::Q];
  const bool interpolated = b.wall != 0 && k.interpolated_walls;
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    if ((b.wall >> i) & 1u) {
      f[i] = acc.get(opposite(i), n);  // fb: bounced back as it is (half-way) or interpolated below
      fi[i] = interpolated ? acc.get(i, n) : R(0);
      q[i] = interpolated ? R(g.q[std::int64_t(b.row) * L::Q + opposite(i)]) : R(0);
      continue;
    }
    fi[i] = q[i] = R(0);  // not a wall link: unused
    const StreamSource s = stream_source<L, R>(g, k, x, n, i);
    f[i] = s.m >= 0 ? acc.get(s.j, s.m) : free_stream_population<L, R>(k, i);
  }
  if (!interpolated) return;
  // A link with the fluid cell behind it (bit i of `behind`) has x + c_i (or its periodic image) fluid, so
  // population opp(i) was pulled from there above and is not a wall link: f[opp(i)] is the value Bouzidi needs.
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; ++i)
    if ((b.wall >> i) & 1u) f[i] = bouzidi_value<R>(q[i], f[i], fi[i], (b.behind >> i) & 1u, f[opposite(i)]);
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

// Non-reflecting outlet (Thompson 1987; Poinsot & Lele 1992; for the lattice Boltzmann method Izquierdo & Fueyo
// 2008): the outlet node's density and velocity advance in time by the locally one-dimensional characteristic
// equations of the isothermal flow along x, with first-order upwind differences to the neighbour inside (m):
//   outgoing acoustic wave L5 = (u + c)(c² ∂ρ/∂x + ρ c ∂u/∂x), computed from the flow;
//   incoming acoustic wave L1 = K c² (ρ − 1): the pressure relaxes to the free stream's instead of reflecting;
//   ∂ρ/∂t = −(L5 + L1) / (2c²),  ∂u/∂t = −(L5 − L1) / (2ρc) + F/ρ,  transverse velocity convected out at u.
// The node's previous values are the moments of its own stored populations (equilibrium plus the neighbour's
// non-equilibrium part, whose moments vanish). A node with backflow (u ≤ 0) keeps its transverse velocity.
// `fb`: the node's own stored populations.
template <class L, class R>
AEROLBM_HD void characteristic_outlet(const StepConstants<R>& k, const R (&fb)[L::Q], const Moments<L, R>& mn,
                                      const R (&minus_half)[3], R& rb_s, R (&ub)[3]) {
  const Moments<L, R> b = moments<L, R>(fb, minus_half);
  const R c = R(0.5773502691896258), c2 = R(1) / R(3);
  const R drho = b.rho_s - mn.rho_s, du = b.u[0] - mn.u[0];
  const R L5 = (b.u[0] + c) * (c2 * drho + b.rho * c * du);
  const R L1 = k.outlet_k * c2 * b.rho_s;
  // A body force (the inflow ramp's) accelerates the node as it does the fluid inside.
  const R inv_rho = R(1) / b.rho;
  rb_s = b.rho_s - (L5 + L1) / (R(2) * c2);
  ub[0] = b.u[0] - (L5 - L1) * inv_rho / (R(2) * c) + k.coll.force[0] * inv_rho;
  const R ut = b.u[0] > R(0) ? b.u[0] : R(0);
  ub[1] = b.u[1] - ut * (b.u[1] - mn.u[1]) + k.coll.force[1] * inv_rho;
  ub[2] = L::D == 3 ? b.u[2] - ut * (b.u[2] - mn.u[2]) + k.coll.force[2] * inv_rho : R(0);
}

// Open boundary cell (inlet on the low-x face, outlet on the high-x face): the equilibrium for the boundary values
// plus the non-equilibrium part of the interior neighbour. Inlet: prescribed velocity, density from the neighbour
// (a fixed density there would forbid the pressure drop a channel needs). Outlet: ρ = 1, velocity from the
// neighbour (lets vortices leave with little reflection), or by characteristics (characteristic_outlet).
// open_boundary_update is the node's update, inlined everywhere; open_boundary_cell, the same out of line on the
// host (the rare path), is what the per-cell paths call. The CPU's batches of open nodes inline the update into a
// vector loop across nodes (kernels/cpu/cpu_open_node_batches.hpp).
template <class L, class R, class Acc>
AEROLBM_HD void open_boundary_update(const GridView& g, const StepConstants<R>& k, Acc& acc, const int (&x)[3],
                                     std::int64_t n, bool inlet) {
  const int nbx = inlet ? x[0] + 1 : x[0] - 1;
  const std::int64_t m = g.index(nbx, x[1], x[2]);
  // The neighbour's populations and, for the characteristic outlet, the node's own, loaded together (one round
  // trip to memory instead of two in a row).
  const bool characteristic = !inlet && k.characteristic_outlet;
  R fn[L::Q], fb[L::Q];
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    fn[i] = acc.get(i, m);
    fb[i] = characteristic ? acc.get(i, n) : R(0);
  }
  const R minus_half[3] = {R(-0.5) * k.coll.force[0], R(-0.5) * k.coll.force[1], R(-0.5) * k.coll.force[2]};
  const Moments<L, R> mn = moments<L, R>(fn, minus_half);
  R ub[3];
  R rb_s;
  if (inlet) {
    inlet_velocity<L, R>(g, k, x, ub);
    rb_s = mn.rho_s;
  } else if (characteristic) {
    characteristic_outlet<L, R>(k, fb, mn, minus_half, rb_s, ub);
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

template <class L, class R, class Acc>
AEROLBM_HD_COLD void open_boundary_cell(const GridView& g, const StepConstants<R>& k, Acc& acc, const int (&x)[3],
                                        std::int64_t n, bool inlet) {
  open_boundary_update<L, R>(g, k, acc, x, n, inlet);
}

// Sponge layer: within `sponge_cells` of the outlet and the far-field faces (k.sponge_faces) the post-collision
// populations relax toward the free stream's equilibrium, f ← f − σ (f − f_eq(1, u∞)), with σ = strength·(1 − d/W)²
// at d cells from the face (the face's own layer: d = 0), the largest over the faces; 0 elsewhere. Waves and the
// wake fade out before they reach the faces (Israeli & Orszag 1981). Positions are global (MPI blocks agree).
// The nearest sponge face decides (1 − d/W falls as d grows), so the distance is taken first, in integers, as the
// minimum over the faces of the distance plus k.sponge_pad (0 for a sponge face, kSpongeFar for the others): every
// cell of a far-field case runs this, in or out of the layer, and it is the one part of the case's interior update
// that the periodic box does not have (Nsight Compute, kernels/PERFORMANCE.md: a test per face was 14 % of the
// cylinder's instructions). The same d, so the same numbers, as the largest of the sponge faces' values.
template <class L, class R>
AEROLBM_HD R sponge_sigma(const GridView& g, const StepConstants<R>& k, int x0, int x1, int x2) {
  const int x[3] = {x0 + g.origin[0], x1 + g.origin[1], x2 + g.origin[2]};
  int d = kSpongeFar;  // distance in cells to the nearest sponge face
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    const int lo = x[a] + k.sponge_pad[2 * a];
    const int hi = g.global_size(a) - 1 - x[a] + k.sponge_pad[2 * a + 1];
    d = lo < d ? lo : d;
    d = hi < d ? hi : d;
  }
  const R s = R(1) - R(d) * k.sponge_inv_width;
  const R t = s > R(0) ? s : R(0);
  return k.sponge_strength * t * t;
}

template <class L, class R>
AEROLBM_HD void sponge_relax(const StepConstants<R>& k, R sigma, R (&f)[L::Q]) {
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) f[i] -= sigma * (f[i] - free_stream_population<L, R>(k, i));
}

// The sponge on a cell's new post-collision populations, before they are stored as T (applied to the values
// rounded to T, as the CPU's vector rows apply it to the stored values: the same numbers in every precision).
template <class L, class T, class R>
AEROLBM_HD void sponge_cell(const GridView& g, const StepConstants<R>& k, int x0, int x1, int x2, R (&f)[L::Q]) {
  if (!k.sponge_faces) return;
  const R sigma = sponge_sigma<L, R>(g, k, x0, x1, x2);
  if (!(sigma > R(0))) return;
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) f[i] = R(T(f[i]));
  sponge_relax<L, R>(k, sigma, f);
}

}  // namespace aerolbm
