#pragma once
// A solid body placed in lattice coordinates: cell (i, j, k) has its centre at (i+½, j+½, k+½), so a half-way wall
// around the grid lies at 0 and n. 2D bodies ignore z (they extend through the whole span).
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace aerolbm {

using Vec3 = std::array<double, 3>;

class Body {
 public:
  virtual ~Body() = default;
  // True when the point lies inside the solid.
  virtual bool inside(const Vec3& p) const = 0;
  // Fraction t in [0, 1] along the segment a→b where it first crosses the surface (a is outside, b inside);
  // nullopt if it does not cross.
  virtual std::optional<double> intersect(const Vec3& a, const Vec3& b) const = 0;
  // Closed outline in lattice coordinates (2D bodies: the section in the x-y plane, ordered, first point not
  // repeated). Used for surface output and plots.
  virtual std::vector<Vec3> outline() const = 0;
  // Axis-aligned bounding box {min, max} in lattice coordinates.
  virtual std::array<Vec3, 2> bounds() const = 0;
};

}  // namespace aerolbm
