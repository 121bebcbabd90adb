#include "src/solver/refined_levels.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/backend_factory.hpp"
#include "kernels/lattice_owner.hpp"
#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"
#include "src/solver/backend_select.hpp"

namespace aerolbm {

struct RefinedLevels::Level {
  DomainData d;
  PhysicsParams p;
  bool band[3][2] = {};  // a ghost band on the low and high side of each axis (level 0: none)
  std::unique_ptr<Backend> backend;
};

// Everything that crosses between level ℓ (coarse) and ℓ + 1 (fine), as cell lists of the two grids and, per ghost
// and per ring cell, where its values come from.
struct RefinedLevels::Coupling {
  std::vector<std::int64_t> parents;   // coarse cells whose populations the fine ghost band receives
  std::vector<std::int64_t> ghosts;    // the fine ghost band
  std::vector<std::int64_t> children;  // fine owned cells under the ring
  std::vector<std::int64_t> ring;      // covered coarse cells next to uncovered ones
  // ghosts × Q, per fine sub-step: the parent (index into `parents`) and which of its children (bit a: the upper
  // half along axis a) the value stands for.
  std::vector<std::int32_t> source[2];
  std::vector<std::uint8_t> source_child[2];
  std::vector<std::uint8_t> source_dir1;  // ghosts × Q: the population the second sub-step's value comes as
  // The parents' neighbours for the slope: parents × 3 axes × (below, above), an index into `parents` (which
  // lists them after the parents themselves) or −1 where the neighbour is not an own fluid cell of the coarse level.
  std::size_t parent_count = 0;
  std::vector<std::int32_t> neighbour;
  // ring × Q + 1 offsets into cross: the children (indices into `children`) whose population i leaves the fine
  // level's own cells and counts toward ring cell G's population i, with its weight; a direction without any (the
  // coarse cell at G + c_i is covered too) takes the plain mean. See the constructor for the weights.
  struct Crossing {
    std::int32_t child;
    double weight;
    std::uint8_t dir;  // the child's population that crosses: i, or i mirrored where it crossed a free-slip face
  };
  std::vector<std::int32_t> cross_begin;
  std::vector<Crossing> cross;
  std::vector<std::int32_t> ring_children;  // ring × 2^D: every child (index into `children`)
  // The values an own cell reads: the ghosts' populations i (i × ghosts + g) that the own cell at the ghost + c_i
  // pulls, and the ring's (r × Q + i) that carry crossings or that an uncovered cell pulls; ascending. The rest of
  // the band and the ring is never read (the hand-over computes only these).
  std::vector<std::int32_t> ghost_reads, ring_reads;
  // Per ring value read: the ring values it exchanges with along the ring (LevelCouplingTables::along).
  std::vector<std::int32_t> along_begin, along;
  // The hand-over itself, on the host or the device (kernels/level_coupling.hpp).
  std::unique_ptr<LevelCoupling> ops;
};

namespace {

struct Velocities {
  int d = 2, q = 9;
  int c[27][3] = {};
  double w[27] = {};
  int mirror[3][27] = {};  // population i with its component along axis a reversed
};

Velocities velocities(Stencil s) {
  return with_lattice(s, [](auto l) {
    using L = decltype(l);
    Velocities v;
    v.d = L::D;
    v.q = L::Q;
    for (int i = 0; i < L::Q; ++i) {
      for (int a = 0; a < 3; ++a) v.c[i][a] = L::c(i, a);
      v.w[i] = L::w(i);
    }
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < L::Q; ++i)
        for (int j = 0; j < L::Q; ++j)
          if (v.c[j][a] == -v.c[i][a] && v.c[j][(a + 1) % 3] == v.c[i][(a + 1) % 3] &&
              v.c[j][(a + 2) % 3] == v.c[i][(a + 2) % 3])
            v.mirror[a][i] = j;
    return v;
  });
}

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("refinement: " + what); }

std::int64_t global_size(const DomainData& d, int a) {
  const std::int64_t n[3] = {d.nx, d.ny, d.nz};
  return d.global_n[a] > 0 ? d.global_n[a] : n[a];
}

bool axis_periodic(const PhysicsParams& p, int a) {
  return p.faces[2 * a] == FaceBC::Periodic && p.faces[2 * a + 1] == FaceBC::Periodic;
}

// Local cell index of local coordinates x in d, wrapping periodic axes; −1 outside the grid.
std::int64_t local_index(const DomainData& d, const PhysicsParams& p, std::int64_t x[3]) {
  const std::int64_t n[3] = {d.nx, d.ny, d.nz};
  for (int a = 0; a < 3; ++a) {
    if (x[a] >= 0 && x[a] < n[a]) continue;
    if (!axis_periodic(p, a)) return -1;
    x[a] = ((x[a] % n[a]) + n[a]) % n[a];
  }
  return x[0] + n[0] * (x[1] + n[1] * x[2]);
}

// A face whose step reflects populations specularly (stream_source in kernels/physics/boundaries.hpp): the cell one
// step beyond it is the mirror image of the cell on it.
bool mirrors(FaceBC f) { return f == FaceBC::Slip || f == FaceBC::WallModel; }

// Where a level's step moves population i of the cell at x, faces included as stream_source has them: to the cell
// at x + c_i (sign +1) or from the one at x − c_i (sign −1), wrapped across periodic faces; across a free-slip
// face the cell itself along that axis, the population mirrored (the image beyond the face). cell −1 beyond any
// other face; i: the population it arrives (+1) or leaves (−1) as.
struct Moved {
  std::int64_t cell = -1;
  int i = 0;
};

Moved moved(const Velocities& v, const DomainData& d, const PhysicsParams& p, const std::int64_t x[3], int i,
            int sign) {
  const std::int64_t n[3] = {d.nx, d.ny, d.nz};
  std::int64_t y[3];
  int j = i;
  for (int a = 0; a < 3; ++a) {
    y[a] = x[a] + sign * v.c[i][a];
    if (y[a] >= 0 && y[a] < n[a]) continue;
    const FaceBC face = p.faces[2 * a + (y[a] < 0 ? 0 : 1)];
    if (face == FaceBC::Periodic) {
      y[a] = ((y[a] % n[a]) + n[a]) % n[a];
    } else if (mirrors(face)) {
      y[a] = x[a];
      j = v.mirror[a][j];
    } else {
      return {};
    }
  }
  return {y[0] + n[0] * (y[1] + n[1] * y[2]), j};
}

void coordinates(const DomainData& d, std::int64_t n, std::int64_t x[3]) {
  x[0] = n % d.nx;
  x[1] = (n / d.nx) % d.ny;
  x[2] = n / (d.nx * d.ny);
}

