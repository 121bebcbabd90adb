#pragma once
// The body's surface beside every frame (values per point: src/io/surface_values.hpp). 3D bodies:
// RUN/surface/surface_000000.vtp, ... (vtkPolyData: the surface triangles with Cp, the skin-friction coefficient
// C_f and the wall shear stress vector at each vertex) and RUN/surface.pvd, so ParaView shows them on a wing.
// 2D bodies: RUN/surface/surface_000000.csv, ... (one line per outline point: position, normal, Cp, C_f). The
// values at a point come from a fixed weighted sum of grid values (the probe), set up once by the solver.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "src/io/field_writer.hpp"

namespace aerolbm {

struct SurfaceMesh {
  std::vector<std::array<double, 3>> points;          // output coordinates (reference lengths, like the grid)
  std::vector<std::array<double, 3>> normals;         // unit outward normals per point
  std::vector<std::array<std::int64_t, 3>> triangles;  // point indices, counter-clockwise seen from outside (3D)
  // The probe of point p, `probe_distance[p]` cells out along its normal: a value there is
  // Σ_k probe_weights[8p+k] · field[probe_cells[8p+k]] (unused slots: weight 0, cell 0).
  std::vector<std::int64_t> probe_cells;
  std::vector<float> probe_weights;
  std::vector<double> probe_distance;
  // Lattice units of the run, for the wall shear stress: kinematic viscosity and free-stream speed.
  double nu_lattice = 0, u_lattice = 0;
};

// 3D bodies (.vtp). Throws std::invalid_argument when the mesh is empty or inconsistent. Frames must carry the
// pressure and velocity fields.
std::unique_ptr<FieldWriter> make_surface_writer(const std::filesystem::path& run_dir, SurfaceMesh mesh,
                                                 const Attributes& attributes,
                                                 const std::vector<double>& resume_times = {});

// 2D bodies (.csv; `mesh` without triangles, its points in outline order). Same checks and fields.
std::unique_ptr<FieldWriter> make_surface_csv_writer(const std::filesystem::path& run_dir, SurfaceMesh mesh,
                                                     const std::vector<double>& resume_times = {});

}  // namespace aerolbm
