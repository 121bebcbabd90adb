#pragma once
// Field output of a run: one object per format, fed the same frames in order. Each writer numbers frames itself
// (0, 1, 2, ...), independent of the step, so names stay dense when the output interval changes.
// Nothing here knows about the solver or CUDA. A frame is written in three steps, so that the output pipeline
// (src/solver/async_frame_writer.cpp) can encode several frames at once and keep the disk busy, while files with
// final names stay complete at every moment (kill -9, power cut):
//   encode   the frame's file under a temporary name (<final name>.tmp): the CPU work and the write() calls;
//            callable for several frames at once (up to max_concurrent_encodes()) from different threads
//   sync     fsync of that temporary file (sync_file, src/io/atomic_file.hpp), in any order
//   commit   rename into place and rewrite the index (fields.h5/.xdmf, .pvd) atomically, in frame order
#include <atomic>
#include <cstdint>
#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/io/frame.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/pvd_writer.hpp"
#include "src/io/xdmf_writer.hpp"

namespace aerolbm {

// Precision of the float fields in field files (output.precision). VTK XML has no 16-bit float type: VTK files
// keep Float32 under fp16; HDF5 stores IEEE binary16 (src/io/hdf5_util.hpp's half_type).
enum class FieldPrecision { FP32, FP16 };

// A frame as the writers take it: its fields (present_fields' list; the arrays are borrowed), step and time.
struct FrameData {
  std::int64_t step = 0;
  double time = 0;
  std::vector<FieldView> fields;
};

// A frame file written under its temporary name, not yet in place. Removes the temporary file when dropped
// uncommitted (a failure elsewhere in the pipeline).
struct EncodedFrame {
  std::int64_t number = 0;
  double time = 0;
  std::filesystem::path tmp, path;  // written to tmp; commit renames it to path
  std::uint64_t bytes = 0;          // size of the file
  std::vector<XdmfField> fields;    // what the file holds (the HDF5 index lists it)
  bool committed = false;
  EncodedFrame() = default;
  EncodedFrame(const EncodedFrame&) = delete;
  EncodedFrame& operator=(const EncodedFrame&) = delete;
  ~EncodedFrame();
};

class FieldWriter {
 public:
  virtual ~FieldWriter();
  // Writes one frame completely (data flushed, index file updated) or throws: std::invalid_argument when the
  // frame does not match the grid (nothing written), std::runtime_error with the file name on I/O failure.
  // After a failure the frame number is not consumed, so a later write continues the series without a gap.
  void write(const Frame& frame);
  // The pipeline's steps (see above) for frame `number` (frames() for the next one; frames() + k for the k-th
  // after it). encode throws std::invalid_argument when the fields do not match the grid; I/O errors are
  // std::runtime_error naming the file. A failed commit removes the file and consumes no number.
  virtual std::unique_ptr<EncodedFrame> encode(const FrameData& frame, std::int64_t number) = 0;
  virtual void commit(EncodedFrame& frame) = 0;
  // How many encode() calls may run at once.
  virtual int max_concurrent_encodes() const { return 1; }
  // Frames in place (and listed in the index): the number the next frame gets.
  virtual std::int64_t frames() const = 0;
  // Bytes of the frame files and of the index files written by commits so far.
  std::uint64_t bytes_written() const { return bytes_.load(); }

 protected:
  // The fields of a Frame checked against this writer's grid.
  virtual std::vector<FieldView> fields_of(const Frame& frame) const = 0;
  void count_bytes(std::uint64_t n) { bytes_ += n; }

 private:
  std::atomic<std::uint64_t> bytes_{0};
};

// Both writers can continue a run: `resume_times` are the times of the frames already in the folder (from the
// checkpoint). Those frames are kept and listed again, numbering goes on after them, and frame files with higher
// numbers (written after the checkpoint, before a crash) and unfinished *.tmp files are removed. An empty list
// starts a new series.

// RUN/fields/frame_000000.h5, ... (one complete file per frame, datasets (nz, ny, nx[, 3])), the index
// RUN/fields.h5 (an external link per frame: frame_000000, ...) and RUN/fields.xdmf. See hdf5_writer.cpp.
// `precision`: the float datasets' type (FP16: IEEE binary16, see FieldPrecision).
std::unique_ptr<FieldWriter> make_hdf5_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                              const Attributes& attributes,
                                              const std::vector<double>& resume_times = {},
                                              FieldPrecision precision = FieldPrecision::FP32);

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
                                                              const std::vector<double>& resume_times, bool root,
                                                              FieldPrecision precision = FieldPrecision::FP32);

// Refined runs (docs/grid_refinement.md): every level's .vti holds cell data (each value on its cell, as the
// blocks of an overlapping AMR data set must be), and level 0's writer indexes each frame's levels in
// RUN/vtk/fields_<N>.vthb (ParaView: the series opens as one data set per frame, "Default Number Of Levels" set to
// the levels; each point shown by one level). A .vthb names the finer levels' files of its frame, which their own
// writers finish (the checkpoint waits for them).
struct VtkAmrLevel {
  std::int64_t lo[3] = {0, 0, 0};  // the level grid's first cell, in its level's global cells
  std::int64_t n[3] = {1, 1, 1};   // its cells along x, y, z
  double spacing[3] = {1, 1, 1};
  std::string folder;  // its .vti files' folder relative to RUN/vtk: "." for level 0, "../levels/level1/vtk", ...
};
struct VtkLayout {
  bool cell_data = false;
  int dims = 3;
  std::array<double, 3> amr_origin{0, 0, 0};  // level 0's lower corner (of its cell (0, 0, 0))
  std::vector<VtkAmrLevel> amr_levels;        // level 0's writer: every level, level 0 first; else empty
  // Per cell of this level's grid, non-zero where another level shows the flow (under a finer level's box, or in
  // this level's band over the coarser one's cells): hidden in ParaView (the vtkGhostType cell array). Empty: none.
  std::vector<std::uint8_t> shown_elsewhere;
};

// RUN/vtk/fields_000000.vti, ... (vtkImageData, point data at the cell centres, or cell data with `layout`;
// Float32 whatever output.precision says) and RUN/fields.pvd.
std::unique_ptr<FieldWriter> make_vtk_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                             const Attributes& attributes,
                                             const std::vector<double>& resume_times = {},
                                             const VtkLayout& layout = {});

// Removes, inside `dir` only (no recursion, links removed as links), the files <prefix><number><suffix> whose
// number is >= first, and every <prefix>*.tmp. Returns how many were removed.
int remove_frame_files(const std::filesystem::path& dir, const std::string& prefix, const std::string& suffix,
                       std::int64_t first);

// The frames a continued run keeps: one per checkpointed frame time, numbered from 0, `name(number)` relative to
// run_dir. Throws std::runtime_error naming the first that is missing ("<what> file": what the message calls it).
std::vector<PvdEntry> resumed_frames(const std::filesystem::path& run_dir, const std::vector<double>& resume_times,
                                     const std::function<std::string(std::int64_t)>& name, const std::string& what);

// create_directories with an error that names the folder. Throws std::runtime_error.
void create_output_folder(const std::filesystem::path& dir);

}  // namespace aerolbm
