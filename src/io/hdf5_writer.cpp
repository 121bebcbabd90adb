// HDF5 output: one file per frame, written under a temp name and renamed into place, so that a run killed at any
// moment (kill -9, power cut) leaves only complete frame files; an HDF5 file being modified in place can be left
// unreadable by a kill in the middle of a metadata flush. Layout (the contract postprocess/ and ParaView rely on):
//   RUN/fields/frame_000123.h5   attributes: every Attributes entry, nx, ny, nz (int64), origin, spacing
//                                (double[3], x y z order), step (int64), time (double); datasets
//       velocity          float32 (nz, ny, nx, 3)       units "U_inf"
//       pressure, density float32 (nz, ny, nx)
//       vorticity         float32 (nz, ny, nx) or (nz, ny, nx, 3)
//       q_criterion       float32 (nz, ny, nx)
//       mask              uint8   (nz, ny, nx)
//   RUN/fields.h5                the index: the same run attributes at the root and one external link per
//                                finished frame, frame_000123 -> fields/frame_000123.h5:/ (h5py and the HDF5
//                                C API follow it: f["frame_000123"]["velocity"], .attrs["step"])
//   RUN/fields.xdmf              the time series for ParaView, pointing straight at the frame files
// Both index files are regenerated after each frame and replaced atomically.
#include <hdf5.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/io/atomic_file.hpp"
#include "src/io/field_writer.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/hdf5_util.hpp"
#include "src/io/xdmf_writer.hpp"

namespace aerolbm {
namespace {

namespace fs = std::filesystem;
using h5::Handle;

class Hdf5Writer final : public FieldWriter {
 public:
  Hdf5Writer(const fs::path& run_dir, const GridInfo& grid, const Attributes& attributes,
             const std::vector<double>& resume_times);
  void write(const Frame& frame) override;

 private:
  void write_run_attributes(const h5::File& f, hid_t root) const;
  void write_frame_file(const fs::path& path, const Frame& frame, const std::vector<FieldView>& fields) const;
  void write_index() const;
  XdmfFrame read_back(std::int64_t number) const;
  std::string frame_file(std::int64_t number) const { return "fields/frame_" + frame_number(number) + ".h5"; }