// Level ℓ + 1's physics: the same flow in lattice units of half the spacing and half the time step.
PhysicsParams finer_params(PhysicsParams p) {
  p.tau = 2 * p.tau - 0.5;
  for (double& f : p.body_force) f *= 0.5;
  p.ramp_steps *= 2;
  p.sponge_cells *= 2;
  return p;
}

}  // namespace

RefinedLevels::RefinedLevels(BackendKind which, const BackendConfig& cfg, const DomainData& coarse,
                             const PhysicsParams& p, const std::vector<RefinedBox>& boxes,
                             const std::vector<const DomainData*>& level_grids, bool plan_only) {
  if (cfg.kernel != KernelVariant::Auto && cfg.kernel != KernelVariant::Pull)
    refuse("refined levels run the pull kernel (lattice.kernel: pull or auto)");
  if (coarse.global_n[0] > 0 || coarse.global_n[1] > 0 || coarse.global_n[2] > 0)
    refuse("level 0 must be a whole grid, not an MPI block");
  const Velocities v = velocities(cfg.stencil);
  stencil_ = cfg.stencil;
  dims_ = v.d;
  q_ = v.q;

  levels_.resize(boxes.size() + 1);
  couplings_.resize(boxes.size());
  levels_[0].d = coarse;
  levels_[0].p = p;

  for (std::size_t l = 0; l < boxes.size(); ++l) {
    Level& c = levels_[l];
    Level& f = levels_[l + 1];
    const RefinedBox& box = boxes[l];
    const std::int64_t nc[3] = {c.d.nx, c.d.ny, c.d.nz};
    std::int64_t ghost_lo[3] = {0, 0, 0}, ghost_hi[3] = {0, 0, 0};
    bool on_face[3][2] = {};  // a side of the box on a non-periodic face of the domain, per axis and side
    f.p = finer_params(c.p);
    for (int a = 0; a < 3; ++a) {
      const std::string axis = std::string(1, "xyz"[a]);
      const std::string where = "level " + std::to_string(l + 1) + "'s box along " + axis;
      f.d.global_n[a] = a < dims_ ? 2 * global_size(c.d, a) : global_size(c.d, a);
      if (a >= dims_) {
        f.d.origin[a] = 0;
        continue;
      }
      const std::int64_t lo = box.lo[a] - c.d.origin[a], hi = box.hi[a] - c.d.origin[a];  // local to level ℓ
      if (!(lo < hi)) refuse(where + " is empty");
      // Where the band's parents may lie along a: inside level ℓ's own band and clear of the children of level
      // ℓ − 1's ring (two cells) by two more cells.
      const bool c_ghost_lo = c.band[a][0], c_ghost_hi = c.band[a][1];
      const std::int64_t own_lo = c_ghost_lo ? 2 + 4 : 0, own_hi = c_ghost_hi ? nc[a] - 2 - 4 : nc[a];
      const bool whole = lo == 0 && hi == nc[a] && !c_ghost_lo && !c_ghost_hi;
      if (whole) {
        f.p.faces[2 * a] = c.p.faces[2 * a];
        f.p.faces[2 * a + 1] = c.p.faces[2 * a + 1];
      } else {
        if (axis_periodic(c.p, a) && (lo < 1 || hi > nc[a] - 1))
          refuse(where + " reaches the periodic seam: keep one cell of level " + std::to_string(l) +
                 " on each side, or span the whole axis");
        const std::int64_t face_gap = axis_periodic(c.p, a) ? 1 : 2;  // the band's parents and their slope inside
        if (lo == 0 && !c_ghost_lo && !axis_periodic(c.p, a)) {
          f.p.faces[2 * a] = c.p.faces[2 * a];  // on the domain's face: that face's boundary
          on_face[a][0] = true;
        } else {
          if (lo < std::max(own_lo + 1, c_ghost_lo ? 0 : face_gap))
            refuse(where + " starts too close to the edge of level " + std::to_string(l) + ": leave " +
                   std::to_string(c_ghost_lo ? own_lo + 1 : face_gap) + " cells, or put it on the face");
          ghost_lo[a] = 2;
          f.p.faces[2 * a] = FaceBC::Wall;  // never reached: the band's ghosts are not updated
        }
        if (hi == nc[a] && !c_ghost_hi && !axis_periodic(c.p, a)) {
          f.p.faces[2 * a + 1] = c.p.faces[2 * a + 1];
          on_face[a][1] = true;
        } else {
          if (hi > std::min(own_hi - 1, c_ghost_hi ? nc[a] : nc[a] - face_gap))
            refuse(where + " ends too close to the edge of level " + std::to_string(l) + ": leave " +
                   std::to_string(c_ghost_hi ? nc[a] - own_hi + 1 : face_gap) + " cells, or put it on the face");
          ghost_hi[a] = 2;
          f.p.faces[2 * a + 1] = FaceBC::Wall;
        }
      }
      f.d.origin[a] = 2 * box.lo[a] - ghost_lo[a];
      f.band[a][0] = ghost_lo[a] > 0;
      f.band[a][1] = ghost_hi[a] > 0;
    }
    // An interface across an axis that ends on a face of another axis: handed over where that face is free-slip
    // (a symmetry plane, the mirror image beyond it read as the step reads it), not yet at walls and open faces.
    bool meets = false;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int side = 0; side < 2; ++side)
          meets = meets || (a != b && (ghost_lo[a] > 0 || ghost_hi[a] > 0) && on_face[b][side] &&
                            c.p.faces[2 * b + side] != FaceBC::Slip);
    if (meets)
      refuse("level " + std::to_string(l + 1) + "'s box lies on a face of the domain and has an interface across "
             "it: where an interface meets a wall or an open face the populations are not handed over yet (a "
             "free-slip or symmetry face is fine). Keep the box two cells off that face, or let it span every "
             "other axis whole");
    f.d.nx = 2 * (box.hi[0] - box.lo[0]) + ghost_lo[0] + ghost_hi[0];
    f.d.ny = 2 * (box.hi[1] - box.lo[1]) + ghost_lo[1] + ghost_hi[1];
    f.d.nz = dims_ == 3 ? 2 * (box.hi[2] - box.lo[2]) + ghost_lo[2] + ghost_hi[2] : c.d.nz;
    const std::int64_t nf[3] = {f.d.nx, f.d.ny, f.d.nz};

    // The fine grid's flags: from the level's own grid where one is given (a body voxelised at this level's
    // resolution: its flags, wall links and fractions), else its parents' types; the band flagged ghost. The band
    // and its parents hold no body, inlet or outlet: what is handed over there is plain fluid.
    const DomainData* own = l < level_grids.size() ? level_grids[l] : nullptr;
    if (own) {
      // The whole domain at this resolution, or the part of it (build_domain's region) that holds the level's cells.
      const std::int64_t own_n[3] = {own->nx, own->ny, own->nz};
      for (int a = 0; a < 3; ++a) {
        if (global_size(*own, a) != f.d.global_n[a])
          refuse("level " + std::to_string(l + 1) + "'s grid is not the domain at twice level " + std::to_string(l) +
                 "'s resolution");
        if (f.d.origin[a] < own->origin[a] || f.d.origin[a] + nf[a] > own->origin[a] + own_n[a])
          refuse("level " + std::to_string(l + 1) + "'s grid does not hold the cells of its box and band");
      }
    }
    f.d.flags.assign(std::size_t(f.d.cells()), cell::fluid);
    f.d.link.assign(std::size_t(f.d.cells()), -1);
    auto parent_local = [&](const std::int64_t xf[3], std::int64_t xc[3]) {
      for (int a = 0; a < 3; ++a)
        xc[a] = a < dims_ ? refinement::parent_coordinate(xf[a] + f.d.origin[a]) - c.d.origin[a] : xf[a];
      return local_index(c.d, c.p, xc);
    };
    const int q = v.q;
    for (std::int64_t n = 0; n < f.d.cells(); ++n) {
      std::int64_t xf[3], xc[3];
      coordinates(f.d, n, xf);
      const std::int64_t pc = parent_local(xf, xc);
      if (pc < 0) refuse("level " + std::to_string(l + 1) + " has a cell without a parent");
      bool band = false;
      for (int a = 0; a < 3; ++a) band = band || xf[a] < ghost_lo[a] || xf[a] >= nf[a] - ghost_hi[a];
      const std::uint8_t pf = c.d.flags[std::size_t(pc)];
      const std::uint8_t ptype = pf & cell::type_mask;
      const bool plain_parent =
          !(pf & cell::near_wall) && c.d.link[std::size_t(pc)] < 0 && ptype != cell::inlet && ptype != cell::outlet;
      if (!own) {
        if (!plain_parent)
          refuse("level " + std::to_string(l + 1) + "'s box or its band holds a body's wall, an inlet or an outlet "
                 "and no grid of its own was given");
        f.d.flags[std::size_t(n)] = std::uint8_t(ptype | (band ? cell::ghost : 0));
        continue;
      }
      const std::int64_t g =
          (xf[0] + f.d.origin[0] - own->origin[0]) +
          own->nx * ((xf[1] + f.d.origin[1] - own->origin[1]) + own->ny * (xf[2] + f.d.origin[2] - own->origin[2]));
      const std::uint8_t gf = own->flags[std::size_t(g)];
      const std::uint8_t gtype = gf & cell::type_mask;
      if (band) {
        if (!plain_parent || (gf & cell::near_wall) || own->link[std::size_t(g)] >= 0 || gtype == cell::inlet ||
            gtype == cell::outlet)
          refuse("level " + std::to_string(l + 1) + "'s band (two cells around its box) crosses a body, an inlet or "
                 "an outlet: make the box larger");
        f.d.flags[std::size_t(n)] = std::uint8_t(gtype | cell::ghost);
        continue;
      }
      f.d.flags[std::size_t(n)] = gf;
      const std::int32_t row = own->link[std::size_t(g)];
      if (row < 0) continue;
      f.d.link[std::size_t(n)] = std::int32_t(f.d.wall_cells.size());
      f.d.wall_cells.push_back(n);
      f.d.q.insert(f.d.q.end(), own->q.begin() + std::int64_t(row) * q, own->q.begin() + std::int64_t(row + 1) * q);
    }
    // The coarse cells under the box: ghosts of level ℓ from now on.
    auto covered = [&](const std::int64_t xc[3]) {
      for (int a = 0; a < dims_; ++a)
        if (xc[a] + c.d.origin[a] < box.lo[a] || xc[a] + c.d.origin[a] >= box.hi[a]) return false;
      return true;
    };
    for (std::int64_t n = 0; n < c.d.cells(); ++n) {
      std::int64_t xc[3];
      coordinates(c.d, n, xc);
      if (covered(xc)) c.d.flags[std::size_t(n)] |= cell::ghost;
    }
    // Its wall links under the box go: the finer level carries the body there.
    {
      DomainData kept = c.d;
      kept.wall_cells.clear();
      kept.q.clear();
      for (std::size_t r = 0; r < c.d.wall_cells.size(); ++r) {
        const std::int64_t n = c.d.wall_cells[r];
        if (c.d.flags[std::size_t(n)] & cell::ghost) {
          kept.link[std::size_t(n)] = -1;
          kept.flags[std::size_t(n)] = std::uint8_t(kept.flags[std::size_t(n)] & ~cell::near_wall);
          continue;
        }
        kept.link[std::size_t(n)] = std::int32_t(kept.wall_cells.size());
        kept.wall_cells.push_back(n);
        kept.q.insert(kept.q.end(), c.d.q.begin() + std::int64_t(r) * q, c.d.q.begin() + std::int64_t(r + 1) * q);
      }
      c.d = std::move(kept);
    }

    // Explosion: the band's ghosts and their parents.
    Coupling& k = couplings_[l];
    std::vector<std::int32_t> parent_slot(std::size_t(c.d.cells()), -1);
    auto slot_of_parent = [&](std::int64_t pc) {
      std::int32_t& s = parent_slot[std::size_t(pc)];
      if (s < 0) {
        s = std::int32_t(k.parents.size());
        k.parents.push_back(pc);
      }
      return s;
    };
    for (std::int64_t n = 0; n < f.d.cells(); ++n)
      if (f.d.flags[std::size_t(n)] & cell::ghost) k.ghosts.push_back(n);
    auto child_bits = [&](const std::int64_t xf[3]) {
      std::uint8_t b = 0;
      for (int a = 0; a < dims_; ++a) {
        const std::int64_t x = xf[a] + f.d.origin[a];
        if (x - 2 * refinement::parent_coordinate(x) == 1) b = std::uint8_t(b | (1u << a));
      }
      return b;
    };
    for (int s = 0; s < 2; ++s) {
      k.source[s].resize(k.ghosts.size() * std::size_t(q_));
      k.source_child[s].resize(k.ghosts.size() * std::size_t(q_));
    }
    k.source_dir1.resize(k.ghosts.size() * std::size_t(q_));
    for (std::size_t g = 0; g < k.ghosts.size(); ++g) {
      std::int64_t xf[3], xc[3];
      coordinates(f.d, k.ghosts[g], xf);
      const std::int64_t own = parent_local(xf, xc);
      for (int i = 0; i < q_; ++i) {
        const std::size_t at = g * std::size_t(q_) + std::size_t(i);
        k.source[0][at] = slot_of_parent(own);
        k.source_child[0][at] = child_bits(xf);
        // The second sub-step: what one step of streaming inside the band brings to the ghost, from the ghost at
        // −c_i (across a free-slip face, its mirror image: the population mirrored); where −c_i leaves the band
        // (into an own cell), the ghost's own (that value enters no own cell).
        const Moved from = moved(v, f.d, f.p, xf, i, -1);
        const bool inside = from.cell >= 0 && (f.d.flags[std::size_t(from.cell)] & cell::ghost);
        const std::int64_t source_cell = inside ? from.cell : k.ghosts[g];
        std::int64_t xu[3];
        coordinates(f.d, source_cell, xu);
        k.source[1][at] = slot_of_parent(parent_local(xu, xc));
        k.source_child[1][at] = child_bits(xu);
        k.source_dir1[at] = std::uint8_t(inside ? from.i : i);
      }
    }
    if (std::int64_t(k.ghosts.size()) * q_ > std::numeric_limits<std::int32_t>::max())
      refuse("level " + std::to_string(l + 1) + "'s band holds 2^31 values or more");
    for (int i = 0; i < q_; ++i)
      for (std::size_t g = 0; g < k.ghosts.size(); ++g) {
        std::int64_t xf[3];
        coordinates(f.d, k.ghosts[g], xf);
        const std::int64_t m = moved(v, f.d, f.p, xf, i, +1).cell;  // the own cell that pulls it, if any
        if (m >= 0 && !(f.d.flags[std::size_t(m)] & cell::ghost))
          k.ghost_reads.push_back(std::int32_t(std::int64_t(i) * std::int64_t(k.ghosts.size()) + std::int64_t(g)));
      }
    for (std::int64_t pc : k.parents)
      if (c.d.flags[std::size_t(pc)] & cell::ghost)
        refuse("level " + std::to_string(l + 1) + "'s band lies over cells level " + std::to_string(l) +
               " does not own");
    k.parent_count = k.parents.size();
    k.neighbour.assign(k.parent_count * 6, -1);
    for (std::size_t pi = 0; pi < k.parent_count; ++pi) {
      std::int64_t xp[3];
      coordinates(c.d, k.parents[pi], xp);
      for (int a = 0; a < dims_; ++a)
        for (int side = 0; side < 2; ++side) {
          std::int64_t y[3] = {xp[0], xp[1], xp[2]};
          y[a] += side ? 1 : -1;
          const std::int64_t m = local_index(c.d, c.p, y);
          if (m < 0) {
            // Across a free-slip face: the parent's own mirror image.
            if (mirrors(c.p.faces[2 * a + side]))
              k.neighbour[pi * 6 + std::size_t(2 * a + side)] = refinement::kMirrorImage;
            continue;
          }
          const std::uint8_t flag = c.d.flags[std::size_t(m)];
          if ((flag & cell::ghost) || (flag & cell::type_mask) == cell::solid) continue;
          k.neighbour[pi * 6 + std::size_t(2 * a + side)] = slot_of_parent(m);
        }
    }

    // Coalescence: the covered ring, its children, and which of them send each population out.
    std::vector<std::int32_t> child_slot(std::size_t(f.d.cells()), -1);
    auto slot_of_child = [&](std::int64_t nfc) {
      std::int32_t& s = child_slot[std::size_t(nfc)];
      if (s < 0) {
        s = std::int32_t(k.children.size());
        k.children.push_back(nfc);
      }
      return s;
    };
    k.cross_begin.push_back(0);
    const int kids = 1 << dims_;
    std::vector<std::int32_t> puller;  // ring × Q: the parent slot of the coarse cell at G + c_i (−1: none)
    std::vector<bool> pulled_from;     // ring × Q: the coarse cell at G + c_i is uncovered
    for (std::int64_t n = 0; n < c.d.cells(); ++n) {
      std::int64_t xc[3];
      coordinates(c.d, n, xc);
      if (!covered(xc)) continue;
      bool next_to_uncovered[27] = {};
      bool ring = false;
      std::int64_t lands[27];  // where population i goes in a coarse step (−1: nowhere)
      for (int i = 0; i < q_; ++i) {
        const std::int64_t m = lands[i] = moved(v, c.d, c.p, xc, i, +1).cell;
        if (m < 0) continue;
        std::int64_t ym[3];
        coordinates(c.d, m, ym);
        next_to_uncovered[i] = !covered(ym);
        ring = ring || next_to_uncovered[i];
      }
      if (!ring) continue;
      k.ring.push_back(n);
      std::int64_t kid[8][3];
      for (int b = 0; b < kids; ++b) {
        for (int a = 0; a < 3; ++a)
          kid[b][a] = a < dims_ ? 2 * (xc[a] + c.d.origin[a]) + ((b >> a) & 1) - f.d.origin[a] : xc[a];
        std::int64_t x[3] = {kid[b][0], kid[b][1], kid[b][2]};
        const std::int64_t m = local_index(f.d, f.p, x);
        if (m < 0 || (f.d.flags[std::size_t(m)] & cell::ghost))
          refuse("level " + std::to_string(l + 1) + ": a covered cell's child is not a cell of its own");
        k.ring_children.push_back(slot_of_child(m));
      }
      for (int i = 0; i < q_; ++i) {
        pulled_from.push_back(next_to_uncovered[i]);
        puller.push_back(next_to_uncovered[i] ? parent_slot[std::size_t(lands[i])] : -1);
      }
    }
    // Which ring cell's population i a crossing (an own fine cell k whose population i streams into the band)
    // counts toward. Its owner, the ring cell over k, holds it at the coarse level; the ring cell whose
    // population i lands where the fine one does (the band cell's parent Y, pulled from Y − c_i) would move it
    // there. For a population along an axis the two are the same cell; for a diagonal, the owner's mean lies a
    // quarter coarse cell short of where the coarse population starts, along the diagonal's tangential part, the
    // landing cell's a quarter beyond: half to each puts the mean where the coarse population starts (second
    // order). Either way each crossing is counted once in all: what leaves the fine level arrives. Beside a box's
    // corner a diagonal crossing may land where the coarse population comes from an uncovered cell: the coarse
    // level streams that half of the volume itself (its population passes the corner without entering the fine
    // level's budget), so only the owner's half is credited there (the Poiseuille channel through a box 3.49e-3
    // → 1.33e-3 at H = 32, the Taylor–Green vortex in a box 2.36e-3 → 1.33e-3 at N = 64, a corner's mass drift
    // 5e-6 → 1e-6; docs/grid_refinement.md).
    std::vector<std::int32_t> ring_slot(std::size_t(c.d.cells()), -1);
    for (std::size_t r = 0; r < k.ring.size(); ++r) ring_slot[std::size_t(k.ring[r])] = std::int32_t(r);
    std::vector<std::vector<Coupling::Crossing>> credit(k.ring.size() * std::size_t(q_));
    auto pulled = [&](std::int64_t rc, int i) {
      if (rc < 0 || ring_slot[std::size_t(rc)] < 0) return false;
      return puller[std::size_t(ring_slot[std::size_t(rc)]) * q_ + std::size_t(i)] >= 0;
    };
    for (std::size_t j = 0; j < k.children.size(); ++j) {
      std::int64_t xk[3], xo[3];
      coordinates(f.d, k.children[j], xk);
      const std::int64_t owner = parent_local(xk, xo);
      for (int i = 0; i < q_; ++i) {
        const Moved to = moved(v, f.d, f.p, xk, i, +1);
        if (to.cell < 0 || !(f.d.flags[std::size_t(to.cell)] & cell::ghost)) continue;  // stays in the fine level
        // The landing cell: the coarse cell whose population arrives where the fine one does (at the band cell's
        // parent, as the same population), pulled from −c_i or across a free-slip face from its mirror image.
        std::int64_t xm[3], xy[3];
        coordinates(f.d, to.cell, xm);
        const std::int64_t landing = parent_local(xm, xy);
        const Moved from = landing >= 0 ? moved(v, c.d, c.p, xy, to.i, -1) : Moved{};
        const bool own_ok = pulled(owner, i), land_ok = pulled(from.cell, from.i);
        if (!own_ok && !land_ok)
          refuse("level " + std::to_string(l + 1) + ": a population leaving the box reaches no coarse cell");
        bool coarse_streams = false;  // the landing half's coarse source is an uncovered cell (beside a corner)
        if (!land_ok && from.cell >= 0) {
          std::int64_t xs[3];
          coordinates(c.d, from.cell, xs);
          coarse_streams = !covered(xs);
        }
        const double w = (own_ok && land_ok) || coarse_streams ? 0.5 : 1.0;
        const auto dir = std::uint8_t(i);
        if (own_ok)
          credit[std::size_t(ring_slot[std::size_t(owner)]) * q_ + std::size_t(i)].push_back({std::int32_t(j), w, dir});
        if (land_ok)
          credit[std::size_t(ring_slot[std::size_t(from.cell)]) * q_ + std::size_t(from.i)].push_back(
              {std::int32_t(j), w, dir});
      }
    }
    for (const auto& list : credit) {
      k.cross.insert(k.cross.end(), list.begin(), list.end());
      k.cross_begin.push_back(std::int32_t(k.cross.size()));
    }
    for (std::size_t j = 0; j < credit.size(); ++j)
      if (pulled_from[j] || !credit[j].empty()) k.ring_reads.push_back(std::int32_t(j));
    // The exchange along the ring (refinement::ring_value): a population along an axis with the same population
    // of the ring cells two cells away along each other axis, where the cell between is on the ring too and all
    // three values are read (symmetric: each pair is listed both ways). Beyond a free-slip face the ring goes on
    // as its mirror image (the cell reflected, the population mirrored), as in the whole, mirrored domain.
    const std::int64_t extent[3] = {c.d.nx, c.d.ny, c.d.nz};
    std::vector<std::int32_t> read_index(k.ring.size() * std::size_t(q_), -1);
    for (std::size_t tt = 0; tt < k.ring_reads.size(); ++tt)
      read_index[std::size_t(k.ring_reads[tt])] = std::int32_t(tt);
    auto read_at = [&](const std::int64_t x[3], int a, int step, int i) {
      std::int64_t y[3] = {x[0], x[1], x[2]};
      y[a] += step;
      const int side = y[a] < 0 ? 0 : y[a] >= extent[a] ? 1 : -1;
      if (side >= 0 && mirrors(c.p.faces[2 * a + side])) {
        y[a] = side == 0 ? -1 - y[a] : 2 * extent[a] - 1 - y[a];
        i = v.mirror[a][i];
      }
      const std::int64_t m = local_index(c.d, c.p, y);
      if (m < 0 || ring_slot[std::size_t(m)] < 0) return std::int32_t(-1);
      return read_index[std::size_t(ring_slot[std::size_t(m)]) * std::size_t(q_) + std::size_t(i)];
    };
    k.along_begin.push_back(0);
    for (const std::int32_t j : k.ring_reads) {
      const int i = j % q_;
      int axis = -1, components = 0;
      for (int a = 0; a < 3; ++a)
        if (v.c[i][a] != 0) axis = a, ++components;
      if (components == 1) {
        std::int64_t x[3];
        coordinates(c.d, k.ring[std::size_t(j / q_)], x);
        for (int a = 0; a < dims_; ++a)
          for (int side : {-1, 1}) {
            if (a == axis || read_at(x, a, side, i) < 0) continue;
            const std::int32_t partner = read_at(x, a, 2 * side, i);
            if (partner >= 0) k.along.push_back(partner);
          }
      }
      k.along_begin.push_back(std::int32_t(k.along.size()));
    }
  }

  // The tables hold cells as 32-bit indices: a level's grid on one GPU or host holds fewer than 2^31 cells.
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l)
    if (std::max(levels_[l + 1].d.cells(), levels_[l].d.cells()) > std::numeric_limits<std::int32_t>::max())
      refuse("level " + std::to_string(l + 1) + " or the level below holds 2^31 cells or more");
  if (plan_only) return;

  for (std::size_t l = 0; l < levels_.size(); ++l) {
    Level& lv = levels_[l];
    lv.backend = select_backend(which, cfg, lv.d, lv.p);  // fp32, fp64 (CPU) or fp16s (CUDA): make_level_coupling
  }
  // One stream for every level (CUDA): a coarse step, its hand-overs and its sub-steps are queued in order and
  // nothing waits between them.
  for (std::size_t l = 1; l < levels_.size(); ++l) levels_[l].backend->join_stream(*levels_[0].backend);
  for (std::size_t l = 0; l < couplings_.size(); ++l) {
    Coupling& k = couplings_[l];
    // The tables by the value each computes, cells as 32-bit indices (checked above).
    LevelCouplingTables t;
    t.dims = dims_;
    t.q = q_;
    t.ring = std::int64_t(k.ring.size());
    const std::int64_t ng = std::int64_t(k.ghosts.size());
    for (const std::int32_t read : k.ghost_reads) {
      const std::int64_t i = read / ng, g = read % ng;
      const std::size_t at = std::size_t(g * q_ + i);
      t.read_dir.push_back(std::uint8_t(i));
      t.read_dir1.push_back(k.source_dir1[at]);
      t.read_cell.push_back(std::int32_t(k.ghosts[std::size_t(g)]));
      for (int s = 0; s < 2; ++s) {
        t.read_source[s].push_back(k.source[s][at]);
        t.read_child[s].push_back(k.source_child[s][at]);
      }
    }
    t.neighbour = k.neighbour;
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < q_; ++i) t.mirror.push_back(std::uint8_t(v.mirror[a][i]));
    t.parent_cells = k.parents;
    t.ring_reads = k.ring_reads;
    t.cross_begin = k.cross_begin;
    for (const Coupling::Crossing& x : k.cross) {
      t.cross_cell.push_back(std::int32_t(k.children[std::size_t(x.child)]));
      t.cross_dir.push_back(x.dir);
      t.cross_weight.push_back(x.weight);
    }
    t.along_begin = k.along_begin;
    t.along = k.along;
    for (const std::int32_t c : k.ring_children) t.ring_child_cell.push_back(std::int32_t(k.children[std::size_t(c)]));
    for (const std::int64_t n : k.ring) t.ring_cell.push_back(std::int32_t(n));
    k.ops = make_level_coupling(*levels_[l].backend, *levels_[l + 1].backend, t, cfg.threads);
  }
}

