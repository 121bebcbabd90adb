#pragma once
// The one place that turns a case's geometry section into a Body placed in lattice coordinates.
#include <memory>

#include "src/case/case.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

// Points per NACA surface: at least 200, and about two per cell of chord so facets stay below a cell.
int naca_points_per_side(double chord_cells);

// naca4 / selig: the section scaled to chord_cells, turned by the angle of attack about its quarter chord,
// the quarter chord at body_position_chords × chord_cells. cylinder: diameter chord_cells, centre at
// body_position_chords × chord_cells. none: nullptr. Throws CaseError for a bad code, a bad Selig file or a
// non-positive chord_cells.
std::unique_ptr<Body> make_body(const Case& c);

}  // namespace aerolbm
