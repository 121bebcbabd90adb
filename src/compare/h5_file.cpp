#include "src/compare/h5_file.hpp"

#include <cstdlib>
#include <stdexcept>

#include "src/compare/input_error.hpp"

namespace aerolbm {
namespace {

// HDF5 prints its whole error stack by default; we turn a failure into one message instead.
class Quiet {
 public:
  Quiet() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~Quiet() {
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, func_, data_);
  }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The innermost message of the error stack, the one that names the cause.
std::string cause() {
  std::string text;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        if (n == 0 && e && e->desc) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &text);
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

bool exists(hid_t file, const std::string& path) {
  if (path == "/") return true;
  // H5Lexists fails on a missing intermediate group, so check each level.
  std::string sofar;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t end = path.find('/', start);
    sofar = path.substr(0, end == std::string::npos ? path.size() : end);
    if (H5Lexists(file, sofar.c_str(), H5P_DEFAULT) <= 0) return false;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return true;
}

}  // namespace

H5Id::~H5Id() {
  if (id_ >= 0 && close_) {
    Quiet q;
    close_(id_);
  }
}

H5Reader::H5Reader(std::filesystem::path path) : path_(std::move(path)) {
  Quiet q;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path_, ec)) fail("the file is missing");
  if (H5Fis_hdf5(path_.c_str()) <= 0)
    fail("not a readable HDF5 file (corrupt or truncated, or not HDF5 at all)");
  file_ = H5Id(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file_.valid()) fail("cannot open it as HDF5: " + cause());
}

void H5Reader::fail(const std::string& what) const {
  throw CompareInputError(path_.string() + ": " + what +
                          ". The run folder looks damaged: rerun the case (aerolbm run) to rewrite it.");
}

std::optional<std::int64_t> H5Reader::attr_int(const std::string& object, const std::string& name) const {
  Quiet q;
  if (!exists(file_.get(), object) || H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) <= 0)
    return std::nullopt;
  H5Id a(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  std::int64_t v = 0;
  if (!a.valid() || H5Aread(a.get(), H5T_NATIVE_INT64, &v) < 0)
    fail("cannot read attribute '" + name + "' of " + object + ": " + cause());
  return v;
}

std::optional<std::vector<double>> H5Reader::attr_doubles(const std::string& object, const std::string& name) const {
  Quiet q;
  if (!exists(file_.get(), object) || H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) <= 0)
    return std::nullopt;
  H5Id a(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.valid()) fail("cannot open attribute '" + name + "' of " + object + ": " + cause());
  H5Id space(H5Aget_space(a.get()), H5Sclose);
  const hssize_t n = space.valid() ? H5Sget_simple_extent_npoints(space.get()) : -1;
  if (n < 1 || n > 64) fail("attribute '" + name + "' of " + object + " has an unexpected size");
  std::vector<double> v(static_cast<std::size_t>(n));
  if (H5Aread(a.get(), H5T_NATIVE_DOUBLE, v.data()) < 0)
    fail("cannot read attribute '" + name + "' of " + object + " as numbers: " + cause());
  return v;
}

std::optional<std::string> H5Reader::attr_string(const std::string& object, const std::string& name) const {
  Quiet q;
  if (!exists(file_.get(), object) || H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) <= 0)
    return std::nullopt;
  H5Id a(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  H5Id type(a.valid() ? H5Aget_type(a.get()) : H5I_INVALID_HID, H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
  if (H5Tis_variable_str(type.get()) > 0) {
    H5Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    char* text = nullptr;
    if (H5Aread(a.get(), mem.get(), &text) < 0) fail("cannot read attribute '" + name + "': " + cause());
    std::string s = text ? text : "";
    H5free_memory(text);
    return s;
  }
  const std::size_t size = H5Tget_size(type.get());
  std::string s(size, '\0');
  if (H5Aread(a.get(), type.get(), s.data()) < 0) fail("cannot read attribute '" + name + "': " + cause());
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

std::vector<std::string> H5Reader::root_groups() const {
  Quiet q;
  std::vector<std::string> names;
  // HDF5 1.10 (Debian 12): H5Literate with H5L_info_t; the object type from opening it.
  const herr_t rc = H5Literate(
      file_.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t g, const char* name, const H5L_info_t*, void* out) -> herr_t {
        const hid_t obj = H5Oopen(g, name, H5P_DEFAULT);
        if (obj < 0) return -1;
        const bool group = H5Iget_type(obj) == H5I_GROUP;
        H5Oclose(obj);
        if (group) static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  if (rc < 0) fail("cannot list its frames: " + cause());
  return names;
}

std::optional<std::vector<std::int64_t>> H5Reader::dataset_shape(const std::string& path) const {
  Quiet q;
  if (!exists(file_.get(), path)) return std::nullopt;
  H5Id d(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) fail("cannot open dataset " + path + ": " + cause());
  H5Id space(H5Dget_space(d.get()), H5Sclose);
  const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
  if (rank < 0 || rank > 8) fail("dataset " + path + " has no readable shape");
  hsize_t dims[8] = {};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  return std::vector<std::int64_t>(dims, dims + rank);
}

std::vector<float> H5Reader::read_floats(const std::string& path) const {
  const auto shape = dataset_shape(path);
  if (!shape) fail("dataset " + path + " is missing");
  Quiet q;
  std::size_t n = 1;
  for (auto d : *shape) n *= static_cast<std::size_t>(d);
  std::vector<float> v(n);
  H5Id d(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid() || H5Dread(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    fail("cannot read dataset " + path + " (truncated or corrupt file): " + cause());
  return v;
}

void write_h5_floats(const std::filesystem::path& path,
                     const std::vector<std::pair<std::string, std::vector<double>>>& attrs,
                     const std::vector<H5FloatDataset>& datasets) {
  Quiet q;
  const auto check = [&](herr_t rc, const std::string& what) {
    if (rc < 0) throw std::runtime_error("cannot write '" + path.string() + "': " + what + ": " + cause());
  };
  H5Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  check(file.valid() ? 0 : -1, "create");
  for (const auto& [name, values] : attrs) {
    const hsize_t n = values.size();
    H5Id space(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose);
    H5Id a(H5Acreate2(file.get(), name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    check(a.valid() ? H5Awrite(a.get(), H5T_NATIVE_DOUBLE, values.data()) : -1, "attribute " + name);
  }
  for (const auto& ds : datasets) {
    std::vector<hsize_t> dims(ds.shape.begin(), ds.shape.end());
    H5Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
    H5Id d(H5Dcreate2(file.get(), ds.name.c_str(), H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                      H5P_DEFAULT),
           H5Dclose);
    check(d.valid() ? H5Dwrite(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, ds.values->data()) : -1,
          "dataset " + ds.name);
  }
  check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "flush");
}

}  // namespace aerolbm
