#pragma once
// The hand-over between a refined level and the next finer one (kernels/physics/refinement.hpp), where the levels'
// populations live: for the CPU backend on the host, through its halo buffers (Backend::halo_buffer: each call
// packs and unpacks the lists it needs); for CUDA by device kernels on the levels' one stream
// (Backend::join_stream) that read and write the two levels' lattices through the cell lists themselves, ordered
// behind the steps queued before them, so that a coarse step with its fine sub-steps goes out without waiting for
// the host and with three launches per interface (src/solver/refined_levels.cpp calls them in order).
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/backend.hpp"

namespace aerolbm {

// What src/solver/refined_levels.cpp works out once per interface (its Coupling describes each table).
struct LevelCouplingTables {
  int dims = 2;
  int q = 9;
  std::int64_t parents = 0;       // values per direction in the parents buffer (the parents, then their neighbours)
  std::int64_t parent_count = 0;  // the parents proper
  std::int64_t ghosts = 0, children = 0, ring = 0;  // values per direction in those buffers
  std::vector<std::int32_t> neighbour;              // parent_count × 6 (refinement::child_value)
  std::vector<std::int32_t> source[2];              // ghosts × Q, per fine sub-step: the parent
  std::vector<std::uint8_t> source_child[2];        // ... and which of its children
  std::vector<std::int32_t> cross_begin;            // ring × Q + 1 (refinement::crossing_sum)
  std::vector<std::int32_t> cross_child;
  std::vector<double> cross_weight;
  std::vector<std::int32_t> ring_children;          // ring × 2^D
  // The values an own cell reads, ascending: of the ghost buffer (i × ghosts + g: pulled by the own cell at the
  // ghost + c_i) and of the ring (r × Q + i: with crossings, or pulled by an uncovered cell). The CUDA form
  // computes only these; the others are never read (their sums and pending stay 0: they have no crossings).
  std::vector<std::int32_t> ghost_reads, ring_reads;
  // The cells behind those values, in their grids' cell indices: on the coarse level the parents (then their
  // neighbours) and the ring, on the fine level the ghost band and the children under the ring.
  std::vector<std::int64_t> parent_cells, ghost_cells, children_cells, ring_cells;
};

class LevelCoupling {
 public:
  virtual ~LevelCoupling() = default;
  // Before the fine level's two sub-steps: its ghost band gets the explosion of the coarse level's current state,
  // per ghost and population the mean of the two sub-steps' child values, for both sub-steps.
  virtual void explode() = 0;
  // Before fine sub-step `sub` (0, then 1): the crossings of the fine level's current state. Sub 0: sums = pending
  // + them; sub 1: sums += ½ them, pending = ½ them (the half handed over with the next coarse step), and the
  // coarse level's ring gets the coalesced sums (the children's mean of this state for a direction without
  // crossings), ready for the coarse step that follows the fine ones.
  virtual void before_sub_step(int sub) = 0;
  // pending = ½ the crossings of the fine level's current state (after the states were written).
  virtual void restart_pending() = 0;
  // What is in transit (ring × Q, shifted values times their weights), in double; read waits for the work queued.
  virtual void read_pending(std::vector<double>& out) = 0;
  virtual void write_pending(const std::vector<double>& in) = 0;
};

// For two backends of one kind (the host form registers the four lists as halo lists of all Q directions,
// Backend::halo_register); `threads`: the CPU form's OpenMP threads (BackendConfig::threads; 0: OpenMP's default).
std::unique_ptr<LevelCoupling> make_level_coupling(Backend& coarse, Backend& fine, const LevelCouplingTables& tables,
                                                   int threads = 0);
// The CUDA form (kernels/cuda/level_coupling.cu); CPU-only builds throw.
std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend& coarse, Backend& fine,
                                                        const LevelCouplingTables& tables);

}  // namespace aerolbm
