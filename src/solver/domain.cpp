#include "src/solver/domain.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <optional>
#include <sstream>

#include <spdlog/spdlog.h>

#include "kernels/lattice/lattice.hpp"
#include "kernels/physics/collision.hpp"
#include "src/solver/mesh_voxelize.hpp"

namespace aerolbm {
namespace {

// Directions of the chosen stencil as plain numbers (the voxeliser is not performance-critical).
std::vector<std::array<int, 3>> directions(Stencil s) {
  std::vector<std::array<int, 3>> d;
  auto fill = [&](auto lattice) {
    using L = decltype(lattice);
    for (int i = 0; i < L::Q; ++i) d.push_back({L::c(i, 0), L::c(i, 1), L::c(i, 2)});
  };
  switch (s) {
    case Stencil::D2Q9: fill(D2Q9{}); break;
    case Stencil::D3Q19: fill(D3Q19{}); break;
    case Stencil::D3Q27: fill(D3Q27{}); break;
  }
  return d;
}

std::string where(const Case& c) { return c.source_file.string() + ": "; }

}  // namespace

DomainData build_domain(const Case& c, const LatticeUnits& u, const Body* body, const GridRegion* region) {
  const std::int64_t n[3] = {u.nx, u.ny, u.nz};  // the whole grid
  // The cells built: from o to e along each axis, in the whole grid's coordinates.
  std::int64_t o[3] = {0, 0, 0}, e[3] = {n[0], n[1], n[2]};
  if (region)
    for (int a = 0; a < 3; ++a) {
      o[a] = std::clamp<std::int64_t>(region->lo[a], 0, n[a]);
      e[a] = std::clamp<std::int64_t>(region->hi[a], o[a], n[a]);
    }
  DomainData d;
  d.nx = e[0] - o[0];
  d.ny = e[1] - o[1];
  d.nz = e[2] - o[2];
  if (region)
    for (int a = 0; a < 3; ++a) {
      d.origin[a] = o[a];
      d.global_n[a] = n[a];
    }
  const std::int64_t N = d.cells();
  d.flags.assign(N, cell::fluid);
  d.link.assign(N, -1);
  // Index of the cell at global coordinates (x, y, z), which must lie in the region.
  auto idx = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return (x - o[0]) + d.nx * ((y - o[1]) + d.ny * (z - o[2]));
  };
  auto in_region = [&](const std::int64_t (&w)[3]) {
    for (int a = 0; a < 3; ++a)
      if (w[a] < o[a] || w[a] >= e[a]) return false;
    return true;
  };

