#include "src/parallel/decomposition.hpp"

#include <limits>
#include <sstream>
#include <stdexcept>

#include "kernels/lattice/lattice.hpp"
#include "src/parallel/mpi_tags.hpp"

namespace aerolbm {

int lattice_c(Stencil s, int i, int a) {
  switch (s) {
    case Stencil::D2Q9: return D2Q9::c(i, a);
    case Stencil::D3Q19: return D3Q19::c(i, a);
    case Stencil::D3Q27: return D3Q27::c(i, a);
  }
  return 0;
}

namespace {
std::string what_of(const std::string& text) {
  return "expected the ranks along x, y and z as AxBxC (for example 4, 2x2 or 2x1x1), got '" + text + "'";
}
}  // namespace

RanksGrid parse_ranks_grid(const std::string& text) {
  RanksGrid g{1, 1, 1};
  if (text.empty() || text.back() == 'x') throw std::invalid_argument(what_of(text));
  std::stringstream in(text);
  std::string part;
  int a = 0;
  const std::string what = what_of(text);
  while (std::getline(in, part, 'x')) {
    if (a == 3 || part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 6)
      throw std::invalid_argument(what);
    g[a++] = std::stoi(part);
    if (g[a - 1] < 1) throw std::invalid_argument(what);
  }
  if (a == 0) throw std::invalid_argument(what);
  return g;
}

std::string format_ranks_grid(const RanksGrid& g) {
  return std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]);
}

namespace {

constexpr std::int64_t kMinBlock = 2;

// Halo cells per rank of a split: the cross-sections of the split axes (the smaller, the less to exchange).
// Halo cells per rank; on a GPU a face across x counts kStridedFace times: its cells lie nx apart in memory (the
// packing, unpacking and edge-layer update read one sector per value), and an x split leaves rows of nx/g + 2
// cells that no longer fill whole warps. Measured on 2 H200s, 256³ D3Q19 per GPU: x slabs 51 % weak-scaling
// efficiency, z slabs 91 % (kernels/PERFORMANCE.md).
constexpr double kStridedFace = 8.0;

double halo_cost(const std::int64_t (&n)[3], const RanksGrid& g, bool device) {
  double cost = 0;
  for (int a = 0; a < 3; ++a) {
    if (g[a] == 1) continue;
    double area = 1;
    for (int b = 0; b < 3; ++b)
      if (b != a) area *= double(n[b]) / g[b];
    cost += area * (device && a == 0 ? kStridedFace : 1.0);
  }
  return cost;
}

bool fits(const std::int64_t (&n)[3], const RanksGrid& g) {
  for (int a = 0; a < 3; ++a)
    if (n[a] / g[a] < kMinBlock && g[a] > 1) return false;
  return true;
}

}  // namespace

RanksGrid choose_ranks_grid(const std::int64_t (&n)[3], int dims, int ranks, const RanksGrid& requested,
                            bool device) {
  const std::string grid = std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
  if (requested[0] > 0) {
    const RanksGrid& g = requested;
    if (g[0] * g[1] * g[2] != ranks)
      throw std::invalid_argument("the ranks grid " + format_ranks_grid(g) + " holds " +
                                  std::to_string(g[0] * g[1] * g[2]) + " ranks, but the run has " +
                                  std::to_string(ranks) + ". Give a split whose product is " + std::to_string(ranks) +
                                  " (or leave it out to have one chosen).");
    if (dims == 2 && g[2] != 1)
      throw std::invalid_argument("the ranks grid " + format_ranks_grid(g) +
                                  " splits z, but a 2D lattice has one layer. Split x and y only (AxB).");
    if (!fits(n, g))
      throw std::invalid_argument("the ranks grid " + format_ranks_grid(g) + " leaves blocks under " +
                                  std::to_string(kMinBlock) + " cells wide on the " + grid +
                                  " grid. Use fewer ranks along that axis.");
    return g;
  }
  RanksGrid best{0, 0, 0};
  double best_cost = std::numeric_limits<double>::infinity();
  // On a tie: slabs along x (the flow direction) for host memory; on a GPU the outermost axis (z, then y), whose
  // faces are whole contiguous planes.
  for (int gx = ranks; gx >= 1; --gx) {
    if (ranks % gx) continue;
    for (int gy = ranks / gx; gy >= 1; --gy) {
      if ((ranks / gx) % gy) continue;
      const int gz = ranks / gx / gy;
      if (dims == 2 && gz != 1) continue;
      const RanksGrid g{gx, gy, gz};
      if (!fits(n, g)) continue;
      const double c = halo_cost(n, g, device);
      if (c < best_cost || (device && c == best_cost)) {
        best_cost = c;
        best = g;
      }
    }
  }
  if (best[0] == 0)
    throw std::invalid_argument("no split of the " + grid + " grid over " + std::to_string(ranks) +
                                " ranks leaves every block at least " + std::to_string(kMinBlock) +
                                " cells wide. Run on fewer ranks or on a finer grid.");
  return best;
}

