// RUN/fields.h5 + RUN/fields.xdmf. Layout (the contract postprocess/ and ParaView rely on):
//   /                     attributes: every Attributes entry (double or string), nx, ny, nz (int64),
//                         origin, spacing (double[3], x y z order)
//   /frame_000123/        attributes step (int64), time (double)
//       velocity          float32 (nz, ny, nx, 3)       units "U_inf"
//       pressure, density float32 (nz, ny, nx)
//       vorticity         float32 (nz, ny, nx) or (nz, ny, nx, 3)
//       mask              uint8   (nz, ny, nx)
#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/io/field_writer.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/xdmf_writer.hpp"

namespace aerolbm {
namespace {

// HDF5 prints its whole error stack to stderr by default. We turn each failure into one exception instead, so
// the default printer is switched off while a writer call runs and restored afterwards (other code, such as a
// checkpoint writer, keeps whatever setting it chose).
class QuietHdf5Errors {
 public:
  QuietHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietHdf5Errors(const QuietHdf5Errors&) = delete;
  QuietHdf5Errors& operator=(const QuietHdf5Errors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The innermost entry of the HDF5 error stack carries the useful cause. For system errors it is a long line
// with a time stamp and buffer addresses; the operating system's message inside it is what a person needs.
std::string hdf5_cause() {
  std::string cause;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        if (n == 0 && e && e->desc) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &cause);
  H5Eclear2(H5E_DEFAULT);
  const std::string key = "error message = '";
  const std::size_t at = cause.find(key);
  if (at != std::string::npos) {
    const std::size_t end = cause.find('\'', at + key.size());
    if (end != std::string::npos) cause = cause.substr(at + key.size(), end - at - key.size());
  }
  for (char& c : cause)
    if (c == '\n') c = ' ';
  return cause;
}

// Owns one HDF5 identifier; closing order is the reverse of creation through scope, as HDF5 expects.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    std::swap(id_, o.id_);
    std::swap(close_, o.close_);
    return *this;
  }
  ~Handle() {
    if (id_ >= 0 && close_) close_(id_);
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

class Hdf5Writer final : public FieldWriter {
 public:
  Hdf5Writer(const std::filesystem::path& run_dir, const GridInfo& grid, const Attributes& attributes);
  ~Hdf5Writer() override { QuietHdf5Errors quiet; file_ = Handle(); }
  void write(const Frame& frame) override;

 private:
  template <class T>
  T check(T result, const std::string& operation) const {
    if (result < 0) {
      const std::string cause = hdf5_cause();
      throw std::runtime_error("HDF5 error in '" + h5_path_.string() + "': " + operation +
                               (cause.empty() ? std::string() : ": " + cause));
    }
    return result;
  }
  Handle open(hid_t id, Handle::Closer close, const std::string& operation) const {
    return Handle(check(id, operation), close);
  }
  void attr_int(hid_t obj, const std::string& name, std::int64_t value) const;
  void attr_doubles(hid_t obj, const std::string& name, const double* values, hsize_t count) const;
  void attr_string(hid_t obj, const std::string& name, const std::string& value) const;
  void write_field(hid_t group, const std::string& group_name, const FieldView& field) const;

  std::filesystem::path h5_path_, xdmf_path_;
  GridInfo grid_;
  Handle file_;
  std::int64_t counter_ = 0;
  std::vector<XdmfFrame> frames_;  // finished frames, for regenerating the .xdmf
};

Hdf5Writer::Hdf5Writer(const std::filesystem::path& run_dir, const GridInfo& grid, const Attributes& attributes)
    : h5_path_(run_dir / "fields.h5"), xdmf_path_(run_dir / "fields.xdmf"), grid_(grid) {
  check_grid(grid);
  create_output_folder(run_dir);
  QuietHdf5Errors quiet;
  file_ = open(H5Fcreate(h5_path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
  const hid_t root = file_.get();
  for (const auto& [name, value] : attributes.numbers) attr_doubles(root, name, &value, 1);
  for (const auto& [name, value] : attributes.strings) attr_string(root, name, value);
  attr_int(root, "nx", grid.nx);
  attr_int(root, "ny", grid.ny);
  attr_int(root, "nz", grid.nz);
  attr_doubles(root, "origin", grid.origin.data(), 3);
  attr_doubles(root, "spacing", grid.spacing.data(), 3);
  check(H5Fflush(root, H5F_SCOPE_GLOBAL), "flush root attributes");
  // Replace any .xdmf left by an earlier run in this folder: it would point into the file we just truncated.
  write_xdmf(xdmf_path_, grid_, h5_path_.filename().string(), frames_);
}

void Hdf5Writer::attr_int(hid_t obj, const std::string& name, std::int64_t value) const {
  const std::string op = "write attribute '" + name + "'";
  Handle space = open(H5Screate(H5S_SCALAR), H5Sclose, op);
  Handle attr =
      open(H5Acreate2(obj, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, op);
  check(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value), op);
}

void Hdf5Writer::attr_doubles(hid_t obj, const std::string& name, const double* values, hsize_t count) const {
  const std::string op = "write attribute '" + name + "'";
  Handle space = count == 1 ? open(H5Screate(H5S_SCALAR), H5Sclose, op)
                            : open(H5Screate_simple(1, &count, nullptr), H5Sclose, op);
  Handle attr =
      open(H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, op);
  check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, values), op);
}

// Variable-length UTF-8 strings: h5py returns them as str, not bytes, and there is no length limit to pick.
void Hdf5Writer::attr_string(hid_t obj, const std::string& name, const std::string& value) const {
  const std::string op = "write attribute '" + name + "'";
  Handle type = open(H5Tcopy(H5T_C_S1), H5Tclose, op);
  check(H5Tset_size(type.get(), H5T_VARIABLE), op);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), op);
  Handle space = open(H5Screate(H5S_SCALAR), H5Sclose, op);
  Handle attr =
      open(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, op);
  const char* text = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &text), op);
}

