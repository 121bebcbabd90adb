#pragma once
// What a run's moments are taken about and its coefficients divided by (ForceReference), in level 0's lattice
// units: the body's own (a wing's planform area and mean chord, an STL body's) or, for bodies without one
// (sections, cylinders), the reference length × the span (one cell in 2D) about the pivot (a section's quarter
// chord, a cylinder's centre), moved by forces.moment_point. In 2D the moment point sits in the one layer's centre,
// so that only the moment about z is left. nullopt without a body. Simulation and run_averaged (the sweep) both
// take it from here.
#include <optional>

#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

std::optional<ForceReference> force_reference(const Case& c, const LatticeUnits& u, const Body* body);

}  // namespace aerolbm