  fs::path run_dir_;
  GridInfo grid_;
  Attributes attributes_;
  std::int64_t counter_ = 0;
  std::vector<XdmfFrame> frames_;  // finished frames, for regenerating fields.h5 and fields.xdmf
};

Hdf5Writer::Hdf5Writer(const fs::path& run_dir, const GridInfo& grid, const Attributes& attributes,
                       const std::vector<double>& resume_times)
    : run_dir_(run_dir), grid_(grid), attributes_(attributes) {
  check_grid(grid);
  create_output_folder(run_dir_ / "fields");
  for (std::int64_t n = 0; n < std::int64_t(resume_times.size()); ++n) frames_.push_back(read_back(n));
  counter_ = std::int64_t(frames_.size());
  // Frames past the continuation point (or left by an earlier run in this folder) would be listed by nothing
  // and overwritten later; unfinished temp files are removed with them.
  remove_frame_files(run_dir_ / "fields", "frame_", ".h5", counter_);
  write_index();
}

void Hdf5Writer::write_run_attributes(const h5::File& f, hid_t root) const {
  for (const auto& [name, value] : attributes_.numbers) f.attr_doubles(root, name, &value, 1);
  for (const auto& [name, value] : attributes_.strings) f.attr_string(root, name, value);
  f.attr_int(root, "nx", grid_.nx);
  f.attr_int(root, "ny", grid_.ny);
  f.attr_int(root, "nz", grid_.nz);
  f.attr_doubles(root, "origin", grid_.origin.data(), 3);
  f.attr_doubles(root, "spacing", grid_.spacing.data(), 3);
}

// Writes `path`.tmp completely, closes it (the close flushes, and can fail on a full disk), fsyncs and renames.
void Hdf5Writer::write_frame_file(const fs::path& path, const Frame& frame,
                                  const std::vector<FieldView>& fields) const {
  const fs::path tmp = path.string() + ".tmp";
  const h5::File f(path);
  try {
    Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
    const hid_t root = file.get();
    write_run_attributes(f, root);
    f.attr_int(root, "step", frame.step);
    f.attr_doubles(root, "time", &frame.time, 1);
    for (const FieldView& field : fields) {
      const std::string op = "write dataset '" + field.name + "'";
      const hsize_t dims[4] = {static_cast<hsize_t>(grid_.nz), static_cast<hsize_t>(grid_.ny),
                               static_cast<hsize_t>(grid_.nx), static_cast<hsize_t>(field.components)};
      const int rank = field.components == 1 ? 3 : 4;
      const bool u8 = field.type == FieldType::UInt8;
      Handle space = f.open(H5Screate_simple(rank, dims, nullptr), H5Sclose, op);
      Handle dset = f.open(H5Dcreate2(root, field.name.c_str(), u8 ? H5T_STD_U8LE : H5T_IEEE_F32LE, space.get(),
                                      H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                           H5Dclose, op);
      f.check(H5Dwrite(dset.get(), u8 ? H5T_NATIVE_UINT8 : H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                       field.data),
              op);
      f.attr_string(dset.get(), "units", field.units);
    }
    if (!file.close()) f.fail("close (flush) file");
    publish_file(tmp, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
}

// fields.h5: root attributes and one external link per finished frame; then fields.xdmf.
void Hdf5Writer::write_index() const {
  const fs::path path = run_dir_ / "fields.h5";
  const fs::path tmp = path.string() + ".tmp";
  const h5::File f(path);
  try {
    Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
    write_run_attributes(f, file.get());
    f.attr_int(file.get(), "frames", std::int64_t(frames_.size()));
    for (std::size_t n = 0; n < frames_.size(); ++n)
      f.check(H5Lcreate_external(frame_file(std::int64_t(n)).c_str(), "/", file.get(), frames_[n].group.c_str(),
                                 H5P_DEFAULT, H5P_DEFAULT),
              "link " + frames_[n].group);
    if (!file.close()) f.fail("close (flush) file");
    publish_file(tmp, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  write_xdmf(run_dir_ / "fields.xdmf", grid_, frames_);
}

// The index entry of an existing frame file, for continuing a run: its time and the fields it holds.
XdmfFrame Hdf5Writer::read_back(std::int64_t number) const {
  const fs::path path = run_dir_ / frame_file(number);
  const h5::File f(path);
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
    x.fields.push_back({name, rank == 4 ? 3 : 1, H5Tget_size(type.get()) == 1 ? FieldType::UInt8 : FieldType::Float32});
  }
  H5Eclear2(H5E_DEFAULT);
  return x;
}

void Hdf5Writer::write(const Frame& frame) {
  const std::vector<FieldView> fields = present_fields(frame, grid_);  // before touching any file
  h5::QuietErrors quiet;
  const std::string file = frame_file(counter_);
  write_frame_file(run_dir_ / file, frame, fields);
  XdmfFrame entry{"frame_" + frame_number(counter_), frame.time, {}, file + ":/"};
  for (const FieldView& f : fields) entry.fields.push_back({f.name, f.components, f.type});
  frames_.push_back(std::move(entry));
  try {
    write_index();
  } catch (...) {
    frames_.pop_back();  // the frame number is not consumed; a retry rewrites the frame file
    throw;
  }
  ++counter_;
}

}  // namespace

std::unique_ptr<FieldWriter> make_hdf5_writer(const fs::path& run_dir, const GridInfo& grid,
                                              const Attributes& attributes, const std::vector<double>& resume_times) {
  h5::QuietErrors quiet;
  return std::make_unique<Hdf5Writer>(run_dir, grid, attributes, resume_times);
}

}  // namespace aerolbm
