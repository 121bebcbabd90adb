// HDF5 output: one file per frame, written under a temp name and renamed into place, so that a run killed at any
// moment (kill -9, power cut) leaves only complete frame files; an HDF5 file being modified in place can be left
// unreadable by a kill in the middle of a metadata flush. Layout (the contract postprocess/ and ParaView rely on):
//   RUN/fields/frame_000123.h5   attributes: every Attributes entry, nx, ny, nz (int64), origin, spacing
//                                (double[3], x y z order), step (int64), time (double); datasets
//       velocity          float32 (nz, ny, nx, 3)       units "U_inf"  (every float dataset: IEEE binary16
//                                                                       under output.precision: fp16)
//       pressure, density float32 (nz, ny, nx)
//       vorticity         float32 (nz, ny, nx) or (nz, ny, nx, 3)
//       q_criterion       float32 (nz, ny, nx)
//       mask              uint8   (nz, ny, nx)
//   RUN/fields.h5                the index: the same run attributes at the root and one external link per
//                                finished frame, frame_000123 -> fields/frame_000123.h5:/ (h5py and the HDF5
//                                C API follow it: f["frame_000123"]["velocity"], .attrs["step"])
//   RUN/fields.xdmf              the time series for ParaView, pointing straight at the frame files
// Both index files are regenerated after each frame and replaced atomically. An MPI run with a parallel HDF5
// writes the same frame files collectively, each rank its own block (src/io/hdf5_collective.cpp).
// Every HDF5 call holds h5::library_mutex(): the output pipeline encodes HDF5 frames on two threads (one in the
// library, the other converting to fp16 or syncing its file) and checkpoints on a third.
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/io/atomic_file.hpp"
#include "src/io/field_writer.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/hdf5_frames.hpp"
#include "src/io/half_float.hpp"
#include "src/io/hdf5_util.hpp"
#include "src/io/xdmf_writer.hpp"

namespace aerolbm {

namespace fs = std::filesystem;
using h5::Handle;

namespace {

void write_run_attributes(const h5::File& f, hid_t root, const GridInfo& grid, const Attributes& attributes) {
  for (const auto& [name, value] : attributes.numbers) f.attr_doubles(root, name, &value, 1);
  for (const auto& [name, value] : attributes.strings) f.attr_string(root, name, value);
  f.attr_int(root, "nx", grid.nx);
  f.attr_int(root, "ny", grid.ny);
  f.attr_int(root, "nz", grid.nz);
  f.attr_doubles(root, "origin", grid.origin.data(), 3);
  f.attr_doubles(root, "spacing", grid.spacing.data(), 3);
}

bool whole_grid(const GridBox& b, const GridInfo& g) {
  return b.lo[0] == 0 && b.lo[1] == 0 && b.lo[2] == 0 && b.n[0] == g.nx && b.n[1] == g.ny && b.n[2] == g.nz;
}

}  // namespace

void write_frame_contents(const h5::File& f, hid_t root, const GridInfo& grid, const Attributes& attributes,
                          std::int64_t step, double time, const std::vector<FieldView>& fields, const GridBox& box,
                          hid_t dxpl) {
  write_run_attributes(f, root, grid, attributes);
  f.attr_int(root, "step", step);
  f.attr_doubles(root, "time", &time, 1);
  const bool whole = whole_grid(box, grid);
  const bool any_half = std::any_of(fields.begin(), fields.end(),
                                    [](const FieldView& v) { return v.type == FieldType::Float16; });
  const Handle half = any_half ? h5::half_type(f) : Handle();
  for (const FieldView& field : fields) {
    const std::string op = "write dataset '" + field.name + "'";
    const hsize_t dims[4] = {static_cast<hsize_t>(grid.nz), static_cast<hsize_t>(grid.ny),
                             static_cast<hsize_t>(grid.nx), static_cast<hsize_t>(field.components)};
    const int rank = field.components == 1 ? 3 : 4;
    // File and memory types: the same for bytes and halves (no conversion by the library).
    const hid_t file_type = field.type == FieldType::UInt8     ? H5T_STD_U8LE
                            : field.type == FieldType::Float16 ? half.get()
                                                               : H5T_IEEE_F32LE;
    const hid_t mem_type = field.type == FieldType::UInt8     ? H5T_NATIVE_UINT8
                           : field.type == FieldType::Float16 ? half.get()
                                                              : H5T_NATIVE_FLOAT;
    Handle space = f.open(H5Screate_simple(rank, dims, nullptr), H5Sclose, op);
    Handle dset = f.open(H5Dcreate2(root, field.name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                                    H5P_DEFAULT),
                         H5Dclose, op);
    if (whole) {
      f.check(H5Dwrite(dset.get(), mem_type, H5S_ALL, H5S_ALL, dxpl, field.data), op);
    } else {
      // The box's part of the (z, y, x[, c]) dataset; in memory the box's own cells, x fastest.
      const hsize_t start[4] = {static_cast<hsize_t>(box.lo[2]), static_cast<hsize_t>(box.lo[1]),
                                static_cast<hsize_t>(box.lo[0]), 0};
      const hsize_t count[4] = {static_cast<hsize_t>(box.n[2]), static_cast<hsize_t>(box.n[1]),
                                static_cast<hsize_t>(box.n[0]), static_cast<hsize_t>(field.components)};
      f.check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), op);
      Handle memory = f.open(H5Screate_simple(rank, count, nullptr), H5Sclose, op);
      f.check(H5Dwrite(dset.get(), mem_type, memory.get(), space.get(), dxpl, field.data), op);
    }
    f.attr_string(dset.get(), "units", field.units);
  }
}

