#pragma once
// One lattice-Boltzmann update of one cell (stream by pull, then collide), the momentum-exchange force of one
// near-wall cell, and the macroscopic fields of one cell. Both backends call exactly these.
#include <cmath>

#include "kernels/physics/boundaries.hpp"
#include "kernels/physics/les_wale.hpp"
#include "kernels/physics/wall_model.hpp"
#include "kernels/physics/watchdog.hpp"
#include "kernels/storage/two_lattice.hpp"

namespace aerolbm {

// A fluid cell none of whose neighbours is a wall or lies across a non-periodic face: plain streaming applies
// (with wrap-around on periodic axes).
template <class L>
AEROLBM_HD bool is_interior(const GridView& g, std::uint8_t flag, int x0, int x1, int x2) {
  if ((flag & ~(cell::aa_snapshot | cell::sponge)) != cell::fluid) return false;
  const int x[3] = {x0, x1, x2};
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    if (!((g.periodic >> a) & 1u) && (x[a] == 0 || x[a] == g.n[a] - 1)) return false;
  }
  return true;
}

// Stricter: also away from periodic faces (the tiled kernel's halo does not wrap).
template <class L>
AEROLBM_HD bool is_tile_interior(const GridView& g, std::uint8_t flag, int x0, int x1, int x2) {
  const bool edge = x0 == 0 || x0 == g.n[0] - 1 || x1 == 0 || x1 == g.n[1] - 1 ||
                    (L::D == 3 && (x2 == 0 || x2 == g.n[2] - 1));
  return !edge && (flag & ~(cell::aa_snapshot | cell::sponge)) == cell::fluid;
}

// The neighbours of an interior cell one step down (m) and up (p) each axis, wrapped around the grid: only
// periodic axes wrap, since is_interior keeps the cell away from the other faces. The one neighbour-index code of
// the plain pull and the in-place update.
struct WrappedNeighbours {
  int x0, x1, x2, xm, xp, ym, yp, zm, zp;
  AEROLBM_HD WrappedNeighbours(const GridView& g, int x0_, int x1_, int x2_) : x0(x0_), x1(x1_), x2(x2_) {
    xm = x0 > 0 ? x0 - 1 : g.n[0] - 1, xp = x0 + 1 < g.n[0] ? x0 + 1 : 0;
    ym = x1 > 0 ? x1 - 1 : g.n[1] - 1, yp = x1 + 1 < g.n[1] ? x1 + 1 : 0;
    zm = x2 > 0 ? x2 - 1 : g.n[2] - 1, zp = x2 + 1 < g.n[2] ? x2 + 1 : 0;
  }
  // The index of the cell at x + s·c_i: s = −1 where population i streams from, s = +1 where it streams to.
  template <class L, int S>
  AEROLBM_HD std::int64_t at(const GridView& g, int i) const {
    const int c0 = S * L::c(i, 0), c1 = S * L::c(i, 1), c2 = S * L::c(i, 2);
    return g.index(c0 == 0 ? x0 : (c0 > 0 ? xp : xm), c1 == 0 ? x1 : (c1 > 0 ? yp : ym),
                   c2 == 0 ? x2 : (c2 > 0 ? zp : zm));
  }
  template <class L>
  AEROLBM_HD std::int64_t from(const GridView& g, int i) const { return at<L, -1>(g, i); }
  template <class L>
  AEROLBM_HD std::int64_t to(const GridView& g, int i) const { return at<L, +1>(g, i); }
};

// Plain pull streaming for an interior cell: population i comes from the neighbour at −c_i.
template <class L, class R, class Acc>
AEROLBM_HD void pull_interior(const GridView& g, const Acc& acc, int x0, int x1, int x2, R (&f)[L::Q]) {
  const WrappedNeighbours nb(g, x0, x1, x2);
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) f[i] = acc.get(i, nb.from<L>(g, i));
}

