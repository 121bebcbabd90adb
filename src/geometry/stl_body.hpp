#pragma once
// A closed triangle mesh (from read_stl) placed in the lattice as a solid body: scaled to cells per model unit,
// turned about the z axis by the angle of attack around a pivot, and moved so that the pivot lands at a lattice
// position — the 3D counterpart of PolygonBody's SectionPlacement.
#include <cstdint>
#include <vector>

#include "kernels/geometry/mesh_voxel.hpp"
#include "src/geometry/body.hpp"
#include "src/geometry/stl.hpp"

namespace aerolbm {

struct StlPlacement {
  double scale = 1;                  // lattice cells per model unit (e.g. cells per metre for a file in metres)
  double angle_of_attack_deg = 0;    // about the z axis through the pivot; positive = nose up for flow in +x,
                                     // i.e. the model turns clockwise seen from +z (by −α), as for 2D sections
  Vec3 pivot_model = {0, 0, 0};      // the point the model turns about, model units
  Vec3 pivot_lattice = {0, 0, 0};    // where that point lands, lattice coordinates
};

// Model point → lattice point under the placement (the transform StlBody applies to every vertex).
Vec3 place_point(const Vec3& model_point, const StlPlacement& placement);

class StlBody final : public Body {
 public:
  // The triangles must form a closed, consistently oriented surface (read_stl checks that; check_closed for
  // meshes built in code). Throws std::invalid_argument for no triangles, a non-positive/non-finite scale, or
  // placed coordinates that are not finite.
  StlBody(const std::vector<Triangle>& model_triangles, const StlPlacement& placement);

  // Parity of the crossings of a ray from p in +z. Points exactly on an edge or a vertex of the projection are
  // decided by simulation of simplicity (the point is taken as shifted by (ε, ε²) in x-y) with one shared sign per
  // edge, so every ray crosses a closed surface an even number of times. Points on the surface itself may go
  // either way.
  bool inside(const Vec3& p) const override;
  // Smallest t in [0, 1] at which the segment a→b meets a triangle (Möller–Trumbore; hits within 1e-9 of a
  // triangle's edge count, so a segment through an edge or a vertex is not missed).
  std::optional<double> intersect(const Vec3& a, const Vec3& b) const override;
  // Empty: a 3D body has no single closed outline. Surface output uses surface().
  std::vector<Vec3> outline() const override { return {}; }
  std::array<Vec3, 2> bounds() const override { return {lo_, hi_}; }
  // The placed triangles (a copy of triangles()).
  std::vector<Triangle> surface() const override { return tri_; }
  std::optional<ForceReference> reference() const override { return reference_; }

  // Force reference for coefficients (make_body sets it: a wing's own, or the case's for an STL file).
  void set_reference(const ForceReference& r) { reference_ = r; }

  // The placed triangles, lattice coordinates, in the input order.
  const std::vector<Triangle>& triangles() const { return tri_; }

  // The mesh and its search grids as plain arrays for the shared per-cell functions (kernels/geometry/
  // mesh_voxel.hpp), on the CPU or copied to a GPU. Points into this body: valid while it lives, unchanged.
  MeshView view() const;
  std::optional<MeshView> mesh() const override { return view(); }

 private:
  std::vector<Triangle> tri_;
  Vec3 lo_{}, hi_{};
  std::optional<ForceReference> reference_;

  // Acceleration, both in CSR layout (start offsets, then triangle ids). A column grid in x-y for the +z rays of
  // inside(): each column lists the triangles whose x-y box overlaps it. A 3D grid for intersect(): each cell
  // lists the triangles whose box overlaps it. Both have about as many cells as there are triangles.
  struct Grid {
    std::array<std::size_t, 3> n{1, 1, 1};
    Vec3 inv_h{};  // cells per lattice unit along each axis
    std::vector<std::uint32_t> start, ids;
    MeshGridView view() const;
  };
  Grid columns_, cells_;
  // Per triangle, bit k for edge k (vertex k → k+1): the canonical edge direction in x-y (set when vertex k is the
  // lexicographically smaller end), so the two triangles sharing an edge evaluate it identically.
  std::vector<std::uint8_t> edge_forward_;
};

}  // namespace aerolbm
