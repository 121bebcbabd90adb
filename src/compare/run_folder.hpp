#pragma once
// A run folder as `aerolbm run` writes it (docs/run_folder.md), read back for comparison. Loading checks
// everything that can be checked without reading field values: the files exist and parse, the HDF5 file holds
// the grid and the frames summary.json announces, and every dataset has the grid's shape. Field values are read
// per frame later (a long run's fields do not fit in memory at once).
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/compare/forces_table.hpp"

namespace aerolbm {

struct FieldGrid {
  std::int64_t nx = 0, ny = 0, nz = 1;
  std::array<double, 3> origin{};   // position of point (0,0,0), reference lengths
  std::array<double, 3> spacing{};  // reference lengths
  std::int64_t points() const { return nx * ny * nz; }
  double coord(int axis, std::int64_t i) const { return origin[axis] + double(i) * spacing[axis]; }
  // Cell faces of the grid along an axis: points sit at cell centres, half a spacing inside them.
  double lower(int axis) const { return origin[axis] - 0.5 * spacing[axis]; }
  double upper(int axis) const { return origin[axis] + (double(size(axis)) - 0.5) * spacing[axis]; }
  std::int64_t size(int axis) const { return axis == 0 ? nx : axis == 1 ? ny : nz; }
};

struct FrameEntry {
  std::string group;  // "frame_000003"
  std::int64_t step = 0;
  double time = 0;                   // convective times
  std::vector<std::string> fields;   // dataset names present
};

struct RunFolder {
  std::filesystem::path dir;
  // summary.json
  std::string case_name, backend, device, lattice, precision;
  std::int64_t steps = 0;
  double wall_time_s = 0, mlups = 0, convective_times = 0;
  double reynolds = 0, mach = 0, angle_of_attack_deg = 0;
  std::optional<double> cd_mean, cl_mean, cd_final, cl_final, strouhal, cpitch_mean;
  std::int64_t frames_announced = 0;
  // forces.csv
  ForcesTable forces;
  // fields.h5 (absent when the run wrote no HDF5 fields)
  bool has_fields = false;
  FieldGrid grid;
  double dt = 0;  // convective times per step (root attribute dt_convective_times)
  std::vector<FrameEntry> frames;
  std::filesystem::path fields_file() const { return dir / "fields.h5"; }
  // The mean fields (output.averages), when the run wrote them: RUN/mean/ read as a run folder of one frame
  // (dir = RUN/mean, its fields.h5, grid and frame; summary and forces left empty), with the samples and the times
  // of the first and last sample from its attributes. Null otherwise.
  std::shared_ptr<const RunFolder> mean;
  std::int64_t mean_samples = 0;
  double mean_first_time = 0, mean_last_time = 0;
  // A refined run's levels (refinement.boxes): RUN/levels/level<N>/ for N = 1, 2, ..., each read as a run folder
  // of frames (dir, fields.h5, grid on that level's cells, frames at the run's steps; summary and forces left
  // empty), the finest last. Empty for a uniform run. The run's own grid above is level 0's.
  std::vector<std::shared_ptr<const RunFolder>> levels;
};

// Throws CompareInputError (file, what is wrong, what to do) for a missing or truncated folder, unparsable
// summary.json / forces.csv / case.yaml, or a corrupt or incomplete fields.h5.
RunFolder load_run_folder(const std::filesystem::path& dir);

// The frame of `run` at `time` (within `tol`: half a step of the coarser run), null if none.
const FrameEntry* frame_at(const RunFolder& run, double time, double tol);

// Whether the frame holds dataset `field`.
bool has_field(const FrameEntry& frame, const std::string& field);

// Values of one field of one frame, in file order (z, y, x[, component]).
std::vector<float> read_field(const RunFolder& run, const FrameEntry& frame, const std::string& field);

// The fields compare reads from a frame, in this order: those of every frame and the mean frame's RMS fields.
const std::vector<std::string>& compared_field_names();

// Components per point of a field as written (velocity 3, vorticity 1 in 2D and 3 in 3D, others 1).
int field_components(const RunFolder& run, const FrameEntry& frame, const std::string& field);

}  // namespace aerolbm