// Density and velocity of one cell from its stored post-collision populations (which carry the full body force,
// so the physical velocity subtracts half of it).
template <class L, class R, class Acc>
AEROLBM_HD void cell_macroscopic(const StepConstants<R>& k, const Acc& acc, std::int64_t n, R& rho, R (&u)[3]) {
  R f[L::Q];
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) f[i] = acc.get(i, n);
  const R minus_half[3] = {R(-0.5) * k.coll.force[0], R(-0.5) * k.coll.force[1], R(-0.5) * k.coll.force[2]};
  const Moments<L, R> m = moments<L, R>(f, minus_half);
  rho = m.rho;
  u[0] = m.u[0];
  u[1] = m.u[1];
  u[2] = m.u[2];
}

// WALE's velocity field (les_wale.hpp): Σ c_i f_i / ρ of the stored populations `s`, without the half body force
// (a uniform shift that the gradient does not see; leaving it out makes the field a function of the stored state
// alone, the same whatever step's constants, inflow ramp included, are at hand when it is computed).
template <class L, class R>
AEROLBM_HD void wale_velocity(const R (&s)[L::Q], R (&u)[3]) {
  const R no_force[3] = {R(0), R(0), R(0)};
  const Moments<L, R> m = moments<L, R>(s, no_force);
  u[0] = m.u[0];
  u[1] = m.u[1];
  u[2] = m.u[2];
}

// The field at cell n from its stored populations (0 in solid and ghost cells), written to u[a · cells + n].
template <class L, class R, class Acc>
AEROLBM_HD void store_cell_velocity(const GridView& g, const Acc& acc, std::int64_t n, float* u) {
  R v[3] = {0, 0, 0};
  if ((g.flags[n] & cell::type_mask) != cell::solid && !(g.flags[n] & cell::ghost)) {
    R s[L::Q];
    AEROLBM_UNROLL
    for (int i = 0; i < L::Q; ++i) s[i] = acc.get(i, n);
    wale_velocity<L, R>(s, v);
  }
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) u[a * g.cells + n] = float(v[a]);
}

// The same field from populations still in registers, `f` as the step stores them (rounded to the storage type T,
// as acc.get reads them back), written to g.velocity_next: what store_cell_velocity would write from the stored
// state, without reading it.
template <class L, class R, class T>
AEROLBM_HD void store_velocity_of(const GridView& g, std::int64_t n, const R (&f)[L::Q]) {
  R s[L::Q], v[3];
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) s[i] = R(T(f[i]));
  wale_velocity<L, R>(s, v);
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) g.velocity_next[a * g.cells + n] = float(v[a]);
}

// Model paths compiled into the update functions only for the runs that use them (`Extras`, a bit set): WALE
// (les_wale.hpp) and the wall function (boundaries.wall: wall_model, wall_model.hpp). Runs without them take the
// functions with Extras = 0, whose code is as if the models did not exist.
namespace extras {
inline constexpr int wale = 1;
inline constexpr int wall_function = 2;
}  // namespace extras

// Collide (and the sponge layer, where the cell lies in it) and store: the second half of every update, with the
// collision constants `kc` (k.coll, or the cell's own: wall_function_constants).
// `Sponge` = false: a grid known to have no sponge (the periodic box's kernel leaves its test out). `in_layer` =
// false: the caller knows the cell is outside the layer (cell::sponge not set on the CUDA backend's flags).
// extras::wale: the cell's relaxation times from the WALE model (les_wale.hpp; k.coll.wale > 0, g.velocity set),
// and the cell's velocity of the stored state written to g.velocity_next (store_velocity_of).
template <class L, class R, bool Sponge = true, int Extras = 0, class Acc>
AEROLBM_HD void collide_and_store_with(const GridView& g, const StepConstants<R>& k, const CollisionConstants<R>& kc,
                                       Acc& acc, int x0, int x1, int x2, std::int64_t n, R (&f)[L::Q],
                                       bool in_layer = true) {
  if constexpr ((Extras & extras::wale) != 0)
    collide<L, R>(f, wale_constants<L, R>(g, kc, x0, x1, x2));
  else
    collide<L, R>(f, kc);
  if constexpr (Sponge)
    if (in_layer) sponge_cell<L, typename Acc::stored_type, R>(g, k, x0, x1, x2, f);
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) acc.put(i, n, f[i]);
  if constexpr ((Extras & extras::wale) != 0) store_velocity_of<L, R, typename Acc::stored_type>(g, n, f);
}

