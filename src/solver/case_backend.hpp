#pragma once
// The backend a case runs on, once its grid is built: one backend over the grid, or with refinement.boxes the
// refined levels (src/solver/refined_levels.hpp) on it, which are a backend over the same grid. assemble_solver and
// `aerolbm bench --case` make theirs here.
#include <cstdint>
#include <memory>

#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/solver/refined_levels.hpp"

namespace aerolbm {

// `d` is the case's grid (build_domain) and `p` its physics. With refinement.boxes, level ℓ's grid is the part of
// the case around its box built at 2^ℓ times the reference cells (its body voxelised there; never the whole domain
// at that resolution) and level ℓ's box the entry ℓ − 1 in that level's cells. Throws CaseError for boxes the
// refined levels cannot couple (too close to a face or to each other, a body in an interface band),
// BackendUnavailable as select_backend does.
std::unique_ptr<Backend> make_case_backend(BackendKind which, const BackendConfig& cfg, const Case& c,
                                           const LatticeUnits& u, const DomainData& d, const PhysicsParams& p);

// The refined levels of a case with refinement.boxes as make_case_backend builds them (grids, bands, hand-over
// tables; the same CaseError for boxes they cannot couple), without backends: nothing is allocated for the
// populations (`aerolbm check`; RefinedLevels' plan_only).
std::unique_ptr<RefinedLevels> plan_case_levels(const BackendConfig& cfg, const Case& c, const LatticeUnits& u,
                                                const DomainData& d, const PhysicsParams& p);

// Entry i of refinement.boxes as level i + 1's box in the cells of level i (its global coordinates).
RefinedBox refined_box(const Case& c, const LatticeUnits& u, std::size_t i);

// Cells of every level's grid (level 0's, then each box at its resolution with its band, an upper bound where a
// box lies on a face): what a refined case stores, for the resource estimate.
double refined_grid_cells(const Case& c, const LatticeUnits& u);
// The cells built for the finer levels while the run is set up (each level's box, band and one cell more, at its
// resolution: build_domain with a region), at most.
double refined_setup_cells(const Case& c, const LatticeUnits& u);

// Cell updates a step of `b` makes: every level's own cells times its sub-steps for refined levels, else the
// grid's cells (the MLUPs of runs and benchmarks).
std::int64_t cell_updates_per_step(const Backend& b, const DomainData& d);

}  // namespace aerolbm
