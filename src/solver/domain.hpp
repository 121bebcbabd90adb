#pragma once
// Case + body → the discretised domain: cell flags, interpolated-wall table, and the lattice physics parameters.
#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

// A part of the case's grid: the cells lo ≤ x < hi along each axis (clamped to the grid).
struct GridRegion {
  std::int64_t lo[3] = {0, 0, 0};
  std::int64_t hi[3] = {0, 0, 0};
};

// Throws CaseError when the body does not fit in the domain with room to spare. With a region, only its cells are
// built (origin: its low corner, global_n: the whole grid's size), the body voxelised where it lies in them: a
// refined level's box without the whole domain at its resolution. A region cell's wall links toward cells outside
// the region are not recorded, so give it one cell more on every side than the cells whose links are needed.
DomainData build_domain(const Case& c, const LatticeUnits& u, const Body* body, const GridRegion* region = nullptr);

PhysicsParams physics_params(const Case& c, const LatticeUnits& u);

}  // namespace aerolbm
