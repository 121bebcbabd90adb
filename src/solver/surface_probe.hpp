#pragma once
// The surface output of a 3D body: its triangles with shared vertices merged, vertex normals, and for each vertex
// a pressure probe one cell out along the normal (trilinear over the surrounding fluid cells only).
#include <vector>

#include "kernels/backend.hpp"
#include "src/geometry/body.hpp"
#include "src/io/frame.hpp"
#include "src/io/surface_writer.hpp"

namespace aerolbm {

// `triangles` in lattice coordinates (Body::surface()); output points in the grid's coordinates (GridInfo).
SurfaceMesh surface_mesh(const std::vector<Triangle>& triangles, const DomainData& d, const GridInfo& g);

}  // namespace aerolbm