// The finer levels and the hand-overs go first: on CUDA they work on level 0's stream.
RefinedLevels::~RefinedLevels() {
  recordings_.clear();
  couplings_.clear();
  while (!levels_.empty()) levels_.pop_back();
}

int RefinedLevels::levels() const { return int(levels_.size()); }
Backend& RefinedLevels::backend(int level) { return *levels_.at(std::size_t(level)).backend; }
const DomainData& RefinedLevels::domain(int level) const { return levels_.at(std::size_t(level)).d; }
const PhysicsParams& RefinedLevels::params(int level) const { return levels_.at(std::size_t(level)).p; }

bool RefinedLevels::owned(int level, std::int64_t cell) const {
  return !(levels_.at(std::size_t(level)).d.flags.at(std::size_t(cell)) & cell::ghost);
}

void RefinedLevels::initialize() {
  for (Level& l : levels_) l.backend->initialize();
  states_written();
}

void RefinedLevels::states_written() { levels_[0].backend->finish_steps(); }

void RefinedLevels::queue_steps(std::int64_t coarse_steps) {
  for (std::int64_t s = 0; s < coarse_steps;) {
    if (coarse_steps - s >= 2 && replay_two_steps()) {
      s += 2;
    } else {
      step(0);
      ++s;
    }
  }
}

