#include "src/case/make_body.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "src/geometry/cylinder.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"
#include "src/geometry/selig.hpp"
#include "src/geometry/stl.hpp"
#include "src/geometry/stl_body.hpp"
#include "src/geometry/wing.hpp"

namespace aerolbm {
namespace {

std::vector<Point2> section_points(const SectionSource& s, int n) {
  if (!s.naca_code.empty()) return naca_outline(s.naca_code, n);
  return resample_section(read_selig(s.file), n);
}

Vec3 pivot_lattice(const Case& c) {
  const double L = c.chord_cells;
  return {c.body_position_chords[0] * L, c.body_position_chords[1] * L,
          is_half_model(c) ? 0.0 : c.body_position_chords[2] * L};
}

StlPlacement stl_placement(const Case& c, double scale_per_reference) {
  StlPlacement pl;
  pl.scale = scale_per_reference / c.stl_units_per_reference;
  pl.angle_of_attack_deg = c.angle_of_attack_deg;
  pl.pivot_model = c.stl_pivot;
  return pl;
}

void apply_force_overrides(const Case& c, const Vec3& pivot, ForceReference& ref) {
  const double L = c.chord_cells;
  // Given for the whole wing; a half model carries half of it (as ForceReference::area says).
  if (c.forces_reference_area > 0) ref.area = c.forces_reference_area * L * L * (is_half_model(c) ? 0.5 : 1.0);
  if (c.has_moment_point)
    for (int a = 0; a < 3; ++a) ref.moment_point[a] = pivot[a] + c.forces_moment_point[a] * L;
}

std::unique_ptr<Body> make_wing(const Case& c) {
  const double L = c.chord_cells;
  const Vec3 pivot = pivot_lattice(c);
  std::unique_ptr<StlBody> body;
  try {
    body = make_wing_body(wing_shape(c, wing_points_per_side(L)), L, c.angle_of_attack_deg, pivot);
  } catch (const std::invalid_argument& e) {
    throw GeometryError(c.source_file.string() + ": geometry: " + e.what() +
                    "; check the wing's keys (span, taper/tip_chord, sweep_deg, dihedral_deg, twist_deg, section).");
  }
  ForceReference ref = *body->reference();
  apply_force_overrides(c, pivot, ref);
  body->set_reference(ref);
  return body;
}

std::unique_ptr<Body> make_stl(const Case& c) {
  if (c.stl_file.empty())
    throw GeometryError("geometry.file: geometry.type is stl but no STL file is given; set geometry.file");
  const double L = c.chord_cells;
  StlPlacement pl = stl_placement(c, L);
  pl.pivot_lattice = pivot_lattice(c);
  auto body = std::make_unique<StlBody>(read_stl(c.stl_file).triangles, pl);
  const auto box = body->bounds();
  ForceReference ref;
  ref.length = L;
  ref.area = c.stl_reference_area > 0 ? c.stl_reference_area * L * L
                                      : (box[1][0] - box[0][0]) * (box[1][2] - box[0][2]);
  ref.moment_point = pl.pivot_lattice;
  ref.span_axis = 2;
  apply_force_overrides(c, pl.pivot_lattice, ref);
  body->set_reference(ref);
  return body;
}

}  // namespace

WingShape wing_shape(const Case& c, int n) {
  WingShape w;
  w.root = section_points(c.wing_section, n);
  if (!c.wing_tip_section.empty()) w.tip = section_points(c.wing_tip_section, n);
  w.span = c.wing_span;
  w.tip_chord = c.wing_tip_chord;
  w.sweep_deg = c.wing_sweep_deg;
  w.dihedral_deg = c.wing_dihedral_deg;
  w.twist_deg = c.wing_twist_deg;
  w.half = c.wing_half;
  return w;
}

std::optional<std::array<Vec3, 2>> body_extent_chords(const Case& c) {
  std::vector<Triangle> model;
  StlPlacement pl;
  if (c.geometry == GeometryType::Wing) {
    try {
      // Coarse: the box of a ruled loft is that of its stations; a few suffice for the twist's curvature.
      model = wing_mesh(wing_shape(c, 32), 32, 8);
    } catch (const std::invalid_argument& e) {
      throw GeometryError(std::string("geometry: ") + e.what());
    }
    pl.angle_of_attack_deg = c.angle_of_attack_deg;
  } else if (c.geometry == GeometryType::Stl) {
    model = read_stl(c.stl_file).triangles;
    pl = stl_placement(c, 1.0);
  } else {
    return std::nullopt;
  }
  pl.pivot_lattice = {c.body_position_chords[0], c.body_position_chords[1],
                      is_half_model(c) ? 0.0 : c.body_position_chords[2]};
  std::array<Vec3, 2> box{place_point(model[0][0], pl), place_point(model[0][0], pl)};
  for (const Triangle& t : model)
    for (const Vec3& v : t) {
      const Vec3 p = place_point(v, pl);
      for (int a = 0; a < 3; ++a) box[0][a] = std::min(box[0][a], p[a]), box[1][a] = std::max(box[1][a], p[a]);
    }
  return box;
}

int naca_points_per_side(double chord_cells) {
  return std::max(200, static_cast<int>(std::ceil(2.0 * chord_cells)));
}

std::unique_ptr<Body> make_body(const Case& c) {
  if (c.geometry == GeometryType::None) return nullptr;
  const double L = c.chord_cells;
  // load_case validates this too; repeated here because a Case can also be built in code (tests, sweeps).
  if (!(L > 0) || !std::isfinite(L) || L > 1e7)
    throw GeometryError("geometry.chord_cells = " + std::to_string(L) +
                    " must be a positive number of cells (at most 1e7)");
  const Point2 pivot = {c.body_position_chords[0] * L, c.body_position_chords[1] * L};

  SectionPlacement placement;
  placement.scale = L;
  placement.angle_of_attack_deg = c.angle_of_attack_deg;
  placement.pivot_section = {0.25, 0.0};
  placement.pivot_lattice = pivot;

  switch (c.geometry) {
    case GeometryType::Naca4:
      return std::make_unique<PolygonBody>(naca4_outline(c.naca_code, naca_points_per_side(L)), placement);
    case GeometryType::Selig:
      if (c.selig_file.empty())
        throw GeometryError("geometry.file: geometry.type is selig but no coordinate file is given; set geometry.file "
                        "to a Selig .dat file");
      return std::make_unique<PolygonBody>(read_selig(c.selig_file), placement);
    case GeometryType::Cylinder:
      return std::make_unique<CylinderBody>(pivot, 0.5 * L);
    case GeometryType::Wing:
      return make_wing(c);
    case GeometryType::Stl:
      return make_stl(c);
    case GeometryType::None:
      break;
  }
  return nullptr;
}

}  // namespace aerolbm
