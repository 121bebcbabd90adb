#pragma once
// A circular cylinder with its axis along z (a circle in every x-y section): the classic bluff-body validation
// case. Exact geometry, no polygon, so wall distances carry no faceting error.
#include "src/geometry/body.hpp"
#include "src/geometry/polygon2d.hpp"

namespace aerolbm {

class CylinderBody final : public Body {
 public:
  // Throws std::invalid_argument for a non-positive or non-finite radius.
  CylinderBody(const Point2& centre, double radius);

  // Points on the circle count as inside, so a fluid cell always sits strictly outside (intersect t > 0 for its
  // links into the solid).
  bool inside(const Vec3& p) const override;
  // Exact root of |a + t(b − a) − centre|² = r² in x-y.
  std::optional<double> intersect(const Vec3& a, const Vec3& b) const override;
  // 256-gon: for plots and surface output only; inside/intersect use the exact circle.
  std::vector<Vec3> outline() const override;
  // z spans ±infinity (the cylinder runs through the whole span); callers clip to their grid.
  std::array<Vec3, 2> bounds() const override;

  const Point2& centre() const { return c_; }
  double radius() const { return r_; }

 private:
  Point2 c_;
  double r_;
};

}  // namespace aerolbm
