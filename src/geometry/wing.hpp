#pragma once
// A finite wing lofted from airfoil sections into a closed, outward-oriented triangle mesh, and placed in the
// lattice as an StlBody (the same inside/intersect code as imported STL meshes).
//
// Wing frame, in reference lengths (the root chord is 1): x downstream along the root chord, y up (lift), z along
// the span. The root quarter chord is the origin. A half wing spans z ∈ [0, span/2] with its root section on the
// symmetry plane z = 0; a full wing spans z ∈ [−span/2, span/2]. Both ends are capped with the section polygon,
// so the mesh is closed (a half wing's root cap lies on the symmetry plane).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "src/geometry/body.hpp"
#include "src/geometry/polygon2d.hpp"
#include "src/geometry/stl_body.hpp"

namespace aerolbm {

struct WingShape {
  std::vector<Point2> root;   // root section in chord units (leading edge (0, 0), chord 1), Selig order
  std::vector<Point2> tip;    // tip section, same structure as root (see wing_section_points); empty: as root
  double span = 4;            // full span (tip to tip), reference lengths, measured along z
  double tip_chord = 1;       // reference lengths (root chord = 1); taper ratio = tip_chord
  double sweep_deg = 0;       // leading-edge sweep: the tip's leading edge lies span/2·tan(sweep) downstream
  double dihedral_deg = 0;    // the tip's quarter chord lies span/2·tan(dihedral) above the root's
  double twist_deg = 0;       // geometric twist at the tip, linear along the span, about the local quarter chord,
                              // positive = nose up (washin); usually negative (washout)
  bool half = false;          // model z ≥ 0 only (symmetry plane at z = 0)
};

// A section as 2·n_per_side points in the order naca_outline gives: point 0 the (upper) trailing edge, point
// n_per_side the leading edge (the vertex with the smallest x), counter-clockwise. A NACA code ("0012", "2412",
// "23012") is built directly; a Selig outline is resampled along its arc length with cosine spacing on each
// side, so any two sections have corresponding points and can be lofted.
std::vector<Point2> resample_section(const std::vector<Point2>& selig_outline, int n_per_side);

// The mesh in the wing frame. `points_per_side`: points per section surface (≥ 4); `intervals_per_half`:
// spanwise intervals from root to tip (≥ 1). Throws std::invalid_argument for bad shapes (non-positive span or
// tip chord, |sweep| or |dihedral| ≥ 80°, |twist| > 45°, sections of different or too small sizes).
std::vector<Triangle> wing_mesh(const WingShape& shape, int points_per_side, int intervals_per_half);

// Projected (x-z) planform area of the modelled part (half of the full wing's for a half wing) and the mean
// aerodynamic chord of the trapezoid, both in reference lengths.
double wing_planform_area(const WingShape& shape);
double wing_mean_aerodynamic_chord(const WingShape& shape);

// Resolution used by make_wing_body for a wing of `cells_per_reference` cells per root chord: points per
// section side (about two per cell of chord, at least 200) and spanwise intervals (at most one cell apart).
int wing_points_per_side(double cells_per_reference);
int wing_intervals_per_half(const WingShape& shape, double cells_per_reference);

// The wing scaled to `cells_per_reference` cells per root chord, turned by the angle of attack about the root
// quarter chord (nose up positive for flow in +x, as for 2D sections) and moved so that the root quarter chord
// lands at `root_quarter_chord` (lattice coordinates). Its reference(): length = mean aerodynamic chord in
// cells, area = planform area of the modelled part in cells², moment point = the root quarter chord, span axis
// z, half_model = shape.half.
std::unique_ptr<StlBody> make_wing_body(const WingShape& shape, double cells_per_reference,
                                        double angle_of_attack_deg, const Vec3& root_quarter_chord);

// Enclosed volume of a closed, outward-oriented mesh (divergence theorem); in the mesh's units cubed.
double mesh_volume(const std::vector<Triangle>& triangles);

}  // namespace aerolbm