Hdf5Series::Hdf5Series(const fs::path& run_dir, const GridInfo& grid, const Attributes& attributes,
                       const std::vector<double>& resume_times)
    : run_dir_(run_dir), grid_(grid), attributes_(attributes) {
  check_grid(grid);
  create_output_folder(run_dir_ / "fields");
  for (std::int64_t n = 0; n < std::int64_t(resume_times.size()); ++n) frames_.push_back(read_back(n));
  // Frames past the continuation point (or left by an earlier run in this folder) would be listed by nothing
  // and overwritten later; unfinished temp files are removed with them.
  remove_frame_files(run_dir_ / "fields", "frame_", ".h5", std::int64_t(frames_.size()));
  write_index();
}

std::uint64_t Hdf5Series::add(double time, const std::vector<XdmfField>& fields) {
  const std::int64_t number = std::int64_t(frames_.size());
  frames_.push_back(XdmfFrame{"frame_" + frame_number(number), time, fields, frame_file(number) + ":/"});
  try {
    return write_index();
  } catch (...) {
    frames_.pop_back();  // the frame number is not consumed; a retry rewrites the frame file
    throw;
  }
}

// fields.h5: root attributes and one external link per finished frame; then fields.xdmf. Returns the bytes of both.
std::uint64_t Hdf5Series::write_index() const {
  const fs::path path = run_dir_ / "fields.h5";
  const fs::path tmp = path.string() + ".tmp";
  const h5::File f(path);
  try {
    std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
    h5::QuietErrors quiet;
    Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
    write_run_attributes(f, file.get(), grid_, attributes_);
    f.attr_int(file.get(), "frames", std::int64_t(frames_.size()));
    for (std::size_t n = 0; n < frames_.size(); ++n)
      f.check(H5Lcreate_external(frame_file(std::int64_t(n)).c_str(), "/", file.get(), frames_[n].group.c_str(),
                                 H5P_DEFAULT, H5P_DEFAULT),
              "link " + frames_[n].group);
    if (!file.close()) f.fail("close (flush) file");
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  std::error_code ec;
  const std::uint64_t index_bytes = fs::file_size(tmp, ec);
  publish_file(tmp, path);
  return (ec ? 0 : index_bytes) + write_xdmf(run_dir_ / "fields.xdmf", grid_, frames_);
}

std::vector<XdmfField> xdmf_fields(const std::vector<FieldView>& fields) {
  std::vector<XdmfField> out;
  for (const FieldView& f : fields) out.push_back({f.name, f.components, f.type});
  return out;
}

// The index entry of an existing frame file, for continuing a run: its time and the fields it holds.
XdmfFrame Hdf5Series::read_back(std::int64_t number) const {
  const fs::path path = run_dir_ / frame_file(number);
  const h5::File f(path);
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  if (!fs::exists(path))
    throw std::runtime_error("cannot continue the run: frame file '" + path.string() +
                             "' is missing (the checkpoint counts it as written)");
  Handle file = f.open(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open file");
  XdmfFrame x;
  x.group = "frame_" + frame_number(number);
  x.time = f.read_attr_double(file.get(), "time");
  x.data = frame_file(number) + ":/";
  for (const char* name : {"velocity", "pressure", "density", "vorticity", "q_criterion", "mask"}) {
    if (H5Lexists(file.get(), name, H5P_DEFAULT) <= 0) continue;
    Handle dset = f.open(H5Dopen2(file.get(), name, H5P_DEFAULT), H5Dclose, std::string("open ") + name);
    Handle space = f.open(H5Dget_space(dset.get()), H5Sclose, std::string("open ") + name);
    Handle type = f.open(H5Dget_type(dset.get()), H5Tclose, std::string("open ") + name);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    const std::size_t size = H5Tget_size(type.get());
    x.fields.push_back({name, rank == 4 ? 3 : 1,
                        size == 1 ? FieldType::UInt8 : size == 2 ? FieldType::Float16 : FieldType::Float32});
  }
  H5Eclear2(H5E_DEFAULT);
  return x;
}

namespace {

class Hdf5Writer final : public FieldWriter {
 public:
  Hdf5Writer(const fs::path& run_dir, const GridInfo& grid, const Attributes& attributes,
             const std::vector<double>& resume_times, FieldPrecision precision)
      : series_(run_dir, grid, attributes, resume_times), precision_(precision) {}
  std::unique_ptr<EncodedFrame> encode(const FrameData& frame, std::int64_t number) override;
  void commit(EncodedFrame& frame) override;
  // The library runs one frame at a time (its lock); a second encode converts to fp16 or syncs beside it.
  int max_concurrent_encodes() const override { return 2; }
  std::int64_t frames() const override { return series_.frames(); }

 protected:
  std::vector<FieldView> fields_of(const Frame& frame) const override { return present_fields(frame, series_.grid()); }

 private:
  Hdf5Series series_;
  FieldPrecision precision_;
};

// Writes the frame file under its temp name completely and closes it (the close flushes, and can fail on a full
// disk). Under fp16 the float fields are converted first, outside the library's lock.
std::unique_ptr<EncodedFrame> Hdf5Writer::encode(const FrameData& frame, std::int64_t number) {
  auto e = std::make_unique<EncodedFrame>();
  e->number = number;
  e->time = frame.time;
  e->path = series_.frame_path(number);
  e->tmp = e->path.string() + ".tmp";
  std::vector<FieldView> fields = frame.fields;
  std::vector<std::vector<std::uint16_t>> halves;
  halves.reserve(fields.size());
  for (FieldView& v : fields) {
    if (precision_ != FieldPrecision::FP16 || v.type != FieldType::Float32) continue;
    halves.emplace_back(v.values);
    floats_to_halves(static_cast<const float*>(v.data), halves.back().data(), v.values);
    v.data = halves.back().data();
    v.type = FieldType::Float16;
  }
  e->fields = xdmf_fields(fields);
  const h5::File f(e->path);
  {
    std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
    h5::QuietErrors quiet;
    Handle file = f.open(H5Fcreate(e->tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
    write_frame_contents(f, file.get(), series_.grid(), series_.attributes(), frame.step, frame.time, fields,
                         GridBox::whole(series_.grid()), H5P_DEFAULT);
    if (!file.close()) f.fail("close (flush) file");
  }
  std::error_code ec;
  e->bytes = fs::file_size(e->tmp, ec);
  return e;  // dropped on an exception above: the temp file goes with it
}

// In place, then listed in the index.
void Hdf5Writer::commit(EncodedFrame& e) {
  if (e.number != series_.frames()) throw std::logic_error("HDF5 frame " + std::to_string(e.number) +
                                                            " committed out of order");
  rename_into_place(e.tmp, e.path);
  e.committed = true;
  count_bytes(e.bytes + series_.add(e.time, e.fields));
}

}  // namespace

std::unique_ptr<FieldWriter> make_hdf5_writer(const fs::path& run_dir, const GridInfo& grid,
                                              const Attributes& attributes, const std::vector<double>& resume_times,
                                              FieldPrecision precision) {
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  h5::QuietErrors quiet;
  return std::make_unique<Hdf5Writer>(run_dir, grid, attributes, resume_times, precision);
}

}  // namespace aerolbm
