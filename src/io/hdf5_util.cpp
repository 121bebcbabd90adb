#include "src/io/hdf5_util.hpp"

namespace aerolbm::h5 {
namespace {

// HDF5 closes every open file from an atexit handler. A file whose writes failed (disk full, size limit) cannot
// be closed, and HDF5 1.10 crashes in that handler instead of giving up, turning a clean "disk full" exit into a
// segmentation fault. Every file here is closed explicitly, so the handler has nothing to do: switch it off.
// (Must run before any other HDF5 call, hence a static initialiser of this file, which every HDF5 user links.)
const bool g_no_atexit = [] {
  H5dont_atexit();
  return true;
}();

}  // namespace

std::recursive_mutex& library_mutex() {
  static std::recursive_mutex m;
  return m;
}

Handle half_type(const File& f) {
  Handle t = f.open(H5Tcopy(H5T_IEEE_F32LE), H5Tclose, "define the 16-bit float type");
  // Fields first (they fit in the 32 bits), then the size, which shrinks the precision to 16 bits.
  f.check(H5Tset_fields(t.get(), 15, 10, 5, 0, 10), "define the 16-bit float type");
  f.check(H5Tset_size(t.get(), 2), "define the 16-bit float type");
  f.check(H5Tset_ebias(t.get(), 15), "define the 16-bit float type");
  return t;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

// For system errors the innermost entry is a long line with a time stamp and buffer addresses; the operating
// system's message inside it is what a person needs.
std::string error_cause() {
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

bool Handle::close() {
  if (id_ < 0 || !close_) return true;
  const herr_t rc = close_(id_);
  id_ = H5I_INVALID_HID;
  return rc >= 0;
}

void File::fail(const std::string& operation) const {
  const std::string cause = error_cause();
  throw Error("HDF5 error in '" + path_.string() + "': " + operation + (cause.empty() ? std::string() : ": " + cause));
}

void File::attr_int(hid_t obj, const std::string& name, std::int64_t value) const {
  const std::string op = "write attribute '" + name + "'";
  Handle space = open(H5Screate(H5S_SCALAR), H5Sclose, op);
  Handle attr =
      open(H5Acreate2(obj, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, op);
  check(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value), op);
}

void File::attr_doubles(hid_t obj, const std::string& name, const double* values, hsize_t count) const {
  const std::string op = "write attribute '" + name + "'";
  Handle space = count == 1 ? open(H5Screate(H5S_SCALAR), H5Sclose, op)
                            : open(H5Screate_simple(1, &count, nullptr), H5Sclose, op);
  Handle attr =
      open(H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, op);
  check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, values), op);
}

// Variable-length UTF-8 strings: h5py returns them as str, not bytes, and there is no length limit to pick.
void File::attr_string(hid_t obj, const std::string& name, const std::string& value) const {
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

std::int64_t File::read_attr_int(hid_t obj, const std::string& name) const {
  const std::string op = "read attribute '" + name + "'";
  Handle attr = open(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose, op);
  std::int64_t v = 0;
  check(H5Aread(attr.get(), H5T_NATIVE_INT64, &v), op);
  return v;
}

double File::read_attr_double(hid_t obj, const std::string& name) const {
  const std::string op = "read attribute '" + name + "'";
  Handle attr = open(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose, op);
  double v = 0;
  check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v), op);
  return v;
}

std::string File::read_attr_string(hid_t obj, const std::string& name) const {
  const std::string op = "read attribute '" + name + "'";
  Handle attr = open(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose, op);
  Handle type = open(H5Tcopy(H5T_C_S1), H5Tclose, op);
  check(H5Tset_size(type.get(), H5T_VARIABLE), op);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), op);
  char* text = nullptr;
  check(H5Aread(attr.get(), type.get(), &text), op);
  std::string out = text ? text : "";
  H5free_memory(text);
  return out;
}

void File::write_dataset(hid_t loc, const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                         const std::vector<hsize_t>& dims) const {
  const std::string op = "write dataset '" + name + "'";
  Handle space = open(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose, op);
  Handle dset =
      open(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose, op);
  hsize_t count = 1;
  for (hsize_t d : dims) count *= d;
  if (count > 0) check(H5Dwrite(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), op);
}

hsize_t File::dataset_size(hid_t loc, const std::string& name) const {
  const std::string op = "open dataset '" + name + "'";
  Handle dset = open(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), H5Dclose, op);
  Handle space = open(H5Dget_space(dset.get()), H5Sclose, op);
  const hssize_t n = check(H5Sget_simple_extent_npoints(space.get()), op);
  return static_cast<hsize_t>(n);
}

void File::read_array(hid_t loc, const std::string& name, hid_t mem_type, void* data, hsize_t expected) const {
  const std::string op = "read dataset '" + name + "'";
  if (dataset_size(loc, name) != expected)
    throw Error("'" + path_.string() + "': dataset '" + name + "' has " + std::to_string(dataset_size(loc, name)) +
                " values, expected " + std::to_string(expected));
  Handle dset = open(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), H5Dclose, op);
  if (expected > 0) check(H5Dread(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), op);
}

}  // namespace aerolbm::h5