  if (body) {
    const auto bb = body->bounds();
    std::int64_t lo[3], hi[3];
    const int dims = dimensions(c.stencil);
    const auto ref = body->reference();
    const bool half_model = ref && ref->half_model;
    for (int a = 0; a < 3; ++a) {
      // 2D bodies extend through the whole span (infinite z bounds).
      if (a >= dims || !std::isfinite(bb[0][a]) || !std::isfinite(bb[1][a])) {
        lo[a] = 0;
        hi[a] = n[a] - 1;
        continue;
      }
      lo[a] = std::max<std::int64_t>(0, std::int64_t(std::floor(bb[0][a] - 0.5)));
      hi[a] = std::min<std::int64_t>(n[a] - 1, std::int64_t(std::ceil(bb[1][a] - 0.5)));
      // A body may run through a pair of periodic faces (the walls of a periodic channel): the streaming joins
      // them, and its cells and links are taken as they lie.
      const bool periodic_axis = (a == 0 && c.inlet == FaceBC::Periodic) || (a == 1 && c.lateral == FaceBC::Periodic) ||
                                 (a == 2 && c.span == FaceBC::Periodic && !half_model);
      if (periodic_axis) continue;
      // Two cells of fluid between the body and any face keep the boundary stencils apart from the wall ones.
      // A half wing's root lies on the symmetry plane z = 0 by design.
      const bool open_x = a == 0 && (c.inlet != FaceBC::Periodic);
      const double margin = open_x ? 3.0 : 2.0;
      const double low_margin = half_model && a == 2 ? 0.0 : margin;
      if (bb[0][a] < low_margin || bb[1][a] > double(n[a]) - margin) {
        std::ostringstream m;
        m << where(c) << "domain.body_position_chords: the body reaches from " << bb[0][a] / u.length_cells
          << " to " << bb[1][a] / u.length_cells << " reference lengths along " << "xyz"[a]
          << ", but the domain spans 0 to " << double(n[a]) / u.length_cells
          << (a == 2 ? " (domain.size_chords[2], the span direction)" : "")
          << ". Move the body (domain.body_position_chords) or enlarge domain.size_chords.";
        throw CaseError(m.str());
      }
    }
    // The body's cells within the region (all of them without one).
    std::int64_t vlo[3], vhi[3];
    bool meets_region = true;
    for (int a = 0; a < 3; ++a) {
      vlo[a] = std::max(lo[a], o[a]);
      vhi[a] = std::min(hi[a], e[a] - 1);
      meets_region = meets_region && vlo[a] <= vhi[a];
    }
    const std::optional<MeshView> mesh = body->mesh();
    const auto started = std::chrono::steady_clock::now();
    std::string ran_on = "cpu";
    std::int64_t solid_cells = 0;
    if (!meets_region) {
      // No body cell here.
    } else if (mesh) {
      // Triangle meshes: the whole box at once, on the GPU when there is one (same results as the CPU).
      const std::int64_t box[3] = {vhi[0] - vlo[0] + 1, vhi[1] - vlo[1] + 1, vhi[2] - vlo[2] + 1};
      std::vector<std::uint8_t> in;
      ran_on = mesh_inside_cells(*mesh, vlo, box, in);
      for (std::int64_t z = 0; z < box[2]; ++z)
        for (std::int64_t y = 0; y < box[1]; ++y)
          for (std::int64_t x = 0; x < box[0]; ++x)
            if (in[std::size_t(x + box[0] * (y + box[1] * z))]) {
              d.flags[idx(vlo[0] + x, vlo[1] + y, vlo[2] + z)] = cell::solid;
              ++solid_cells;
            }
    } else {
      for (std::int64_t z = vlo[2]; z <= vhi[2]; ++z)
        for (std::int64_t y = vlo[1]; y <= vhi[1]; ++y)
          for (std::int64_t x = vlo[0]; x <= vhi[0]; ++x) {
            if (body->inside({x + 0.5, y + 0.5, z + 0.5})) {
              d.flags[idx(x, y, z)] = cell::solid;
              ++solid_cells;
            }
          }
    }
    if (solid_cells == 0 && !region) {
      throw CaseError(where(c) + "geometry: the body covers no cell at this resolution. Increase geometry.chord_cells.");
    }

    // Wall links: for each fluid cell next to the body, the fraction of each link that lies in fluid. First the
    // links themselves, then their fractions (in one batch for meshes).
    const auto dirs = directions(c.stencil);
    const int Q = int(dirs.size());
    // Links across a periodic face reach the body's periodic image (a body through the whole periodic span: a
    // cylinder or an airfoil section in 3D), as the kernels' streaming does; the link's own end stays unwrapped.
    const bool periodic[3] = {c.inlet == FaceBC::Periodic, c.lateral == FaceBC::Periodic,
                              dims == 3 && c.span == FaceBC::Periodic && !half_model};
    std::vector<std::size_t> slot;  // index into d.q of each link
    std::vector<double> seg;        // a, b per link
    for (std::int64_t z = std::max(o[2], lo[2] - 1); z <= std::min(e[2] - 1, hi[2] + 1); ++z)
      for (std::int64_t y = std::max(o[1], lo[1] - 1); y <= std::min(e[1] - 1, hi[1] + 1); ++y)
        for (std::int64_t x = std::max(o[0], lo[0] - 1); x <= std::min(e[0] - 1, hi[0] + 1); ++x) {
          const std::int64_t n0 = idx(x, y, z);
          if (d.flags[n0] != cell::fluid) continue;
          std::int32_t row = -1;
          for (int i = 1; i < Q; ++i) {
            const std::int64_t s[3] = {x + dirs[i][0], y + dirs[i][1], z + dirs[i][2]};
            std::int64_t w[3];
            bool in = true;
            for (int a = 0; a < 3; ++a) {
              w[a] = periodic[a] ? (s[a] + n[a]) % n[a] : s[a];
              in = in && w[a] >= 0 && w[a] < n[a];
            }
            if (!in || !in_region(w) || d.flags[idx(w[0], w[1], w[2])] != cell::solid) continue;
            if (row < 0) {
              row = std::int32_t(d.wall_cells.size());
              d.wall_cells.push_back(n0);
              d.q.resize(d.q.size() + Q, -1.0f);
            }
            slot.push_back(std::size_t(row) * Q + i);
            seg.insert(seg.end(), {x + 0.5, y + 0.5, z + 0.5, s[0] + 0.5, s[1] + 0.5, s[2] + 0.5});
          }
          if (row >= 0) {
            d.link[n0] = row;
            d.flags[n0] = cell::fluid | cell::near_wall;
          }
        }
    std::vector<double> t(slot.size(), -1.0);
    if (mesh) {
      mesh_link_fractions(*mesh, seg, t);
    } else {
      for (std::size_t k = 0; k < slot.size(); ++k) {
        const double* p = seg.data() + 6 * k;
        if (const auto hit = body->intersect({p[0], p[1], p[2]}, {p[3], p[4], p[5]})) t[k] = *hit;
      }
    }
    // A crossing exactly at the far cell centre still counts as a wall link; clamp away from 0. A link that
    // misses the surface (a cell centre on it) is taken as half-way.
    for (std::size_t k = 0; k < slot.size(); ++k) d.q[slot[k]] = t[k] >= 0 ? float(std::clamp(t[k], 1e-3, 1.0)) : 0.5f;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    spdlog::info("voxelised the body on the {}: {} solid cells, {} wall links, {:.3f} s", ran_on, solid_cells,
                 slot.size(), seconds);
  }

