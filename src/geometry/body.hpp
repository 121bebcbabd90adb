#pragma once
// A solid body placed in lattice coordinates: cell (i, j, k) has its centre at (i+½, j+½, k+½), so a half-way wall
// around the grid lies at 0 and n. 2D bodies ignore z (they extend through the whole span).
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/geometry/mesh_voxel.hpp"

namespace aerolbm {

using Vec3 = std::array<double, 3>;
// Three vertices, counter-clockwise seen from outside the body (the outward normal is (b−a)×(c−a)).
using Triangle = std::array<Vec3, 3>;

// What force and moment coefficients are made dimensionless with, in lattice units. A body that returns none
// leaves the solver's defaults (2D: reference length × span; 3D: reference length²; moments about the pivot).
struct ForceReference {
  double length = 0;     // cells: the reference chord (mean aerodynamic chord for a wing), diameter for a cylinder
  double area = 0;       // cells²: planform area of the modelled body (half the wing's for a half wing)
  Vec3 moment_point{};   // lattice coordinates: moments are taken about this point
  int span_axis = 2;     // spanwise loads are binned along this axis
  bool half_model = false;  // a half wing on the symmetry plane z = 0: coefficients are those of the full wing
};

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
  // 3D bodies: the closed surface as triangles in lattice coordinates (surface Cp output). Empty for 2D bodies.
  virtual std::vector<Triangle> surface() const { return {}; }
  // Reference quantities for force and moment coefficients; nullopt keeps the solver's defaults.
  virtual std::optional<ForceReference> reference() const { return std::nullopt; }
  // Triangle-mesh bodies (StlBody): the mesh and its search grids as plain arrays, which the domain builder
  // voxelises in one batch (src/solver/mesh_voxelize, on the GPU when there is one); they point into the body and
  // stay valid while it lives. nullopt for the other bodies, whose cells are tested one by one through inside()
  // and intersect().
  virtual std::optional<MeshView> mesh() const { return std::nullopt; }
};

}  // namespace aerolbm
