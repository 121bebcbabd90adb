// HDF5 frame files written collectively by the ranks of an MPI run (builds with a parallel HDF5, where CMake
// defines AEROLBM_HDF5_PARALLEL for this file). Every rank opens the frame file's temp name with the MPI-IO file
// driver, all create the same attributes and datasets (metadata operations are collective in parallel HDF5),
// and each writes its own block as a hyperslab in one collective transfer. After the collective close and a
// barrier, rank 0 fsyncs and renames the file into place and lists it in the index (fields.h5, fields.xdmf),
// exactly as the one-process writer (hdf5_writer.cpp) does; the datasets, their types, shapes, values and the
// attributes are the same. (One difference a reader never sees: parallel HDF5 allocates a dataset's space when it
// is created, so the datasets' creation property "allocation time" is early rather than late.)
// MPI is called from the calling thread only: the run loop writes these frames on its main thread.
#include "src/io/field_writer.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "src/io/atomic_file.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/half_float.hpp"
#include "src/io/hdf5_frames.hpp"
#include "src/io/hdf5_util.hpp"

namespace aerolbm {

BlockFieldWriter::~BlockFieldWriter() = default;

#if defined(AEROLBM_HDF5_PARALLEL) && defined(H5_HAVE_PARALLEL)

bool hdf5_collective_available() { return true; }

namespace {

namespace fs = std::filesystem;
using h5::Handle;

class CollectiveHdf5Writer final : public BlockFieldWriter {
 public:
  CollectiveHdf5Writer(const fs::path& run_dir, const GridInfo& grid, const Attributes& attributes,
                       const std::vector<double>& resume_times, bool root, FieldPrecision precision)
      : run_dir_(run_dir), grid_(grid), attributes_(attributes), counter_(std::int64_t(resume_times.size())),
        precision_(precision) {
    check_grid(grid);
    // Rank 0 prepares the folder (continuing or starting the series) before any rank creates a file in it; an
    // error there ends every rank (the run's error handling), so the barrier is not left waiting.
    if (root) series_.emplace(run_dir, grid, attributes, resume_times);
    MPI_Barrier(MPI_COMM_WORLD);
  }

  void write(const Frame& block, const GridBox& box) override {
    GridInfo block_grid = grid_;
    block_grid.nx = box.n[0];
    block_grid.ny = box.n[1];
    block_grid.nz = box.n[2];
    std::vector<FieldView> fields = present_fields(block, block_grid);  // before touching any file
    std::vector<std::vector<std::uint16_t>> halves;  // output.precision: fp16
    halves.reserve(fields.size());
    for (FieldView& v : fields) {
      if (precision_ != FieldPrecision::FP16 || v.type != FieldType::Float32) continue;
      halves.emplace_back(v.values);
      floats_to_halves(static_cast<const float*>(v.data), halves.back().data(), v.values);
      v.data = halves.back().data();
      v.type = FieldType::Float16;
    }
    // Rank 0's checkpoint writer may use the library on another thread meanwhile.
    std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
    h5::QuietErrors quiet;
    const fs::path path = run_dir_ / ("fields/frame_" + frame_number(counter_) + ".h5");
    const fs::path tmp = path.string() + ".tmp";
    const h5::File f(path);
    try {
      Handle fapl = f.open(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access properties");
      f.check(H5Pset_fapl_mpio(fapl.get(), MPI_COMM_WORLD, MPI_INFO_NULL), "MPI-IO file driver");
      Handle dxpl = f.open(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "transfer properties");
      f.check(H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), "collective transfers");
      Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose, "create file");
      write_frame_contents(f, file.get(), grid_, attributes_, block.step, block.time, fields, box, dxpl.get());
      if (!file.close()) f.fail("close (flush) file");
      MPI_Barrier(MPI_COMM_WORLD);  // every rank's part is in the file
      if (series_) {
        if (series_->next_path() != path) throw std::logic_error("collective HDF5 writer: frame numbers disagree");
        publish_file(tmp, path);
      }
    } catch (...) {
      if (series_) ::unlink(tmp.c_str());
      throw;
    }
    if (series_) series_->add(block.time, xdmf_fields(fields));
    ++counter_;
  }

 private:
  fs::path run_dir_;
  GridInfo grid_;
  Attributes attributes_;
  std::int64_t counter_;
  FieldPrecision precision_;
  std::optional<Hdf5Series> series_;  // rank 0: the index
};

}  // namespace

std::unique_ptr<BlockFieldWriter> make_collective_hdf5_writer(const std::filesystem::path& run_dir,
                                                              const GridInfo& grid, const Attributes& attributes,
                                                              const std::vector<double>& resume_times, bool root,
                                                              FieldPrecision precision) {
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  h5::QuietErrors quiet;
  return std::make_unique<CollectiveHdf5Writer>(run_dir, grid, attributes, resume_times, root, precision);
}

#else  // a serial HDF5 (or no MPI): MPI runs gather the frame to rank 0, which writes it with make_hdf5_writer

bool hdf5_collective_available() { return false; }

std::unique_ptr<BlockFieldWriter> make_collective_hdf5_writer(const std::filesystem::path&, const GridInfo&,
                                                              const Attributes&, const std::vector<double>&, bool,
                                                              FieldPrecision) {
  throw std::logic_error("this aerolbm is built without a parallel HDF5: no collective frame output");
}

#endif

}  // namespace aerolbm
