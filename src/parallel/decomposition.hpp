#pragma once
// The grid cut into blocks, one per MPI rank (no MPI here: the arithmetic is tested without it). Every rank
// builds the global domain, then cuts out its block plus one ghost layer on each side that borders another rank
// (periodic axes that are split wrap to the rank at the other end). Ghost cells keep the global cell type and
// carry cell::ghost: streaming reads them like any neighbour, the update skips them, and after every step the
// populations that stream into this block are received into them (HaloPlan). One ghost layer is all the pull
// scheme, the interpolated walls and the open boundaries read, so a split run is bit-identical to one rank.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/backend.hpp"

namespace aerolbm {

using RanksGrid = std::array<int, 3>;  // ranks along x, y, z

// "4", "2x2", "2x1x1" → ranks grid (missing factors are 1). Throws std::invalid_argument with what to write.
RanksGrid parse_ranks_grid(const std::string& text);
std::string format_ranks_grid(const RanksGrid& g);

// The split of `ranks` ranks over a grid of n cells. `requested`: all zeros to choose (the split with the fewest
// halo cells per rank, slabs along x on a tie; with `device` (GPU ranks) faces across x count 8 times, being
// strided in memory, and ties go to z, then y), else used as given after checking. Every block is at least 2
// cells wide along a split axis (an open-boundary cell reads its neighbour's full state). dims = 2 never splits
// z. Throws std::invalid_argument saying what to change.
RanksGrid choose_ranks_grid(const std::int64_t (&n)[3], int dims, int ranks, const RanksGrid& requested,
                            bool device = false);

struct Block {
  int rank = 0;
  int coords[3] = {0, 0, 0};       // position in the ranks grid
  std::int64_t lo[3] = {0, 0, 0};  // owned cells [lo, hi), global coordinates
  std::int64_t hi[3] = {0, 0, 0};
  int neighbour[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // rank across the low / high side, −1: a global face
  std::int64_t cells() const { return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]); }
  bool ghost(int axis, int side) const { return neighbour[axis][side] >= 0; }
};

// periodic: bit a set when axis a wraps around. Ranks are numbered x fastest: rank = cx + gx (cy + gy cz).
Block block_of(int rank, const RanksGrid& grid, const std::int64_t (&n)[3], std::uint8_t periodic);

// The rank's block of the global domain with its ghost layers: flags (ghosts marked), wall links renumbered,
// origin and global size set.
DomainData cut_block(const DomainData& global, const Block& b, int q);

// The physics parameters of a block: a periodic axis split over ranks no longer wraps locally (its ghost layers
// do the wrapping), so its faces are set to Wall, which no owned cell ever reaches.
PhysicsParams block_params(PhysicsParams p, const RanksGrid& grid);

// One message of the halo exchange: `cells` (local indices) × `dirs` populations, to or from `peer`.
struct HaloList {
  int axis = 0, side = 0;  // which face of the block
  int peer = -1;
  int tag = 0;             // mpi_tag::face(axis, travels towards +axis) (src/parallel/mpi_tags.hpp)
  std::vector<std::int64_t> cells;
  std::vector<int> dirs;
};

// Axis by axis (x, then y including the x ghosts, then z including both), so that edge and corner ghosts are
// filled through the face neighbours. send[k] and recv[k] belong to the same phase when their axis matches.
struct HaloPlan {
  std::vector<HaloList> send, recv;
};
HaloPlan halo_plan(const Block& b, const DomainData& local, Stencil s);

// Lattice velocity component c_i along axis a, at run time.
int lattice_c(Stencil s, int i, int a);

}  // namespace aerolbm
