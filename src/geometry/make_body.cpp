#include "src/geometry/make_body.hpp"

#include <algorithm>
#include <cmath>

#include "src/geometry/cylinder.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"
#include "src/geometry/selig.hpp"

namespace aerolbm {

int naca_points_per_side(double chord_cells) {
  return std::max(200, static_cast<int>(std::ceil(2.0 * chord_cells)));
}

std::unique_ptr<Body> make_body(const Case& c) {
  if (c.geometry == GeometryType::None) return nullptr;
  const double L = c.chord_cells;
  // load_case validates this too; repeated here because a Case can also be built in code (tests, sweeps).
  if (!(L > 0) || !std::isfinite(L) || L > 1e7)
    throw CaseError("geometry.chord_cells = " + std::to_string(L) +
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
        throw CaseError("geometry.file: geometry.type is selig but no coordinate file is given; set geometry.file "
                        "to a Selig .dat file");
      return std::make_unique<PolygonBody>(read_selig(c.selig_file), placement);
    case GeometryType::Cylinder:
      return std::make_unique<CylinderBody>(pivot, 0.5 * L);
    case GeometryType::None:
      break;
  }
  return nullptr;
}

}  // namespace aerolbm