  // Open faces: the first and last planes along x.
  for (std::int64_t z = o[2]; z < e[2]; ++z)
    for (std::int64_t y = o[1]; y < e[1]; ++y) {
      if (c.inlet == FaceBC::Velocity && o[0] == 0) d.flags[idx(0, y, z)] = cell::inlet;
      if (c.outlet == FaceBC::Pressure && e[0] == n[0]) d.flags[idx(n[0] - 1, y, z)] = cell::outlet;
    }
  return d;
}

PhysicsParams physics_params(const Case& c, const LatticeUnits& u) {
  PhysicsParams p;
  p.collision = c.collision;
  p.tau = u.tau;
  // TRT near τ = ½ with a velocity inlet: Λ capped for the inlet's stability (stable_trt_magic, collision.hpp).
  p.trt_magic = c.collision == Collision::TRT && c.inlet == FaceBC::Velocity
                    ? stable_trt_magic(c.trt_magic, u.tau, u.u_max_lattice)
                    : c.trt_magic;
  p.smagorinsky = c.les_model == "smagorinsky" ? c.les_constant : 0.0;
  p.wale = c.les_model == "wale" ? c.les_constant : 0.0;
  for (int a = 0; a < 3; ++a) p.body_force[a] = c.body_force[a];
  p.initial_noise = c.initial_noise * u.u_lattice;
  for (int a = 0; a < 3; ++a) p.initial_velocity[a] = c.initial_velocity[a] * u.u_lattice;
  p.u_inlet[0] = c.inlet == FaceBC::Velocity ? u.u_lattice : 0.0;
  p.u_inlet[1] = p.u_inlet[2] = 0.0;
  p.inlet_profile = c.inlet_profile;
  p.wall = c.wall;
  p.wall_model_probe = int(c.wall_model_probe);  // 1.5 → 1 row in from the face's cells
  p.faces[0] = c.inlet;
  p.faces[1] = c.outlet;
  p.faces[2] = p.faces[3] = c.lateral;
  // z faces (the span): boundaries.span; a half wing's root plane z = 0 is a symmetry plane, which is what
  // specular reflection (Slip) is.
  p.faces[4] = p.faces[5] = dimensions(c.stencil) == 3 ? c.span : FaceBC::Periodic;
  if (dimensions(c.stencil) == 3 && is_half_model(c)) p.faces[4] = FaceBC::Slip;
  // The far field: a characteristic outlet whose pressure relaxes to the free stream's with Poinsot & Lele's
  // K = σ c (1 − Ma²) / L (σ: boundaries.outlet_relaxation, L the domain's length in cells); the sponge in front of the far-field faces
  // and of a characteristic outlet.
  p.characteristic_outlet = c.outlet == FaceBC::Pressure && c.characteristic_outlet;
  const double cs = 1.0 / std::sqrt(3.0), ma = u.u_lattice / cs;
  p.outlet_k = p.characteristic_outlet ? c.outlet_relaxation * cs * (1.0 - ma * ma) / double(u.nx) : 0.0;
  for (int f = 0; f < 6; ++f)
    if (p.faces[f] == FaceBC::FarField || (f == 1 && p.characteristic_outlet)) p.sponge_faces |= std::uint8_t(1u << f);
  p.sponge_cells = c.sponge_width_chords * u.length_cells;
  p.sponge_strength = c.sponge_strength;
  // The inflow ramp, for cases with an inlet.
  if (c.inlet == FaceBC::Velocity && u.u_lattice > 0)
    p.ramp_steps = std::llround(c.ramp_convective_times * double(u.steps_per_convective_time));
  return p;
}


}  // namespace aerolbm