// A coarse step is some fifteen small launches per interface and level (each level's steps, three hand-over
// kernels per interface); on small grids their gaps are most of its time. Two coarse steps (after which every
// level's state is back in the lattice it started in: level ℓ steps 2^(ℓ+1) times) go out as one replay of what
// they queued, recorded the first time from this starting state (CUDA: a graph of level 0's stream, which every
// level shares). Only where every level's next steps may be recorded (no inflow ramp, no force sample waiting to
// go out with a step: those coarse steps go out one at a time). False: nothing queued (the CPU backend records
// nothing). AEROLBM_REFINED_RECORDING=off queues every coarse step as it comes (for measuring what the recording saves).
bool RefinedLevels::replay_two_steps() {
  static const bool off = [] {
    const char* v = std::getenv("AEROLBM_REFINED_RECORDING");
    return v && std::string(v) == "off";
  }();
  if (off) return false;
  for (const Level& l : levels_)
    if (!l.backend->steps_recordable()) return false;
  std::vector<const void*> key;
  for (Level& l : levels_) key.push_back(coupling_lattices(*l.backend).lattices().current);
  auto it = recordings_.find(key);
  if (it == recordings_.end()) {
    if (recordings_.size() >= 4) return false;
    // Recording advances every backend's host side (which lattice holds the state, the steps counted) as queueing
    // would; the replay that follows does the work.
    std::unique_ptr<Backend::Recording> r = levels_[0].backend->record([this] {
      step(0);
      step(0);
    });
    if (!r) return false;
    r->replay();
    recordings_.emplace(std::move(key), std::move(r));
    return true;
  }
  it->second->replay();
  for (std::size_t l = 0; l < levels_.size(); ++l) levels_[l].backend->replayed_steps(std::int64_t(2) << l);
  return true;
}

