#pragma once
// Field output of a run: one object per format, fed the same host Frames in order. Each writer numbers frames
// itself (0, 1, 2, ...), independent of the step, so names stay dense when the output interval changes.
// Nothing here knows about the solver or CUDA; the async output thread owns the writers.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

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

// Both writers can continue a run: `resume_times` are the times of the frames already in the folder (from the
// checkpoint). Those frames are kept and listed again, numbering goes on after them, and frame files with higher
// numbers (written after the checkpoint, before a crash) and unfinished *.tmp files are removed. An empty list
// starts a new series.

// RUN/fields/frame_000000.h5, ... (one complete file per frame, datasets (nz, ny, nx[, 3])), the index
// RUN/fields.h5 (an external link per frame: frame_000000, ...) and RUN/fields.xdmf. See hdf5_writer.cpp.
std::unique_ptr<FieldWriter> make_hdf5_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                              const Attributes& attributes,
                                              const std::vector<double>& resume_times = {});

// A frame written by every MPI rank together, each passing the frame of its own block of the grid.
class BlockFieldWriter {
 public:
  virtual ~BlockFieldWriter();
  // Collective (every rank calls it, on the thread that calls MPI): `block` holds the fields of the cells in
  // `box`, arrays x fastest within the box. Errors as FieldWriter::write, on the rank that failed.
  virtual void write(const Frame& block, const GridBox& box) = 0;
};

// Whether this build writes HDF5 frames collectively under MPI: an MPI build linked with a parallel HDF5.
bool hdf5_collective_available();

// The HDF5 frame files of make_hdf5_writer, the same bytes of data, written by every rank of MPI_COMM_WORLD at
// once (MPI-IO file driver, collective transfers: each rank writes its block as a hyperslab); rank 0 (`root`)
// renames each finished file into place and keeps the index (fields.h5, fields.xdmf). Every rank constructs it
// (collective). Throws std::logic_error where hdf5_collective_available() is false. See hdf5_collective.cpp.
std::unique_ptr<BlockFieldWriter> make_collective_hdf5_writer(const std::filesystem::path& run_dir,
                                                              const GridInfo& grid, const Attributes& attributes,
                                                              const std::vector<double>& resume_times, bool root);

// RUN/vtk/fields_000000.vti, ... (vtkImageData, point data) and RUN/fields.pvd.
std::unique_ptr<FieldWriter> make_vtk_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                             const Attributes& attributes,
                                             const std::vector<double>& resume_times = {});

// Removes, inside `dir` only (no recursion, links removed as links), the files <prefix><number><suffix> whose
// number is >= first, and every <prefix>*.tmp. Returns how many were removed.
int remove_frame_files(const std::filesystem::path& dir, const std::string& prefix, const std::string& suffix,
                       std::int64_t first);

// create_directories with an error that names the folder. Throws std::runtime_error.
void create_output_folder(const std::filesystem::path& dir);

}  // namespace aerolbm