template <class L, class R, bool Sponge = true, int Extras = 0, class Acc>
AEROLBM_HD void collide_and_store(const GridView& g, const StepConstants<R>& k, Acc& acc, int x0, int x1, int x2,
                                  std::int64_t n, R (&f)[L::Q], bool in_layer = true) {
  collide_and_store_with<L, R, Sponge, Extras>(g, k, k.coll, acc, x0, x1, x2, n, f, in_layer);
}

// The update of an interior cell (is_interior), index n: plain pull, collide and store. `Sponge`, `in_layer`: as
// for collide_and_store.
template <class L, class R, bool Sponge = true, int Extras = 0, class Acc>
AEROLBM_HD void update_interior_cell(const GridView& g, const StepConstants<R>& k, Acc& acc, int x0, int x1, int x2,
                                     std::int64_t n, bool in_layer = true) {
  R f[L::Q];
  pull_interior<L, R>(g, acc, x0, x1, x2, f);
  collide_and_store<L, R, Sponge, Extras>(g, k, acc, x0, x1, x2, n, f, in_layer);
}

// boundaries.wall: wall_model — the collision constants of a near-wall fluid cell whose populations, pulled, are
// `f`: its relaxation time raised by the wall-function eddy viscosity (wall_model.hpp) for its velocity (the
// pre-collision one, with half the body force) and the wall's normal and distance from its links into the body
// (bit i of b.wall: population i arrives through the body, so link opposite(i) leads into it; the fractions from
// row b.row of the wall table). This is the cell's whole eddy viscosity (update_boundary_cell applies no LES model
// on top of it).
template <class L, class R>
AEROLBM_HD CollisionConstants<R> wall_function_constants(const GridView& g, const CollisionConstants<R>& k,
                                                         const BoundaryLinks& b, const R (&f)[L::Q]) {
  std::uint32_t into = 0;
  AEROLBM_UNROLL
  for (int i = 1; i < L::Q; ++i)
    if ((b.wall >> i) & 1u) into |= 1u << opposite(i);
  const WallGeometry<R> w = wall_geometry<L, R>(into, g.q + std::int64_t(b.row) * L::Q);
  const R half[3] = {R(0.5) * k.force[0], R(0.5) * k.force[1], R(0.5) * k.force[2]};
  const Moments<L, R> m = moments<L, R>(f, half);
  const R u[3] = {m.u[0], m.u[1], m.u[2]};
  return with_eddy_viscosity<R>(k, wall_model_eddy_viscosity<R>(w, u, (k.tau0 - R(0.5)) / R(3)));
}

// True where cell x lies on a face of the grid whose boundary is FaceBC::WallModel.
template <class L, class R>
AEROLBM_HD bool on_wall_model_face(const GridView& g, const StepConstants<R>& k, const int (&x)[3]) {
  bool on = false;
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    if (static_cast<FaceBC>(k.faces[2 * a]) == FaceBC::WallModel && x[a] == 0) on = true;
    if (static_cast<FaceBC>(k.faces[2 * a + 1]) == FaceBC::WallModel && x[a] == g.n[a] - 1) on = true;
  }
  return on;
}