void RefinedLevels::run(std::int64_t coarse_steps) {
  queue_steps(coarse_steps);
  levels_[0].backend->finish_steps();  // on CUDA every level's work is on its stream
}

void RefinedLevels::finish_steps() { levels_[0].backend->finish_steps(); }

void RefinedLevels::step(int level) {
  if (std::size_t(level) + 1 < levels_.size()) couple_and_step(level);
  levels_[std::size_t(level)].backend->queue_steps(1);
}

// Two steps of level ℓ + 1 between level ℓ's state t and its step to t + 1: the band gets level ℓ's populations of
// state t (explosion), the ring the populations that left level ℓ + 1 in its two steps (coalescence). Queued on the
// levels' backends in this order (kernels/level_coupling.hpp).
void RefinedLevels::couple_and_step(int level) {
  LevelCoupling& k = *couplings_[std::size_t(level)].ops;
  // Explosion: each parent's slope along each axis, per population; a ghost's population i for both sub-steps is
  // the mean of the child's value at the ghost and of the one that a fine step of streaming inside the band brings
  // there (kernels/physics/refinement.hpp). Either alone is a quarter coarse step off, one early, one late; over
  // the two sub-steps the same values enter the fine level in all, so the mean keeps the volumes handed over exactly.
  // (With the first sub-step's crossings below: one launch on the device.)
  k.explode_and_first_crossings();
  // Two fine steps; what their own cells send into the band (states t and t + ½) is summed for the ring, each
  // crossing handed over within this coarse step (kernels/physics/refinement.hpp: centred on t + ¼). The sums are
  // complete before the second fine step, so the coalescence into the ring (a direction no uncovered cell pulls
  // gets the children's mean, state t + ½), with the exchange along the ring, goes with it; level ℓ, which it
  // writes, steps only after both.
  step(level + 1);
  k.before_sub_step(1);
  step(level + 1);
}

