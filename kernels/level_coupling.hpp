#pragma once
// The hand-over between a refined level and the next finer one (kernels/physics/refinement.hpp), on the two levels'
// lattices in place (LatticeOwner), value by value (refinement::explode_value, crossings_value, ring_value): on the
// host for the CPU backend (OpenMP loops), by device kernels on the levels' one stream for CUDA
// (Backend::join_stream), ordered behind the steps queued before them, so that a coarse step with its fine sub-steps
// goes out without waiting for the host, with three launches per interface and coarse step on the device
// (src/solver/refined_levels.cpp calls them in order).
// Only the values an own cell reads are computed; the rest of the band and the ring is never read.
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/backend.hpp"

namespace aerolbm {

// What src/solver/refined_levels.cpp works out once per interface (refinement::CouplingView describes each
// table): every table laid out by the value it computes, cells as indices into their level's grid.
struct LevelCouplingTables {
  int dims = 2;
  int q = 9;
  std::int64_t ring = 0;  // ring cells
  // The band's values that an own cell reads (population i of ghost g, pulled by the own cell at g + c_i, or its
  // mirror image across a free-slip face): their population, fine cell, and per fine sub-step the parent slot and
  // which of its children (bit a: the upper half along axis a) the value stands for; read_dir1: the population the
  // second sub-step's value comes as (read_dir, or mirrored across a free-slip face).
  std::vector<std::uint8_t> read_dir, read_dir1, read_child[2];
  std::vector<std::int32_t> read_cell, read_source[2];
  std::vector<std::int32_t> neighbour;     // parents proper × 6 (refinement::child_value): parent slots, −1, or
                                           // refinement::kMirrorImage
  std::vector<std::uint8_t> mirror;        // 3 × Q: population i mirrored along axis a
  std::vector<std::int64_t> parent_cells;  // parent slot → coarse cell (the parents, then their neighbours)
  // The ring's values that are read (r × Q + i, with crossings or pulled by an uncovered cell), ascending; the
  // others are never computed.
  std::vector<std::int32_t> ring_reads;
  std::vector<std::int32_t> cross_begin;      // ring × Q + 1 (refinement::crossing_sum)
  std::vector<std::int32_t> cross_cell;       // per crossing: the child's fine cell
  std::vector<std::uint8_t> cross_dir;        // and its population that crosses (i, or mirrored on its way)
  std::vector<double> cross_weight;
  std::vector<std::int32_t> ring_child_cell;  // ring × 2^D: the children's fine cells
  std::vector<std::int32_t> ring_cell;        // the ring's coarse cells
  // Per ring value read (refinement::ring_value): the ring values, two ring cells away along the ring, that it
  // exchanges with (CSR over ring_reads, indices into it; symmetric: each pair both ways).
  std::vector<std::int32_t> along_begin, along;
};

class LevelCoupling {
 public:
  virtual ~LevelCoupling() = default;
  // Before the fine level's two sub-steps: its ghost band gets the explosion of the coarse level's current state,
  // per ghost and population the mean of the two sub-steps' child values, for both sub-steps.
  virtual void explode() = 0;
  // Before fine sub-step `sub` (0, then 1): the crossings of the fine level's current state. Sub 0: sums = them;
  // sub 1: the coarse level's ring gets the coalesced sums of both (the children's mean of this state for a
  // direction without crossings), with the exchange along the ring (refinement::ring_value), ready for the coarse
  // step that follows the fine ones.
  virtual void before_sub_step(int sub) = 0;
  // explode() and before_sub_step(0) together: the two are independent (the explosion writes the fine level's
  // band, the crossings read its own cells), so the device form runs them as one launch, one kernel fewer to wait
  // for per interface and coarse step; the same values either way.
  virtual void explode_and_first_crossings() {
    explode();
    before_sub_step(0);
  }
};

class LatticeOwner;
// A level's backend as the hand-over uses it (both backends are LatticeOwners; throws for one that is not).
LatticeOwner& coupling_lattices(Backend& b);

// For two backends of one kind, both LatticeOwners; `threads`: the CPU form's OpenMP threads
// (BackendConfig::threads; 0: OpenMP's default).
std::unique_ptr<LevelCoupling> make_level_coupling(Backend& coarse, Backend& fine, const LevelCouplingTables& tables,
                                                   int threads = 0);
// The CUDA form (kernels/cuda/level_coupling.cu); CPU-only builds throw.
std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend& coarse, Backend& fine,
                                                        const LevelCouplingTables& tables);

}  // namespace aerolbm