void Hdf5Writer::write_field(hid_t group, const std::string& group_name, const FieldView& field) const {
  const std::string op = "write dataset '" + group_name + "/" + field.name + "'";
  const hsize_t dims[4] = {static_cast<hsize_t>(grid_.nz), static_cast<hsize_t>(grid_.ny),
                           static_cast<hsize_t>(grid_.nx), static_cast<hsize_t>(field.components)};
  const int rank = field.components == 1 ? 3 : 4;
  const bool u8 = field.type == FieldType::UInt8;
  Handle space = open(H5Screate_simple(rank, dims, nullptr), H5Sclose, op);
  Handle dset = open(H5Dcreate2(group, field.name.c_str(), u8 ? H5T_STD_U8LE : H5T_IEEE_F32LE, space.get(),
                                H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     H5Dclose, op);
  check(H5Dwrite(dset.get(), u8 ? H5T_NATIVE_UINT8 : H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, field.data),
        op);
  attr_string(dset.get(), "units", field.units);
}

void Hdf5Writer::write(const Frame& frame) {
  const std::vector<FieldView> fields = present_fields(frame, grid_);  // before touching the file
  QuietHdf5Errors quiet;
  const std::string name = "frame_" + frame_number(counter_);
  try {
    {
      Handle group = open(H5Gcreate2(file_.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                          "create group '" + name + "'");
      attr_int(group.get(), "step", frame.step);
      attr_doubles(group.get(), "time", &frame.time, 1);
      for (const FieldView& f : fields) write_field(group.get(), name, f);
    }
    // Only after this flush is the frame on disk in a state a reader can open, also if we are killed next.
    check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush " + name);
  } catch (...) {
    // Drop the half-written group so the retry of this frame number does not collide with it.
    H5Ldelete(file_.get(), name.c_str(), H5P_DEFAULT);
    H5Eclear2(H5E_DEFAULT);
    throw;
  }
  XdmfFrame entry{name, frame.time, {}};
  for (const FieldView& f : fields) entry.fields.push_back({f.name, f.components, f.type});
  frames_.push_back(std::move(entry));
  ++counter_;
  write_xdmf(xdmf_path_, grid_, h5_path_.filename().string(), frames_);
}

}  // namespace

std::unique_ptr<FieldWriter> make_hdf5_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                              const Attributes& attributes) {
  return std::make_unique<Hdf5Writer>(run_dir, grid, attributes);
}

}  // namespace aerolbm
