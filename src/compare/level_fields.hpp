#pragma once
// A refined run's levels in a comparison (refinement.boxes, RUN/levels/level<N>/). The top-level frames of a
// refined run are level 0's grid, the cells under a box filled with the mean of their children, so comparing them
// alone says how the two runs agree at level 0's resolution. Here each refined level's own cells are compared at
// that level's resolution: against the other run's finest data at each point (its own level there, or its uniform
// grid, interpolated as resample does). Each point of the domain is compared once, by the finest level that owns it.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "src/compare/comparison.hpp"

namespace aerolbm {

// The part of a level's grid that its own cells cover, in reference lengths (cell faces): the grid without the band
// of two of its cells that lies over the coarser level, which a side on the domain's face does not have. A run's
// top grid (level 0) owns all of itself.
struct OwnRegion {
  int dims = 2;
  std::array<double, 3> lo{}, hi{};
  bool contains(const FieldGrid& g, std::int64_t point) const;
};
OwnRegion own_region(const FieldGrid& level, const FieldGrid& top);

// `field` (`components` per point) of `run` at the frame of time `time` (within `tol`), sampled at every point of
// `to`, each point from the finest of the run's grids whose own region holds it and whose frame has the field (its
// refined levels, finest first, then its top grid), bi/trilinearly, leaving out points whose interpolation touches
// a solid cell of that grid.
Resampled sample_finest(const RunFolder& run, double time, double tol, const std::string& field, int components,
                        const FieldGrid& to);

// Every refined level of the reference run (A if it is refined, else B) at each pair of common frame times
// (A's time, B's time): its own cells not under the next level's box, every field both runs wrote, as B against A.
std::vector<LevelComparison> compare_levels(const RunFolder& a, const RunFolder& b,
                                            const std::vector<std::pair<double, double>>& times, double tol);

}  // namespace aerolbm
