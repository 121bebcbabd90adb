#pragma once
// The hand-over between a refined level and the next finer one (kernels/physics/refinement.hpp), applied to the two
// levels' halo buffers (Backend::halo_buffer) where they live: on the host for the CPU backend; for CUDA by device
// kernels on the levels' one stream (Backend::join_stream), ordered behind the packs and steps queued before them,
// so that a coarse step with its fine sub-steps goes out without waiting for the host (src/solver/refined_levels.cpp
// packs and unpacks around each call).
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
};

// The halo lists (Backend::halo_register) of one interface: on the coarse level the parents and the ring, on the
// fine level the ghost band and the children under the ring; every list holds all Q directions.
struct LevelCouplingLists {
  int parents = -1, ring = -1;
  int ghosts = -1, children = -1;
};

class LevelCoupling {
 public:
  virtual ~LevelCoupling() = default;
  // Ghost buffer ← the explosion of the parents buffer: per ghost and population the mean of the two sub-steps'
  // child values.
  virtual void explode() = 0;
  // The crossings of the state in the children buffer, fine sub-step `sub` of two: sub 0 sums = pending + them;
  // sub 1 sums += ½ them and pending = ½ them (the half handed over with the next coarse step).
  virtual void take_crossings(int sub) = 0;
  // Ring buffer ← the coalesced sums (the children buffer's mean for a direction without crossings).
  virtual void coalesce() = 0;
  // pending = ½ the crossings of the state in the children buffer (after the states were written).
  virtual void restart_pending() = 0;
  // What is in transit (ring × Q, shifted values times their weights), in double; read waits for the work queued.
  virtual void read_pending(std::vector<double>& out) = 0;
  virtual void write_pending(const std::vector<double>& in) = 0;
};

// For two backends of one kind with those halo lists registered (coarse: parents, ring; fine: ghosts, children);
// `threads`: the CPU form's OpenMP threads (BackendConfig::threads; 0: OpenMP's default).
std::unique_ptr<LevelCoupling> make_level_coupling(Backend& coarse, Backend& fine, const LevelCouplingLists& lists,
                                                   const LevelCouplingTables& tables, int threads = 0);
// The CUDA form (kernels/cuda/level_coupling.cu); CPU-only builds throw.
std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend& coarse, Backend& fine,
                                                        const LevelCouplingLists& lists,
                                                        const LevelCouplingTables& tables);

}  // namespace aerolbm