Block block_of(int rank, const RanksGrid& grid, const std::int64_t (&n)[3], std::uint8_t periodic) {
  Block b;
  b.rank = rank;
  b.coords[0] = rank % grid[0];
  b.coords[1] = (rank / grid[0]) % grid[1];
  b.coords[2] = rank / (grid[0] * grid[1]);
  auto rank_at = [&](int cx, int cy, int cz) { return cx + grid[0] * (cy + grid[1] * cz); };
  for (int a = 0; a < 3; ++a) {
    const std::int64_t p = grid[a], c = b.coords[a];
    b.lo[a] = n[a] * c / p;
    b.hi[a] = n[a] * (c + 1) / p;
    if (p == 1) continue;  // not split: no neighbour (a periodic axis wraps inside the block)
    const bool wraps = (periodic >> a) & 1u;
    for (int side = 0; side < 2; ++side) {
      int cn[3] = {b.coords[0], b.coords[1], b.coords[2]};
      cn[a] += side ? 1 : -1;
      if (cn[a] < 0 || cn[a] >= p) {
        if (!wraps) continue;
        cn[a] = (cn[a] + int(p)) % int(p);
      }
      b.neighbour[a][side] = rank_at(cn[0], cn[1], cn[2]);
    }
  }
  return b;
}

DomainData cut_block(const DomainData& g, const Block& b, int q) {
  DomainData d;
  std::int64_t ln[3];
  const std::int64_t gn[3] = {g.nx, g.ny, g.nz};
  for (int a = 0; a < 3; ++a) {
    d.origin[a] = b.lo[a] - (b.ghost(a, 0) ? 1 : 0);
    ln[a] = b.hi[a] + (b.ghost(a, 1) ? 1 : 0) - d.origin[a];
    d.global_n[a] = gn[a];
  }
  d.nx = ln[0];
  d.ny = ln[1];
  d.nz = ln[2];
  d.flags.assign(std::size_t(d.cells()), 0);
  d.link.assign(std::size_t(d.cells()), -1);
  for (std::int64_t z = 0; z < ln[2]; ++z)
    for (std::int64_t y = 0; y < ln[1]; ++y)
      for (std::int64_t x = 0; x < ln[0]; ++x) {
        const std::int64_t l[3] = {x, y, z};
        std::int64_t w[3];
        bool owned = true;
        for (int a = 0; a < 3; ++a) {
          const std::int64_t p = l[a] + d.origin[a];
          owned = owned && p >= b.lo[a] && p < b.hi[a];
          w[a] = (p % gn[a] + gn[a]) % gn[a];  // ghosts of a periodic split wrap around
        }
        const std::int64_t gi = w[0] + gn[0] * (w[1] + gn[1] * w[2]);
        const std::int64_t li = x + ln[0] * (y + ln[1] * z);
        const std::uint8_t f = g.flags[std::size_t(gi)];
        if (!owned) {
          d.flags[std::size_t(li)] = std::uint8_t((f & cell::type_mask) | cell::ghost);
          continue;
        }
        d.flags[std::size_t(li)] = f;
        const std::int32_t row = g.link[std::size_t(gi)];
        if (row < 0) continue;
        d.link[std::size_t(li)] = std::int32_t(d.wall_cells.size());
        d.wall_cells.push_back(li);
        d.q.insert(d.q.end(), g.q.begin() + std::int64_t(row) * q, g.q.begin() + std::int64_t(row + 1) * q);
      }
  return d;
}

PhysicsParams block_params(PhysicsParams p, const RanksGrid& grid) {
  for (int a = 0; a < 3; ++a) {
    if (grid[a] > 1 && p.faces[2 * a] == FaceBC::Periodic && p.faces[2 * a + 1] == FaceBC::Periodic)
      p.faces[2 * a] = p.faces[2 * a + 1] = FaceBC::Wall;
  }
  return p;
}

HaloPlan halo_plan(const Block& b, const DomainData& d, Stencil s) {
  HaloPlan plan;
  const std::int64_t ln[3] = {d.nx, d.ny, d.nz};
  const int Q = lattice_q(s);
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      if (!b.ghost(a, side)) continue;
      // Along earlier axes the ghosts are included (they were filled in earlier phases), along later ones not.
      std::int64_t from[3], to[3];
      for (int c = 0; c < 3; ++c) {
        const bool full = c < a;
        from[c] = full || !b.ghost(c, 0) ? 0 : 1;
        to[c] = full || !b.ghost(c, 1) ? ln[c] : ln[c] - 1;
      }
      const std::int64_t owned_edge = side ? ln[a] - 2 : 1;  // the owned layer next to the ghost
      const std::int64_t ghost_layer = side ? ln[a] - 1 : 0;
      HaloList send, recv;
      send.axis = recv.axis = a;
      send.side = recv.side = side;
      send.peer = recv.peer = b.neighbour[a][side];
      send.tag = mpi_tag::face(a, side == 1);  // travels towards this side
      recv.tag = mpi_tag::face(a, side == 0);  // sent by the neighbour towards us
      for (int i = 0; i < Q; ++i) {
        const int c = lattice_c(s, i, a);
        if (c == (side ? 1 : -1)) send.dirs.push_back(i);
        if (c == (side ? -1 : 1)) recv.dirs.push_back(i);
      }
      for (int pass = 0; pass < 2; ++pass) {
        HaloList& l = pass ? recv : send;
        std::int64_t f[3] = {from[0], from[1], from[2]}, t[3] = {to[0], to[1], to[2]};
        f[a] = pass ? ghost_layer : owned_edge;
        t[a] = f[a] + 1;
        for (std::int64_t z = f[2]; z < t[2]; ++z)
          for (std::int64_t y = f[1]; y < t[1]; ++y)
            for (std::int64_t x = f[0]; x < t[0]; ++x) l.cells.push_back(x + ln[0] * (y + ln[1] * z));
      }
      plan.send.push_back(std::move(send));
      plan.recv.push_back(std::move(recv));
    }
  }
  return plan;
}

}  // namespace aerolbm