std::array<double, 3> RefinedLevels::summed_force(bool pressure_part) {
  std::array<double, 3> total{0, 0, 0};
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    if (levels_[l].d.wall_cells.empty()) continue;
    Backend& b = *levels_[l].backend;
    const auto f = pressure_part ? b.wall_pressure_force() : b.wall_force();
    const double scale = 1.0 / double(std::int64_t(1) << ((dims_ - 1) * int(l)));
    for (int a = 0; a < 3; ++a) total[std::size_t(a)] += f[std::size_t(a)] * scale;
  }
  return total;
}

// Where one level holds the body (the usual case), its backend samples it as it samples a uniform grid (CUDA: on
// the device, behind the queued steps, nobody waiting); the totals are scaled to level 0's units when taken.
void RefinedLevels::queue_force_sample(bool per_cell) {
  int holding = 0;
  for (const Level& l : levels_) holding += !l.d.wall_cells.empty();
  const int at = body_level();
  if (holding != 1 || at == 0) {
    Backend::queue_force_sample(per_cell);
    sampled_at_.push_back(-1);
    return;
  }
  levels_[std::size_t(at)].backend->queue_force_sample(per_cell);
  sampled_at_.push_back(at);
}

std::vector<ForceSample> RefinedLevels::take_force_samples() {
  std::vector<ForceSample> own = Backend::take_force_samples();
  std::vector<std::vector<ForceSample>> delegated(levels_.size());
  std::vector<std::size_t> next(levels_.size(), 0);
  for (std::size_t l = 1; l < levels_.size(); ++l) delegated[l] = levels_[l].backend->take_force_samples();
  std::vector<ForceSample> out;
  std::size_t next_own = 0;
  for (const int at : sampled_at_) {
    if (at < 0) {
      out.push_back(std::move(own.at(next_own++)));
      continue;
    }
    ForceSample s = std::move(delegated[std::size_t(at)].at(next[std::size_t(at)]++));
    const double scale = 1.0 / double(std::int64_t(1) << ((dims_ - 1) * at));
    for (int a = 0; a < 3; ++a) {
      s.total[std::size_t(a)] *= scale;
      s.pressure[std::size_t(a)] *= scale;
    }
    out.push_back(std::move(s));
  }
  sampled_at_.clear();
  return out;
}