// A wall-model face of the grid (FaceBC::WallModel, e.g. `boundaries.lateral: wall_model`): the wall lies half a cell
// outside the last row, and the populations that cross it arrive by free-slip reflection (stream_source, as at a
// Slip face), which exchanges no momentum along the wall; the wall's shear stress is then put on them explicitly.
// The probe is the cell k.wall_probe rows further in, at y₂ = k.wall_probe + ½ from the wall (boundaries.
// wall_model_probe; the stored state's velocity along the wall, U₂ t); u_τ = friction_velocity(U₂, y₂, ν)
// (Spalding's law, wall_function.hpp) and τ_w = ρ₂ u_τ². The crossing populations
// c_a = ±1 (into the grid) get Δf_i = −τ_w w_i (c_i·t) / S, S = Σ w_j (c_j·t)² over them: their mass and normal
// momentum do not change (the set is symmetric about t), and the cell gains −τ_w t of momentum per step, exactly
// the law's stress on the face's area 1, whatever the collision. The flux between the cell and the fluid above it
// is the lattice's own (no imposed velocity or stress there: rebuilding the cell's populations from the law, tried,
// left spurious fluxes of order ρ u_τ at τ ≈ ½, docs/high_reynolds.md).
template <class L, class R, class Acc>
AEROLBM_HD void wall_model_face_stress(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                                       R (&f)[L::Q]) {
  const R nu = (k.coll.tau0 - R(0.5)) / R(3);
  AEROLBM_UNROLL
  for (int a = 0; a < L::D; ++a) {
    AEROLBM_UNROLL
    for (int side = 0; side < 2; ++side) {
      if (static_cast<FaceBC>(k.faces[2 * a + side]) != FaceBC::WallModel) continue;
      if (x[a] != (side == 0 ? 0 : g.n[a] - 1)) continue;
      const int in = side == 0 ? 1 : -1;  // into the grid along axis a
      int p[3] = {x[0], x[1], x[2]};
      p[a] += in * k.wall_probe;
      if (p[a] < 0 || p[a] >= g.n[a]) continue;
      const std::int64_t m = g.index(p[0], p[1], p[2]);
      if ((g.flags[m] & cell::type_mask) != cell::fluid) continue;
      R rho2, u2[3];
      cell_macroscopic<L, R>(k, acc, m, rho2, u2);
      u2[a] = R(0);  // along the wall
      const R speed = std::sqrt(u2[0] * u2[0] + u2[1] * u2[1] + u2[2] * u2[2]);
      if (!(speed > R(0))) continue;
      const R u_tau = friction_velocity<R>(speed, R(k.wall_probe) + R(0.5), nu);
      const R tau = rho2 * u_tau * u_tau;
      R S = R(0);
      AEROLBM_UNROLL
      for (int i = 1; i < L::Q; ++i) {
        if (L::c(i, a) != in) continue;
        const R ct = (R(L::c(i, 0)) * u2[0] + R(L::c(i, 1)) * u2[1] + R(L::c(i, 2)) * u2[2]) / speed;
        S += R(L::w(i)) * ct * ct;
      }
      if (!(S > R(0))) continue;
      const R scale = tau / S;
      AEROLBM_UNROLL
      for (int i = 1; i < L::Q; ++i) {
        if (L::c(i, a) != in) continue;
        const R ct = (R(L::c(i, 0)) * u2[0] + R(L::c(i, 1)) * u2[1] + R(L::c(i, 2)) * u2[2]) / speed;
        f[i] -= scale * R(L::w(i)) * ct;
      }
    }
  }
}

// The first half of a boundary cell's update: an open-boundary node is updated whole (false returned); a fluid cell
// at a face or next to the body gets the populations arriving at it in f (true: collide and store them next).
template <class L, class R, class Acc>
AEROLBM_HD bool open_node_or_pull_boundary(const GridView& g, const StepConstants<R>& k, Acc& acc, const int (&x)[3],
                                           std::int64_t n, std::uint8_t flag, const BoundaryLinks& b, R (&f)[L::Q]) {
  const std::uint8_t type = flag & cell::type_mask;
  if (type != cell::fluid) {
    open_boundary_cell<L, R>(g, k, acc, x, n, type == cell::inlet);
    return false;
  }
  pull_boundary<L, R>(g, k, acc, x, n, b, f);
  return true;
}

