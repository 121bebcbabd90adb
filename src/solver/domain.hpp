#pragma once
// Case + body → the discretised domain: cell flags, interpolated-wall table, and the lattice physics parameters.
#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

// Throws CaseError when the body does not fit in the domain with room to spare.
DomainData build_domain(const Case& c, const LatticeUnits& u, const Body* body);

PhysicsParams physics_params(const Case& c, const LatticeUnits& u);

}  // namespace aerolbm
