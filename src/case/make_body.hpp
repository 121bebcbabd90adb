#pragma once
// The one place that turns a case's geometry section into a Body placed in lattice coordinates: the case layer's
// use of src/geometry (which knows nothing of cases). Bad geometry input throws GeometryError.
#include <array>
#include <memory>
#include <optional>

#include "src/case/case.hpp"
#include "src/geometry/body.hpp"
#include "src/geometry/geometry_error.hpp"
#include "src/geometry/wing.hpp"

namespace aerolbm {

// Points per NACA surface: at least 200, and about two per cell of chord so facets stay below a cell.
int naca_points_per_side(double chord_cells);

// naca4 / selig: the section scaled to chord_cells, turned by the angle of attack about its quarter chord,
// the quarter chord at body_position_chords × chord_cells. cylinder: diameter chord_cells, centre at
// body_position_chords × chord_cells. none: nullptr. Throws GeometryError for a bad code, a bad Selig file or a
// non-positive chord_cells.
//
// wing: the wing of geometry.section (and tip_section) lofted by src/geometry/wing, its root quarter chord at
// body_position_chords × chord_cells (z = 0 for a half wing), with the wing's own force reference.
// stl: the file's mesh scaled by chord_cells / units_per_reference cells per model unit, turned by the angle of
// attack about geometry.pivot, the pivot at body_position_chords × chord_cells. Its force reference: length =
// chord_cells, area = geometry.reference_area × chord_cells² or, left out, the x-z extent of the placed mesh's
// bounding box, moment point = the pivot.
// For both, forces.reference_area and forces.moment_point replace the area and the moment point.
std::unique_ptr<Body> make_body(const Case& c);

// The wing's shape (sections at `points_per_side`) from the case's geometry keys. Throws GeometryError for a bad
// section (NACA code or Selig file).
WingShape wing_shape(const Case& c, int points_per_side);

// wing and stl: the body's bounding box in reference lengths, domain coordinates (a coarse wing mesh; the STL file
// is read). Throws GeometryError for a bad section or STL file. Other types: std::nullopt.
std::optional<std::array<Vec3, 2>> body_extent_chords(const Case& c);

}  // namespace aerolbm
