// The block decomposition behind MPI runs (src/parallel/decomposition), without MPI: splits, blocks, the cut of a
// rank's block with its ghost layers, and the halo messages matching between neighbours.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "src/parallel/decomposition.hpp"

namespace aerolbm {
namespace {

TEST(ParallelDecomposition, ParsesRanksGrids) {
  EXPECT_EQ(parse_ranks_grid("4"), (RanksGrid{4, 1, 1}));
  EXPECT_EQ(parse_ranks_grid("2x3"), (RanksGrid{2, 3, 1}));
  EXPECT_EQ(parse_ranks_grid("1x1x8"), (RanksGrid{1, 1, 8}));
  for (const char* bad : {"", "x", "2x", "0x2", "2x2x2x2", "a", "-1", "2*2"})
    EXPECT_THROW(parse_ranks_grid(bad), std::invalid_argument) << bad;
}

TEST(ParallelDecomposition, ChoosesSlabsAlongXForElongatedGridsAndChecksRequests) {
  const std::int64_t naca[3] = {640, 320, 1};
  EXPECT_EQ(choose_ranks_grid(naca, 2, 2, {0, 0, 0}), (RanksGrid{2, 1, 1}));
  EXPECT_EQ(choose_ranks_grid(naca, 2, 3, {0, 0, 0}), (RanksGrid{3, 1, 1}));
  const std::int64_t cube[3] = {256, 256, 256};
  EXPECT_EQ(choose_ranks_grid(cube, 3, 2, {0, 0, 0}), (RanksGrid{2, 1, 1}));  // a tie: x first
  EXPECT_EQ(choose_ranks_grid(cube, 3, 27, {0, 0, 0}), (RanksGrid{3, 3, 3}));  // fewest halo cells
  const std::int64_t thin[3] = {5, 400, 1};
  EXPECT_EQ(choose_ranks_grid(thin, 2, 4, {0, 0, 0}), (RanksGrid{1, 4, 1}));   // x slabs would be 1 cell wide
  EXPECT_EQ(choose_ranks_grid(naca, 2, 4, {2, 2, 1}), (RanksGrid{2, 2, 1}));
  EXPECT_THROW(choose_ranks_grid(naca, 2, 4, {2, 1, 1}), std::invalid_argument);  // product is not 4
  EXPECT_THROW(choose_ranks_grid(naca, 2, 2, {1, 1, 2}), std::invalid_argument);  // 2D has no z to split
  EXPECT_THROW(choose_ranks_grid(naca, 2, 400, {400, 1, 1}), std::invalid_argument);  // blocks 1 cell wide
  const std::int64_t tiny[3] = {3, 3, 1};
  EXPECT_THROW(choose_ranks_grid(tiny, 2, 5, {0, 0, 0}), std::invalid_argument);
}

// GPU ranks: faces across x are strided in memory (8 times the cost), ties go to the outermost axis.
TEST(ParallelDecomposition, GpuRanksPreferContiguousFaces) {
  const std::int64_t cube[3] = {256, 256, 256};
  EXPECT_EQ(choose_ranks_grid(cube, 3, 2, {0, 0, 0}, true), (RanksGrid{1, 1, 2}));
  EXPECT_EQ(choose_ranks_grid(cube, 3, 8, {0, 0, 0}, true), (RanksGrid{1, 2, 4}));
  const std::int64_t naca[3] = {640, 320, 1};
  EXPECT_EQ(choose_ranks_grid(naca, 2, 2, {0, 0, 0}, true), (RanksGrid{1, 2, 1}));
  const std::int64_t wing[3] = {1024, 256, 256};  // x 4 times longer: an x face is 1/4 the cells but 8 times the cost
  EXPECT_EQ(choose_ranks_grid(wing, 3, 2, {0, 0, 0}, true), (RanksGrid{1, 1, 2}));
  const std::int64_t pipe[3] = {4096, 64, 64};  // 64 times longer: x slabs still win
  EXPECT_EQ(choose_ranks_grid(pipe, 3, 2, {0, 0, 0}, true), (RanksGrid{2, 1, 1}));
  EXPECT_EQ(choose_ranks_grid(cube, 3, 2, {2, 1, 1}, true), (RanksGrid{2, 1, 1}));  // a request is kept
}

TEST(ParallelDecomposition, BlocksTileTheGridAndFindTheirNeighbours) {
  const std::int64_t n[3] = {17, 10, 7};
  const RanksGrid g{3, 2, 2};
  std::set<std::int64_t> seen;
  std::int64_t total = 0;
  for (int r = 0; r < 12; ++r) {
    const Block b = block_of(r, g, n, /*periodic=*/0b010);
    total += b.cells();
    for (std::int64_t z = b.lo[2]; z < b.hi[2]; ++z)
      for (std::int64_t y = b.lo[1]; y < b.hi[1]; ++y)
        for (std::int64_t x = b.lo[0]; x < b.hi[0]; ++x) EXPECT_TRUE(seen.insert(x + n[0] * (y + n[1] * z)).second);
    // x not periodic: the outer blocks have no neighbour there; y periodic with 2 ranks: the other one, twice.
    EXPECT_EQ(b.neighbour[0][0] < 0, b.coords[0] == 0);
    EXPECT_EQ(b.neighbour[0][1] < 0, b.coords[0] == 2);
    EXPECT_GE(b.neighbour[1][0], 0);
    EXPECT_EQ(b.neighbour[1][0], b.neighbour[1][1]);
    EXPECT_NE(b.neighbour[1][0], r);
  }
  EXPECT_EQ(total, n[0] * n[1] * n[2]);
  EXPECT_EQ(std::int64_t(seen.size()), total);
}

DomainData test_domain() {
  DomainData d;
  d.nx = 12;
  d.ny = 8;
  d.nz = 1;
  d.flags.assign(std::size_t(d.cells()), cell::fluid);
  d.link.assign(std::size_t(d.cells()), -1);
  d.flags[5 + 12 * 4] = cell::solid;
  d.flags[6 + 12 * 4] = cell::solid;
  for (std::int64_t y = 0; y < 8; ++y) d.flags[std::size_t(12 * y)] = cell::inlet;
  for (std::int64_t n : {4 + 12 * 4, 7 + 12 * 4, 5 + 12 * 3, 6 + 12 * 5}) {
    d.flags[std::size_t(n)] = cell::fluid | cell::near_wall;
    d.link[std::size_t(n)] = std::int32_t(d.wall_cells.size());
    d.wall_cells.push_back(n);
    for (int i = 0; i < 9; ++i) d.q.push_back(float(n) + 0.01f * float(i));
  }
  return d;
}

TEST(ParallelDecomposition, CutBlockKeepsTypesMarksGhostsAndRenumbersWallLinks) {
  const DomainData g = test_domain();
  const std::int64_t n[3] = {12, 8, 1};
  const RanksGrid grid{2, 2, 1};
  std::int64_t wall_rows = 0;
  for (int r = 0; r < 4; ++r) {
    const Block b = block_of(r, grid, n, /*periodic=*/0b010);  // y periodic
    const DomainData d = cut_block(g, b, 9);
    EXPECT_EQ(d.global_n[0], 12);
    EXPECT_EQ(d.ny, 8 / 2 + 2);  // ghosts on both y sides (periodic)
    EXPECT_EQ(d.nx, 6 + 1);      // one ghost layer towards the other x block only
    for (std::int64_t y = 0; y < d.ny; ++y)
      for (std::int64_t x = 0; x < d.nx; ++x) {
        const std::int64_t gx = x + d.origin[0], gy = ((y + d.origin[1]) % 8 + 8) % 8;
        const std::uint8_t want = g.flags[std::size_t(gx + 12 * gy)];
        const std::uint8_t got = d.flags[std::size_t(x + d.nx * y)];
        const bool owned = gx >= b.lo[0] && gx < b.hi[0] && y + d.origin[1] >= b.lo[1] && y + d.origin[1] < b.hi[1];
        EXPECT_EQ(got & cell::type_mask, want & cell::type_mask);
        EXPECT_EQ(bool(got & cell::ghost), !owned);
        if (owned && d.link[std::size_t(x + d.nx * y)] >= 0) {
          const auto row = std::size_t(d.link[std::size_t(x + d.nx * y)]);
          EXPECT_EQ(d.wall_cells[row], x + d.nx * y);
          EXPECT_EQ(d.q[row * 9 + 3], g.q[std::size_t(g.link[std::size_t(gx + 12 * gy)]) * 9 + 3]);
        }
      }
    wall_rows += std::int64_t(d.wall_cells.size());
  }
  EXPECT_EQ(wall_rows, 4);  // every wall cell belongs to exactly one rank
}

TEST(ParallelDecomposition, HaloMessagesMatchBetweenNeighbours) {
  const std::int64_t n[3] = {20, 12, 9};
  const RanksGrid grid{2, 3, 1};
  DomainData g;
  g.nx = n[0];
  g.ny = n[1];
  g.nz = n[2];
  g.flags.assign(std::size_t(g.cells()), cell::fluid);
  g.link.assign(std::size_t(g.cells()), -1);
  // (sender, receiver, tag) → populations in the message
  std::map<std::tuple<int, int, int>, std::size_t> sent, received;
  for (int r = 0; r < 6; ++r) {
    const Block b = block_of(r, grid, n, /*periodic=*/0b011);
    const HaloPlan p = halo_plan(b, cut_block(g, b, 19), Stencil::D3Q19);
    for (const auto& l : p.send) {
      EXPECT_EQ(l.dirs.size(), 5u);  // D3Q19: five directions cross each face
      sent[{r, l.peer, l.tag}] += l.cells.size() * l.dirs.size();
    }
    for (const auto& l : p.recv) received[{l.peer, r, l.tag}] += l.cells.size() * l.dirs.size();
  }
  EXPECT_EQ(sent, received);
  EXPECT_FALSE(sent.empty());
}

}  // namespace
}  // namespace aerolbm
