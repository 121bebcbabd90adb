#pragma once
// RUN/surface/surface_000000.vtp, ... (vtkPolyData: the body's surface triangles with the pressure coefficient at
// each vertex) and RUN/surface.pvd, one file per output frame, so ParaView shows Cp on a wing. The pressure at a
// vertex is a fixed weighted sum of grid values (the probe), set up once by the solver.
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
  std::vector<std::array<std::int64_t, 3>> triangles;  // point indices, counter-clockwise seen from outside
  // Cp at point p = Σ_k probe_weights[8p+k] · pressure[probe_cells[8p+k]] (unused slots: weight 0, cell 0).
  std::vector<std::int64_t> probe_cells;
  std::vector<float> probe_weights;
};

// Throws std::invalid_argument when the mesh is empty or inconsistent. Frames must carry the pressure field.
std::unique_ptr<FieldWriter> make_surface_writer(const std::filesystem::path& run_dir, SurfaceMesh mesh,
                                                 const Attributes& attributes,
                                                 const std::vector<double>& resume_times = {});

}  // namespace aerolbm
