#pragma once
// The mean fields of a run (output.averages): the backend's per-cell statistics (Backend::sample_averages) turned
// into a frame in free-stream units with the finishing functions of kernels/physics/field_averages.hpp, and
// written by the ordinary frame writers into a run folder of its own, RUN/mean/ (docs/run_folder.md): fields.h5 +
// fields.xdmf (fields/frame_000000.h5) and fields.pvd (vtk/fields_000000.vti), so ParaView and `aerolbm compare`
// open it like any run's frames.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/io/field_writer.hpp"
#include "src/io/frame.hpp"

namespace aerolbm {

// Which samples the statistics hold.
struct MeanWindow {
  std::int64_t samples = 0;
  std::int64_t every = 0;                            // steps between samples (output.averages.every)
  std::int64_t first_step = 0, last_step = 0;        // the first and the last sample
  double first_time = 0, last_time = 0;              // the same in convective times
  double window_start_time = 0;                      // where the averaging window starts (time.average_last)
  std::int64_t restarted_from_step = -1;             // a restart inside the window: its checkpoint's step, else −1
};

// The mean frame: ū/U and the RMS fluctuation u′/U (3 per cell, interleaved), C̄p and Cp′ (1 per cell), the mask;
// 0 in solid cells.
struct MeanFrame {
  std::vector<float> velocity, velocity_rms, pressure, pressure_rms;
  std::vector<std::uint8_t> mask;
};

// `a` covers the whole grid of `d` (kernels/backend.hpp's FieldAverages layout); u_ref: the reference speed in
// lattice units. Throws std::invalid_argument when the sizes disagree or there is no sample.
MeanFrame build_mean_frame(const DomainData& d, const FieldAverages& a, double u_ref);

// The attributes the mean frame's files carry besides the run's: what the fields are and the window's samples.
Attributes mean_attributes(Attributes run, const MeanWindow& w);

// Writes the frame into run_dir/mean/ in each of `formats` (hdf5, vtk; an earlier mean frame there is replaced).
// Returns the bytes written. I/O errors are std::runtime_error naming the file.
std::uint64_t write_mean_frame(const std::filesystem::path& run_dir, const GridInfo& grid,
                               const Attributes& attributes, const MeanFrame& frame, const MeanWindow& w,
                               const std::vector<std::string>& formats, FieldPrecision precision);

}  // namespace aerolbm