// A cell that is not plain interior: an open-boundary node, or a fluid cell at a face or next to the body.
// extras::wall_function: a cell with links into the body collides with wall_function_constants.
template <class L, class R, int Extras = 0, class Acc>
AEROLBM_HD void update_boundary_cell(const GridView& g, const StepConstants<R>& k, Acc& acc, const int (&x)[3],
                                     std::int64_t n, std::uint8_t flag, const BoundaryLinks& b) {
  R f[L::Q];
  if (!open_node_or_pull_boundary<L, R>(g, k, acc, x, n, flag, b, f)) {
    if constexpr ((Extras & extras::wale) != 0) {  // read back what the node stored (two lattices: WALE runs pull)
      const TwoLatticeAccess<typename Acc::stored_type, R> next{acc.dst, nullptr, acc.cells};
      store_cell_velocity<L, R>(g, next, n, g.velocity_next);
    }
    return;
  }
  if constexpr ((Extras & extras::wall_function) != 0) wall_model_face_stress<L, R>(g, k, acc, x, f);
  if constexpr ((Extras & extras::wall_function) != 0) {
    if (b.wall != 0 && b.row >= 0) {
      // The wall model's eddy viscosity is the cell's whole one: an LES model's, from the steep resolved gradient
      // next to the wall, would add to the modelled wall stress (in a turbulent channel it made the wall shear
      // several times the law of the wall's). What is left there, τ − ½ ≈ 3 u_τ y / u⁺ (a few 10⁻⁴ at high Re),
      // is too little damping for BGK or TRT, so the cell collides entropically (KBC, collide_entropic) whatever
      // the bulk's collision: the shear relaxes with the modelled viscosity, the other moments as stability needs.
      CollisionConstants<R> kw = wall_function_constants<L, R>(g, k.coll, b, f);
      kw.les_c = R(0);
      collide_entropic<L, R>(f, kw);
      sponge_cell<L, typename Acc::stored_type, R>(g, k, x[0], x[1], x[2], f);
      AEROLBM_UNROLL
      for (int i = 0; i < L::Q; ++i) acc.put(i, n, f[i]);
      if constexpr ((Extras & extras::wale) != 0) store_velocity_of<L, R, typename Acc::stored_type>(g, n, f);
      return;
    }
  }
  collide_and_store<L, R, true, Extras>(g, k, acc, x[0], x[1], x[2], n, f);
}

// `Extras`: as for collide_and_store and update_boundary_cell.
template <class L, class R, int Extras = 0, class Acc>
AEROLBM_HD void update_cell(const GridView& g, const StepConstants<R>& k, Acc& acc, int x0, int x1, int x2) {
  const int x[3] = {x0, x1, x2};
  const std::int64_t n = g.index(x0, x1, x2);
  const std::uint8_t flag = g.flags[n];
  const std::uint8_t type = flag & cell::type_mask;
  if (type == cell::solid || (flag & cell::ghost)) return;
  if (is_interior<L>(g, flag, x0, x1, x2)) {
    update_interior_cell<L, R, true, Extras>(g, k, acc, x0, x1, x2, n);
    return;
  }
  update_boundary_cell<L, R, Extras>(g, k, acc, x, n, flag, boundary_links(g, n, flag));
}

// Momentum exchange on the body through link i of one near-wall fluid cell x (index n, wall-table row `row`), for
// the state the accessor holds (post-collision): a link into the body (bit i of the row's force mask) carries c_ib
// (f_ib leaving + f_i coming back); other links carry nothing (force stays 0). Unshifted populations are used, so the
// ambient pressure term cancels only over a closed surface, as it should.
template <class L, class R, class Acc>
AEROLBM_HD void wall_link_force(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                                std::int64_t n, std::int32_t row, int i, double (&force)[3]) {
  force[0] = force[1] = force[2] = 0;
  const std::uint32_t* m = g.wall_mask + kWallMaskWords * std::int64_t(row);
  if (!((m[2] >> i) & 1u)) return;
  const bool behind_fluid = (m[1] >> i) & 1u;
  const int ib = opposite(i);
  const double w = L::w(i);
  const double out = double(acc.get(ib, n)) + w;
  R behind = R(0);
  if (behind_fluid) {  // the cell at x + c_i, or its periodic image across a periodic face
    int y[3] = {x[0] + L::c(i, 0), x[1] + L::c(i, 1), x[2] + L::c(i, 2)};
    periodic_image<L, R>(g, k, y);
    behind = acc.get(ib, g.index(y[0], y[1], y[2]));
  }
  const double back = double(wall_link_value<L, R>(g, k, acc, n, row, behind_fluid, behind, i)) + w;
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) force[a] = double(L::c(ib, a)) * (out + back);
}

// The pressure part of what link i carries (the force and surface split of docs/forces.md): the momentum the
// link would exchange if the cell's populations were at rest equilibrium at its density ρ, 2 w_i ρ c_ib on a link
// into the body (bit i of the row's force mask), nothing elsewhere. Over a flat wall of the grid these add up to
// p = ρ c_s² on each face of area 1; the rest of the link's momentum (wall_link_force minus this) is the friction.
template <class L>
AEROLBM_HD void wall_link_pressure_force(const GridView& g, std::int32_t row, int i, double rho, double (&force)[3]) {
  force[0] = force[1] = force[2] = 0;
  const std::uint32_t* m = g.wall_mask + kWallMaskWords * std::int64_t(row);
  if (!((m[2] >> i) & 1u)) return;
  const int ib = opposite(i);
  const double two_w_rho = 2.0 * L::w(i) * rho;
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) force[a] = double(L::c(ib, a)) * two_w_rho;
}

