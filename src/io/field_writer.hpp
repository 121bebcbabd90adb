#pragma once
// Field output of a run: one object per format, fed the same host Frames in order. Each writer numbers frames
// itself (0, 1, 2, ...), independent of the step, so names stay dense when the output interval changes.
// Nothing here knows about the solver or CUDA; the async output thread owns the writers.
#include <filesystem>
#include <memory>

#include "src/io/frame.hpp"

namespace aerolbm {

class FieldWriter {
 public:
  virtual ~FieldWriter();
  // Writes one frame completely (data flushed, index file updated) or throws: std::invalid_argument when the
  // frame does not match the grid (nothing written), std::runtime_error with the file name on I/O failure.
  // After a failure the frame number is not consumed, so a later write continues the series without a gap.
  virtual void write(const Frame& frame) = 0;
};

// RUN/fields.h5 (group frame_000000, frame_000001, ... with datasets (nz, ny, nx[, 3])) and RUN/fields.xdmf.
// Creates run_dir if needed and truncates an existing fields.h5.
std::unique_ptr<FieldWriter> make_hdf5_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                              const Attributes& attributes);

// RUN/vtk/fields_000000.vti, ... (vtkImageData, point data) and RUN/fields.pvd.
std::unique_ptr<FieldWriter> make_vtk_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                             const Attributes& attributes);

// create_directories with an error that names the folder. Throws std::runtime_error.
void create_output_folder(const std::filesystem::path& dir);

}  // namespace aerolbm