std::array<double, 3> RefinedLevels::wall_force() { return summed_force(false); }
std::array<double, 3> RefinedLevels::wall_pressure_force() { return summed_force(true); }

int RefinedLevels::body_level() const {
  for (int l = int(levels_.size()) - 1; l > 0; --l)
    if (!levels_[std::size_t(l)].d.wall_cells.empty()) return l;
  return 0;
}

void RefinedLevels::wall_force_cells(std::vector<double>& f) {
  const int b = body_level();
  for (std::size_t l = 0; l < levels_.size(); ++l)
    if (int(l) != b && !levels_[l].d.wall_cells.empty())
      throw std::logic_error("refined levels: near-wall cells on levels " + std::to_string(l) + " and " +
                             std::to_string(b) + "; per-cell forces come from one level");
  levels_[std::size_t(b)].backend->wall_force_cells(f);
}

std::int64_t RefinedLevels::cell_updates_per_step() const {
  std::int64_t updates = 0;
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    std::int64_t own = 0;
    for (std::uint8_t flag : levels_[l].d.flags) own += (flag & cell::ghost) ? 0 : 1;
    updates += own << l;
  }
  return updates;
}

BackendKind RefinedLevels::kind() const { return levels_[0].backend->kind(); }
std::string RefinedLevels::device() const { return levels_[0].backend->device(); }
std::string RefinedLevels::kernel() const {
  return levels_[0].backend->kernel() + ", " + std::to_string(levels_.size()) + " refined levels";
}

void RefinedLevels::set_step(std::int64_t step) {
  for (std::size_t l = 0; l < levels_.size(); ++l) levels_[l].backend->set_step(step << l);
}

double RefinedLevels::timed(const std::function<void()>& work) { return levels_[0].backend->timed(work); }
double RefinedLevels::timed_run(std::int64_t steps) {
  return timed([&] { run(steps); });
}

void RefinedLevels::macroscopic(std::vector<float>& rho, std::vector<float>& u) { level_fields(0, rho, u); }

DeviceFieldArrays RefinedLevels::device_fields() {
  throw std::logic_error("refined levels keep no device fields of the whole grid (each level's live on its own "
                         "grid); read level 0's, filled from the finer levels, with macroscopic()");
}

template <class Fn>
void RefinedLevels::for_each_covered(int level, Fn&& fn) const {
  const Level& c = levels_[std::size_t(level)];
  const Level& f = levels_[std::size_t(level) + 1];
  const int kids = 1 << dims_;
  const std::int64_t nf[3] = {f.d.nx, f.d.ny, f.d.nz};
  for (std::int64_t n = 0; n < c.d.cells(); ++n) {
    if (!(c.d.flags[std::size_t(n)] & cell::ghost)) continue;
    std::int64_t xc[3];
    coordinates(c.d, n, xc);
    // Under the box every child is a cell of the finer grid (owned there, or filled from further down); a cell of
    // this level's own band has none.
    std::int64_t child[8];
    bool under = true;
    for (int b = 0; b < kids && under; ++b) {
      std::int64_t x[3];
      for (int a = 0; a < 3; ++a) {
        x[a] = a < dims_ ? 2 * (xc[a] + c.d.origin[a]) + ((b >> a) & 1) - f.d.origin[a] : xc[a];
        under = under && x[a] >= 0 && x[a] < nf[a];
      }
      child[b] = under ? x[0] + nf[0] * (x[1] + nf[1] * x[2]) : -1;
    }
    if (under) fn(n, child, kids);
  }
}

void RefinedLevels::level_own_fields(int level, std::vector<float>& rho, std::vector<float>& u) {
  levels_[std::size_t(level)].backend->macroscopic(rho, u);
}

void RefinedLevels::level_fields(int level, std::vector<float>& rho, std::vector<float>& u) {
  level_own_fields(level, rho, u);
  if (std::size_t(level) + 1 < levels_.size()) fill_covered(level, rho, u);
  if (level > 0) fill_band(level, rho, u);
}

void RefinedLevels::fill_covered(int level, std::vector<float>& rho, std::vector<float>& u) {
  std::vector<float> frho, fu;
  level_fields(level + 1, frho, fu);
  mean_of_children(level, frho, fu, rho, u);
}

void RefinedLevels::mean_of_children(int level, const std::vector<float>& frho, const std::vector<float>& fu,
                                     std::vector<float>& rho, std::vector<float>& u) const {
  for_each_covered(level, [&](std::int64_t n, const std::int64_t (&child)[8], int kids) {
    double r = 0, v[3] = {0, 0, 0};
    for (int b = 0; b < kids; ++b) {
      const std::size_t m = std::size_t(child[b]);
      r += frho[m];
      for (int a = 0; a < 3; ++a) v[a] += fu[3 * m + std::size_t(a)];
    }
    rho[std::size_t(n)] = float(r / kids);
    for (int a = 0; a < 3; ++a) u[3 * std::size_t(n) + std::size_t(a)] = float(v[a] / kids);
  });
}

