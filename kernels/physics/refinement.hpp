#pragma once
// Grid refinement, ratio 2, cell-centred and volumetric (Rohde et al. 2006; docs/grid_refinement.md): the rules by
// which populations cross between a level and the next finer one. Each level is a plain grid with its own lattice
// units (Δx and Δt halve, τ − ½ doubles, the lattice velocity stays), stepped by the ordinary kernels; what crosses
// an interface is set in the finer level's ghost band (two fine cells: one coarse cell) and in the coarse cells the
// fine level covers (its ring next to the uncovered cells), once per coarse step, as volumes:
//
// - explosion (coarse → fine): a ghost's population i for the first fine sub-step is its parent's post-collision
//   value; for the second it is the value that one fine step of pure streaming inside the band brings to it, the
//   parent's of the ghost at −c_i (the ghost's own parent where −c_i leaves the band). Over the two sub-steps each
//   of the 2^D children of a coarse cell then enters the fine level exactly once along every c_i that points into
//   it, convex corners included: the coarse cell's mass along c_i, f_i V, is what the fine level receives.
// - coalescence (fine → coarse): a covered coarse cell G's population i, which the coarse cell at G + c_i pulls, is
//   the sum of the fine populations i that leave the fine level's owned cells from G's children (see
//   src/solver/refined_levels.cpp for which children count for which G) over the fine states t − ½, t and t + ½
//   with weights ½, 1, ½, divided by 2^D: centred on the coarse state's time t. Half of each second sub-step's
//   crossings wait for the next coarse step; every one is handed over once in all, so what the coarse level
//   receives is exactly what left the fine level.
//
// Across the faces and edges of a box, mass and momentum are then conserved to rounding (each population's volume
// is handed over unchanged); at its corners, see coalesced().
#include <cstdint>

#include "kernels/physics/hd.hpp"

namespace aerolbm::refinement {

// floor(v / 2): the coarser level's coordinate of a finer level's cell (both in their level's global coordinates).
AEROLBM_HD std::int64_t parent_coordinate(std::int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// The coarse value of a population from the sum of the `count` fine values that crossed over the two fine
// sub-steps (shifted storage, equilibrium.hpp), on a lattice of D dimensions. Across a face or an edge count = 2^D,
// and the coarse cell receives exactly what left the fine level: the sum over 2^D (a power of two, exact). At a
// corner of the box fewer children send along a diagonal than a coarse population holds; there it is their mean,
// which keeps a uniform state uniform at the price of exact conservation in that one cell.
template <int D>
AEROLBM_HD double coalesced(double sum_shifted, double count) {
  return count == double(1 << D) ? sum_shifted / double(1 << D) : sum_shifted / count;
}

}  // namespace aerolbm::refinement
