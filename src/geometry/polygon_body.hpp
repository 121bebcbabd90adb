#pragma once
// A 2D section (any closed polygon given in chord units) placed in the lattice: scaled to L cells per chord,
// rotated by the angle of attack about its pivot and moved so that the pivot lands at a lattice position. It
// extends through the whole span, so z is ignored.
#include <cstdint>
#include <vector>

#include "src/geometry/body.hpp"
#include "src/geometry/polygon2d.hpp"

namespace aerolbm {

struct SectionPlacement {
  double scale = 1;                   // lattice cells per chord (L)
  double angle_of_attack_deg = 0;     // positive = nose up: the section turns clockwise (by −α) about the pivot
  Point2 pivot_section = {0.25, 0};   // pivot in section units (quarter chord)
  Point2 pivot_lattice = {0, 0};      // where the pivot lands, lattice coordinates
};

// Section point → lattice point under the placement (the transform PolygonBody applies to every vertex).
Point2 place_point(const Point2& section_point, const SectionPlacement& placement);

class PolygonBody final : public Body {
 public:
  // Throws std::invalid_argument for fewer than 3 vertices or a non-positive/non-finite scale.
  PolygonBody(const std::vector<Point2>& section, const SectionPlacement& placement);

  // Even-odd rule on (x, y).
  bool inside(const Vec3& p) const override;
  // Smallest t over all edges crossed by the segment a→b (in x-y).
  std::optional<double> intersect(const Vec3& a, const Vec3& b) const override;
  std::vector<Vec3> outline() const override;
  // z spans ±infinity: the section is extruded through the whole span; callers clip to their grid.
  std::array<Vec3, 2> bounds() const override;

  const std::vector<Point2>& vertices() const { return v_; }

 private:
  std::size_t band_of(double y) const;

  std::vector<Point2> v_;  // placed vertices; edge i runs v_[i] → v_[(i+1) % n]
  double xmin_ = 0, xmax_ = 0, ymin_ = 0, ymax_ = 0;
  // Edges bucketed by horizontal band (CSR layout): a point test or a short link only looks at the few edges
  // whose y-range overlaps its band, instead of all of them; a mask of 10^6 cells then costs O(cells), not
  // O(cells · vertices).
  double band_scale_ = 0;  // bands per lattice unit of y
  std::size_t n_bands_ = 1;
  std::vector<std::uint32_t> band_start_;
  std::vector<std::uint32_t> band_edges_;
};

}  // namespace aerolbm
