#pragma once
// What the surface output shows at each point of a body's surface (SurfaceMesh), from one frame's fields:
//   Cp    the pressure coefficient at the point's probe;
//   C_f   the skin-friction coefficient τ_w / (½ρU²), with τ_w = ρ u_τ² from the law of the wall: the velocity at
//         the probe, its part tangential to the surface, and the probe's distance from the surface give u_τ by
//         Spalding's law (kernels/physics/wall_function.hpp; in the viscous sublayer it is τ_w = μ u_t / y, higher
//         up the log law), the same law the wall model applies (ρ = 1, the free stream's);
//   shear the wall shear stress as a vector over ½ρU²: C_f along the tangential velocity (zero where it is zero).
#include <cstddef>
#include <vector>

#include "src/io/frame.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/surface_writer.hpp"

namespace aerolbm {

struct SurfaceValues {
  std::vector<float> cp, cf;  // one per point
  std::vector<float> shear;   // three per point, interleaved
};

// `pressure` (Cp) and `velocity` (u/U, three per cell, interleaved) are frame arrays over the whole grid.
SurfaceValues surface_values(const SurfaceMesh& mesh, const float* pressure, const float* velocity);

// The same from a frame's fields (FrameData::fields), which must hold "pressure" and "velocity" as Float32
// (std::invalid_argument otherwise).
SurfaceValues surface_values(const SurfaceMesh& mesh, const std::vector<FieldView>& fields);

// Checks what both surface writers need: points, normals and probes of matching sizes, positive probe distances
// and lattice units. Throws std::invalid_argument naming what is wrong.
void check_surface_mesh(const SurfaceMesh& mesh);

// The fields a surface writer takes from a Frame (FieldWriter::fields_of): its pressure and velocity, whose grid
// the writer does not know; both must be present, the velocity three values per pressure value
// (std::invalid_argument otherwise).
std::vector<FieldView> surface_fields_of(const Frame& frame);

}  // namespace aerolbm
