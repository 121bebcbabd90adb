#pragma once
// The surface output of a body: in 3D its triangles with shared vertices merged and vertex normals, in 2D its
// outline's points with normals; for each point a probe one cell out along the normal (trilinear over the
// surrounding fluid cells only; further out where no fluid cell surrounds that point). The caller sets the mesh's
// lattice units (nu_lattice, u_lattice).
#include <vector>

#include "kernels/backend.hpp"
#include "src/geometry/body.hpp"
#include "src/io/frame.hpp"
#include "src/io/surface_writer.hpp"

namespace aerolbm {

// `triangles` in lattice coordinates (Body::surface()); output points in the grid's coordinates (GridInfo).
SurfaceMesh surface_mesh(const std::vector<Triangle>& triangles, const DomainData& d, const GridInfo& g);

// 2D bodies: `outline` (Body::outline(), lattice coordinates, ordered, closed without repeating its first point);
// the normal at a point is perpendicular to the chord from its predecessor to its successor, pointing out of the
// polygon whichever way it turns.
SurfaceMesh surface_outline(const std::vector<Vec3>& outline, const DomainData& d, const GridInfo& g);

}  // namespace aerolbm