// A near-wall cell's density for the pressure part: 1 plus its stored (shifted) populations added in direction
// order, in double (the CUDA force kernel adds them in the same order).
template <class L, class Acc>
AEROLBM_HD double wall_cell_density(const Acc& acc, std::int64_t n) {
  double d = 0;
  for (int i = 0; i < L::Q; ++i) d += double(acc.get(i, n));
  return 1.0 + d;
}

AEROLBM_HD void cell_coords(const GridView& g, std::int64_t n, int (&x)[3]) {
  x[0] = int(n % g.n[0]);
  x[1] = int((n / g.n[0]) % g.n[1]);
  x[2] = int(n / (std::int64_t(g.n[0]) * g.n[1]));
}

// The force of one near-wall cell and its pressure part: its links' values added in direction order (the CUDA
// force kernel adds them in the same order, so per-cell forces agree bit for bit).
template <class L, class R, class Acc>
AEROLBM_HD_COLD void wall_force_cell(const GridView& g, const StepConstants<R>& k, const Acc& acc, std::int64_t n,
                                     double (&force)[3], double (&pressure)[3]) {
  force[0] = force[1] = force[2] = 0;
  pressure[0] = pressure[1] = pressure[2] = 0;
  const std::uint8_t flag = g.flags[n];
  if ((flag & cell::type_mask) != cell::fluid) return;
  int x[3];
  cell_coords(g, n, x);
  const std::int32_t row = g.link[n];
  const double rho = wall_cell_density<L>(acc, n);
  for (int i = 1; i < L::Q; ++i) {
    double f[3], p[3];
    wall_link_force<L, R>(g, k, acc, x, n, row, i, f);
    wall_link_pressure_force<L>(g, row, i, rho, p);
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) {
      force[a] += f[a];
      pressure[a] += p[a];
    }
  }
}



// Watchdog test for one cell: its density and velocity are finite and its speed is under the bound. Returns the
// speed (NaN when something is not finite) through `speed`.
template <class L, class R, class Acc>
AEROLBM_HD bool cell_is_sane(const GridView& g, const StepConstants<R>& k, const Acc& acc, std::int64_t n,
                             R max_speed, R& speed) {
  if (!watched_cell(g.flags[n])) return true;
  R rho, u[3];
  cell_macroscopic<L, R>(k, acc, n, rho, u);
  const R s2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  speed = sqrt(s2);
  return state_is_sane(rho, s2, max_speed);
}

