#include "src/solver/domain.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "kernels/lattice/lattice.hpp"

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

DomainData build_domain(const Case& c, const LatticeUnits& u, const Body* body) {
  DomainData d;
  d.nx = u.nx;
  d.ny = u.ny;
  d.nz = u.nz;
  const std::int64_t N = d.cells();
  d.flags.assign(N, cell::fluid);
  d.link.assign(N, -1);
  auto idx = [&](std::int64_t x, std::int64_t y, std::int64_t z) { return x + d.nx * (y + d.ny * z); };

  if (body) {
    const auto bb = body->bounds();
    const std::int64_t n[3] = {d.nx, d.ny, d.nz};
    std::int64_t lo[3], hi[3];
    const int dims = dimensions(c.stencil);
    for (int a = 0; a < 3; ++a) {
      // 2D bodies extend through the whole span (infinite z bounds).
      if (a >= dims || !std::isfinite(bb[0][a]) || !std::isfinite(bb[1][a])) {
        lo[a] = 0;
        hi[a] = n[a] - 1;
        continue;
      }
      lo[a] = std::max<std::int64_t>(0, std::int64_t(std::floor(bb[0][a] - 0.5)));
      hi[a] = std::min<std::int64_t>(n[a] - 1, std::int64_t(std::ceil(bb[1][a] - 0.5)));
      // Two cells of fluid between the body and any face keep the boundary stencils apart from the wall ones.
      const bool open_x = a == 0 && (c.inlet != FaceBC::Periodic);
      const double margin = open_x ? 3.0 : 2.0;
      if (bb[0][a] < margin || bb[1][a] > double(n[a]) - margin) {
        std::ostringstream m;
        m << where(c) << "domain.body_position_chords: the body reaches from " << bb[0][a] / u.length_cells
          << " to " << bb[1][a] / u.length_cells << " reference lengths along " << "xyz"[a]
          << ", but the domain spans 0 to " << double(n[a]) / u.length_cells
          << ". Move the body (domain.body_position_chords) or enlarge domain.size_chords.";
        throw CaseError(m.str());
      }
    }
    std::int64_t solid_cells = 0;
    for (std::int64_t z = lo[2]; z <= hi[2]; ++z)
      for (std::int64_t y = lo[1]; y <= hi[1]; ++y)
        for (std::int64_t x = lo[0]; x <= hi[0]; ++x) {
          if (body->inside({x + 0.5, y + 0.5, z + 0.5})) {
            d.flags[idx(x, y, z)] = cell::solid;
            ++solid_cells;
          }
        }
    if (solid_cells == 0) {
      throw CaseError(where(c) + "geometry: the body covers no cell at this resolution. Increase geometry.chord_cells.");
    }

    // Wall links: for each fluid cell next to the body, the fraction of each link that lies in fluid.
    const auto dirs = directions(c.stencil);
    const int Q = int(dirs.size());
    for (std::int64_t z = lo[2]; z <= hi[2]; ++z)
      for (std::int64_t y = std::max<std::int64_t>(0, lo[1] - 1); y <= std::min(d.ny - 1, hi[1] + 1); ++y)
        for (std::int64_t x = std::max<std::int64_t>(0, lo[0] - 1); x <= std::min(d.nx - 1, hi[0] + 1); ++x) {
          const std::int64_t n0 = idx(x, y, z);
          if (d.flags[n0] != cell::fluid) continue;
          std::int32_t row = -1;
          for (int i = 1; i < Q; ++i) {
            const std::int64_t s[3] = {x + dirs[i][0], y + dirs[i][1], z + dirs[i][2]};
            bool in = true;
            for (int a = 0; a < 3; ++a) in = in && s[a] >= 0 && s[a] < n[a];
            if (!in || d.flags[idx(s[0], s[1], s[2])] != cell::solid) continue;
            if (row < 0) {
              row = std::int32_t(d.wall_cells.size());
              d.wall_cells.push_back(n0);
              d.q.resize(d.q.size() + Q, -1.0f);
            }
            const Vec3 a{x + 0.5, y + 0.5, z + 0.5};
            const Vec3 b{s[0] + 0.5, s[1] + 0.5, s[2] + 0.5};
            const auto t = body->intersect(a, b);
            // A crossing exactly at the far cell centre still counts as a wall link; clamp away from 0.
            d.q[std::size_t(row) * Q + i] = t ? float(std::clamp(*t, 1e-3, 1.0)) : 0.5f;
          }
          if (row >= 0) {
            d.link[n0] = row;
            d.flags[n0] = cell::fluid | cell::near_wall;
          }
        }
  }

  // Open faces: the first and last planes along x.
  for (std::int64_t z = 0; z < d.nz; ++z)
    for (std::int64_t y = 0; y < d.ny; ++y) {
      if (c.inlet == FaceBC::Velocity) d.flags[idx(0, y, z)] = cell::inlet;
      if (c.outlet == FaceBC::Pressure) d.flags[idx(d.nx - 1, y, z)] = cell::outlet;
    }
  return d;
}

PhysicsParams physics_params(const Case& c, const LatticeUnits& u) {
  PhysicsParams p;
  p.collision = c.collision;
  p.tau = u.tau;
  p.trt_magic = c.trt_magic;
  p.smagorinsky = c.les_model == "smagorinsky" ? c.les_constant : 0.0;
  for (int a = 0; a < 3; ++a) p.body_force[a] = c.body_force[a];
  p.u_inlet[0] = c.inlet == FaceBC::Velocity ? u.u_lattice : 0.0;
  p.u_inlet[1] = p.u_inlet[2] = 0.0;
  p.inlet_profile = c.inlet_profile;
  p.wall = c.wall;
  p.faces[0] = c.inlet;
  p.faces[1] = c.outlet;
  p.faces[2] = p.faces[3] = c.lateral;
  p.faces[4] = p.faces[5] = dimensions(c.stencil) == 3 ? c.lateral : FaceBC::Periodic;
  return p;
}


}  // namespace aerolbm