void RefinedLevels::fill_band(int level, std::vector<float>& rho, std::vector<float>& u) {
  const Level& f = levels_[std::size_t(level)];
  const Level& c = levels_[std::size_t(level) - 1];
  std::vector<float> crho, cu;
  level_own_fields(level - 1, crho, cu);
  mean_of_children(level - 1, rho, u, crho, cu);
  const std::int64_t nf[3] = {f.d.nx, f.d.ny, f.d.nz}, nc[3] = {c.d.nx, c.d.ny, c.d.nz};
  const int dims = dims_;
#pragma omp parallel for schedule(static)
  for (std::int64_t n = 0; n < f.d.cells(); ++n) {
    std::int64_t xf[3];
    coordinates(f.d, n, xf);
    bool band = false;
    for (int a = 0; a < dims; ++a)
      band = band || (f.band[a][0] && xf[a] < 2) || (f.band[a][1] && xf[a] >= nf[a] - 2);
    if (!band) continue;
    // The cell's centre in level − 1's cells: (x + ½) / 2 − ½, a quarter cell off a coarse centre.
    std::int64_t i0[3] = {0, 0, 0};
    double t[3] = {0, 0, 0};
    for (int a = 0; a < dims; ++a) {
      const double s = (double(xf[a] + f.d.origin[a]) + 0.5) / 2.0 - 0.5 - double(c.d.origin[a]);
      const double sc = std::clamp(s, 0.0, double(nc[a] - 1));
      i0[a] = std::min<std::int64_t>(std::int64_t(sc), std::max<std::int64_t>(nc[a] - 2, 0));
      t[a] = nc[a] > 1 ? sc - double(i0[a]) : 0.0;
    }
    if (dims == 2) i0[2] = 0;
    double r = 0, v[3] = {0, 0, 0};
    for (int k = 0; k < (1 << dims); ++k) {
      double w = 1;
      std::int64_t x[3] = {i0[0], i0[1], i0[2]};
      for (int a = 0; a < dims; ++a) {
        const int hi = (k >> a) & 1;
        w *= hi ? t[a] : 1 - t[a];
        x[a] += hi;
      }
      if (w == 0) continue;
      const std::size_t q = std::size_t(x[0] + nc[0] * (x[1] + nc[1] * x[2]));
      r += w * crho[q];
      for (int a = 0; a < 3; ++a) v[a] += w * cu[3 * q + std::size_t(a)];
    }
    rho[std::size_t(n)] = float(r);
    for (int a = 0; a < 3; ++a) u[3 * std::size_t(n) + std::size_t(a)] = float(v[a]);
  }
}

void RefinedLevels::sample_averages() {
  for (Level& l : levels_) l.backend->sample_averages();
}

void RefinedLevels::read_averages(FieldAverages& out) { level_averages(0, out); }

void RefinedLevels::level_averages(int level, FieldAverages& out) {
  levels_[std::size_t(level)].backend->read_averages(out);
  if (std::size_t(level) + 1 == levels_.size() || out.samples == 0) return;
  FieldAverages fine;
  level_averages(level + 1, fine);
  const std::int64_t cells = levels_[std::size_t(level)].d.cells(), fcells = levels_[std::size_t(level) + 1].d.cells();
  for_each_covered(level, [&](std::int64_t n, const std::int64_t (&child)[8], int kids) {
    for (int q = 0; q < FieldAverages::kQuantities; ++q) {
      double mean = 0, m2 = 0;
      for (int b = 0; b < kids; ++b) {
        mean += fine.mean[std::size_t(q * fcells + child[b])];
        m2 += fine.m2[std::size_t(q * fcells + child[b])];
      }
      out.mean[std::size_t(q * cells + n)] = mean / kids;
      out.m2[std::size_t(q * cells + n)] = m2 / kids;
    }
  });
}

StateCheck RefinedLevels::check_state(double max_speed) {
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    StateCheck s = levels_[l].backend->check_state(max_speed);
    if (s.ok) continue;
    const DomainData& d = levels_[l].d;
    const DomainData& d0 = levels_[0].d;
    std::int64_t x[3];
    coordinates(d, s.first_bad_cell, x);
    for (int a = 0; a < dims_; ++a) x[a] = ((x[a] + d.origin[a]) >> l) - d0.origin[a];
    s.first_bad_cell = x[0] + d0.nx * (x[1] + d0.ny * x[2]);
    return s;
  }
  return {};
}

std::unique_ptr<FieldsTransfer> RefinedLevels::start_fields_transfer() { return host_fields_transfer(*this); }

namespace {
struct LevelFields : FieldsTransfer {
  std::vector<float> rho_, u_;
  void wait() override {}
  const float* rho() const override { return rho_.data(); }
  const float* u() const override { return u_.data(); }
};
}  // namespace

std::unique_ptr<FieldsTransfer> RefinedLevels::level_fields_transfer(int level) {
  auto t = std::make_unique<LevelFields>();
  level_fields(level, t->rho_, t->u_);
  return t;
}

void RefinedLevels::read_populations(std::vector<double>& f) {
  f.clear();
  std::vector<double> part;
  for (Level& l : levels_) {
    l.backend->read_populations(part);
    f.insert(f.end(), part.begin(), part.end());
  }
}

void RefinedLevels::write_populations(const std::vector<double>& f) {
  std::size_t expected = 0;
  for (const Level& l : levels_) expected += std::size_t(q_) * std::size_t(l.d.cells());
  if (f.size() != expected)
    throw std::invalid_argument("refined levels: a state of " + std::to_string(f.size()) + " values, where " +
                                std::to_string(levels_.size()) + " levels hold " + std::to_string(expected));
  std::size_t at = 0;
  std::vector<double> part;
  for (Level& l : levels_) {
    const std::size_t n = std::size_t(q_) * std::size_t(l.d.cells());
    part.assign(f.begin() + std::ptrdiff_t(at), f.begin() + std::ptrdiff_t(at + n));
    l.backend->write_populations(part);
    at += n;
  }
}

// Mass and momentum together: every own fluid cell's shifted populations (ρ = 1 + Σ f̃, ρu = Σ c f̃), weighted by
// its level's cell volume 2^{−Dℓ}.
std::array<double, 4> RefinedLevels::budget() {
  const Velocities v = velocities(stencil_);
  std::array<double, 4> total{0, 0, 0, 0};  // mass, momentum x, y, z
  // Sums per level, scaled once by that level's cell volume.
  auto scaled_in = [&](const std::array<double, 4>& m, int level) {
    const double volume = 1.0 / double(std::int64_t(1) << (dims_ * level));
    for (std::size_t a = 0; a < 4; ++a) total[a] += m[a] * volume;
  };
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const Level& lv = levels_[l];
    std::vector<double> f;
    lv.backend->read_populations(f);
    const std::int64_t cells = lv.d.cells();
    std::array<double, 4> m{0, 0, 0, 0};
    for (std::int64_t n = 0; n < cells; ++n) {
      const std::uint8_t flag = lv.d.flags[std::size_t(n)];
      if ((flag & cell::ghost) || (flag & cell::type_mask) == cell::solid) continue;
      double rho = 1;  // ρ = 1 + Σ f̃, ρu = Σ c f̃
      for (int i = 0; i < q_; ++i) {
        const double x = f[std::size_t(i) * std::size_t(cells) + std::size_t(n)];
        rho += x;
        for (int a = 0; a < 3; ++a) m[std::size_t(a) + 1] += v.c[i][a] * x;
      }
      m[0] += rho;
    }
    scaled_in(m, int(l));
  }
  return total;
}

double RefinedLevels::mass() { return budget()[0]; }

std::array<double, 3> RefinedLevels::momentum() {
  const std::array<double, 4> b = budget();
  return {b[1], b[2], b[3]};
}

}  // namespace aerolbm