// A 32-bit integer hash (xor-shift-multiply rounds): consecutive inputs give unrelated outputs.
AEROLBM_HD std::uint32_t mix_bits(std::uint32_t v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

// Initial state: equilibrium at ρ = 1 with the inflow profile (uniform or parabolic) in every fluid cell, rest in
// the body. Starting from the inflow profile rather than a plug spares a channel case the slow viscous diffusion of
// the profile across the channel. Cases without an inlet (periodic, body-force driven) start with
// k.initial_velocity (physics.initial_velocity; rest by default).
template <class L, class R, class Acc>
AEROLBM_HD void initialize_cell(const GridView& g, const StepConstants<R>& k, Acc& acc, std::int64_t n) {
  const int x[3] = {int(n % g.n[0]), int((n / g.n[0]) % g.n[1]), int(n / (std::int64_t(g.n[0]) * g.n[1]))};
  R u[3] = {0, 0, 0};
  R rho_s = R(0);  // ρ − 1, as the populations store it
  R G[3][3] = {};  // the 3D vortex's velocity gradient, and the factor of its non-equilibrium part (0: none)
  R neq = R(0);
  const bool has_inlet = static_cast<FaceBC>(k.faces[0]) == FaceBC::Velocity;
  const bool solid = (g.flags[n] & cell::type_mask) == cell::solid;
  if (k.taylor_green > R(0) && !solid) {
    const R two_pi = R(6.283185307179586);
    const R kx = two_pi / R(g.global_size(0)), ky = two_pi / R(g.global_size(1));
    const R px = kx * (R(x[0] + g.origin[0]) + R(0.5)), py = ky * (R(x[1] + g.origin[1]) + R(0.5));
    if constexpr (L::D == 3) {
      // The three-dimensional vortex of Taylor & Green (1937), the decaying-turbulence benchmark's start:
      // u = A sin x cos y cos z, v = −A cos x sin y cos z, w = 0 on a cube of one period, with the pressure that
      // balances it, p' = ρ A²/16 (cos 2x + cos 2y)(cos 2z + 2), as density through p = c_s² ρ.
      const R kz = two_pi / R(g.global_size(2)), pz = kz * (R(x[2] + g.origin[2]) + R(0.5));
      const R A = k.taylor_green, sx = sin(px), cx = cos(px), sy = sin(py), cy = cos(py), sz = sin(pz), cz = cos(pz);
      u[0] = A * sx * cy * cz;
      u[1] = -A * cx * sy * cz;
      rho_s = R(3) * (A * A / R(16)) * (cos(R(2) * px) + cos(R(2) * py)) * (cos(R(2) * pz) + R(2));
      // Its gradient G[a][b] = ∂_a u_b, for the populations' first-order non-equilibrium part below: started from
      // the equilibrium alone, the missing part flips sign every step at τ ≈ ½ and its streaming makes the kinetic
      // energy oscillate from step to step by ~1 % (50 times the dissipation per step at Re 1600).
      G[0][0] = A * kx * cx * cy * cz;
      G[1][0] = -A * ky * sx * sy * cz;
      G[2][0] = -A * kz * sx * cy * sz;
      G[0][1] = A * kx * sx * sy * cz;
      G[1][1] = -A * ky * cx * cy * cz;
      G[2][1] = A * kz * cx * sy * sz;
      neq = R(3) * (R(1) - R(1) / k.coll.omega_plus);
    } else {
      // u = A sin(kx x) cos(ky y), v = −A (kx/ky) cos(kx x) sin(ky y): divergence-free, periodic in the box.
      u[0] = k.taylor_green * sin(px) * cos(py);
      u[1] = -k.taylor_green * (kx / ky) * cos(px) * sin(py);
    }
  } else if (has_inlet && !solid) {
    inlet_velocity<L, R>(g, k, x, u);
  } else if (!solid) {
    AEROLBM_UNROLL
    for (int a = 0; a < 3; ++a) u[a] = k.initial_velocity[a];
  }
  if (k.initial_noise > R(0) && !solid) {
    // A hash of the cell's global index and the axis, the same on every backend and for every split into blocks.
    const std::uint32_t cell_id = std::uint32_t(x[0] + g.origin[0]) +
                                  std::uint32_t(g.global_size(0)) *
                                      (std::uint32_t(x[1] + g.origin[1]) +
                                       std::uint32_t(g.global_size(1)) * std::uint32_t(x[2] + g.origin[2]));
    AEROLBM_UNROLL
    for (int a = 0; a < L::D; ++a)
      u[a] += k.initial_noise * (R(std::int32_t(mix_bits(cell_id * 4u + std::uint32_t(a)))) * R(4.656612873077393e-10));
  }
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    R f = equilibrium_shifted<L, R>(i, rho_s, R(1) + rho_s, u);
    if (neq != R(0)) {
      // After collision (the state holds post-collision populations): (1 − 1/τ) times the Chapman–Enskog part
      // −3 τ w ρ c_a c_b ∂_a u_b, i.e. 3 (1 − τ) w ρ c_a c_b ∂_a u_b (the flow is divergence-free: no trace term).
      R cc = R(0);
      AEROLBM_UNROLL
      for (int a = 0; a < 3; ++a)
        AEROLBM_UNROLL
        for (int b = 0; b < 3; ++b) cc += R(L::c(i, a) * L::c(i, b)) * G[a][b];
      f += neq * R(L::w(i)) * (R(1) + rho_s) * cc;
    }
    acc.put(i, n, f);
  }
}

}  // namespace aerolbm
