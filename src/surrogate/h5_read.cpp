#include "src/surrogate/h5_read.hpp"

#include <stdexcept>

namespace aerolbm::surrogate {
namespace {

// H5Lexists fails on a missing intermediate group, so check each level.
bool link_exists(hid_t file, const std::string& path) {
  if (path == "/" || path.empty()) return true;
  std::size_t start = path[0] == '/' ? 1 : 0;
  while (start <= path.size()) {
    const std::size_t end = path.find('/', start);
    const std::string sofar = path.substr(0, end == std::string::npos ? path.size() : end);
    if (H5Lexists(file, sofar.c_str(), H5P_DEFAULT) <= 0) return false;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return true;
}

bool is_dataset(hid_t file, const std::string& path) {
  if (!link_exists(file, path)) return false;
  const hid_t obj = H5Oopen(file, path.c_str(), H5P_DEFAULT);
  if (obj < 0) return false;
  const bool dataset = H5Iget_type(obj) == H5I_DATASET;
  H5Oclose(obj);
  return dataset;
}

std::optional<h5::Handle> open_attr(hid_t file, const std::string& object, const std::string& name) {
  if (!link_exists(file, object)) return std::nullopt;
  if (H5Aexists_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
  const hid_t a = H5Aopen_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0) return std::nullopt;
  return h5::Handle(a, H5Aclose);
}

// Number of elements of an attribute (scalar: 1).
hssize_t attr_points(hid_t attr) {
  h5::Handle space(H5Aget_space(attr), H5Sclose);
  return space.get() < 0 ? -1 : H5Sget_simple_extent_npoints(space.get());
}

H5T_class_t attr_class(hid_t attr) {
  h5::Handle type(H5Aget_type(attr), H5Tclose);
  return type.get() < 0 ? H5T_NO_CLASS : H5Tget_class(type.get());
}

}  // namespace

H5In::H5In(const std::filesystem::path& path) : path_(path) {
  h5::QuietErrors quiet;
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) throw std::runtime_error("there is no file " + path_.string());
  if (!std::filesystem::is_regular_file(path_, ec)) throw std::runtime_error(path_.string() + " is not a file");
  if (H5Fis_hdf5(path_.c_str()) <= 0)
    throw std::runtime_error(path_.string() + " is not an HDF5 file (or it is truncated or corrupt)");
  const hid_t f = H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) throw std::runtime_error("cannot open " + path_.string() + " as HDF5: " + h5::error_cause());
  file_ = h5::Handle(f, H5Fclose);
}

bool H5In::has(const std::string& path) const {
  h5::QuietErrors quiet;
  return link_exists(file_.get(), path);
}

std::optional<std::vector<std::int64_t>> H5In::shape(const std::string& path) const {
  h5::QuietErrors quiet;
  if (!is_dataset(file_.get(), path)) return std::nullopt;
  h5::Handle d(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (d.get() < 0) return std::nullopt;
  h5::Handle space(H5Dget_space(d.get()), H5Sclose);
  const int rank = space.get() < 0 ? -1 : H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 8) return std::nullopt;
  hsize_t dims[8] = {};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  return std::vector<std::int64_t>(dims, dims + rank);
}

std::string H5In::type_class(const std::string& path) const {
  h5::QuietErrors quiet;
  h5::Handle d(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (d.get() < 0) return "unreadable";
  h5::Handle t(H5Dget_type(d.get()), H5Tclose);
  switch (t.get() < 0 ? H5T_NO_CLASS : H5Tget_class(t.get())) {
    case H5T_FLOAT: return "float";
    case H5T_INTEGER: return "integer";
    case H5T_STRING: return "string";
    case H5T_COMPOUND: return "compound";
    default: return "other";
  }
}

void H5In::read(const std::string& path, hid_t mem_type, void* out) const {
  h5::QuietErrors quiet;
  h5::Handle d(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (d.get() < 0 || H5Dread(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
    throw std::runtime_error("cannot read dataset " + path + " of " + path_.string() + ": " + h5::error_cause());
}

namespace {
std::size_t count_of(const std::optional<std::vector<std::int64_t>>& s) {
  std::size_t n = 1;
  for (auto d : *s) n *= std::size_t(d);
  return n;
}
}  // namespace

std::vector<float> H5In::floats(const std::string& path) const {
  const auto s = shape(path);
  if (!s) throw std::runtime_error("dataset " + path + " is missing in " + path_.string());
  std::vector<float> v(count_of(s));
  if (!v.empty()) read(path, H5T_NATIVE_FLOAT, v.data());
  return v;
}

std::vector<double> H5In::doubles(const std::string& path) const {
  const auto s = shape(path);
  if (!s) throw std::runtime_error("dataset " + path + " is missing in " + path_.string());
  std::vector<double> v(count_of(s));
  if (!v.empty()) read(path, H5T_NATIVE_DOUBLE, v.data());
  return v;
}

std::vector<std::int64_t> H5In::ints(const std::string& path) const {
  const auto s = shape(path);
  if (!s) throw std::runtime_error("dataset " + path + " is missing in " + path_.string());
  std::vector<std::int64_t> v(count_of(s));
  if (!v.empty()) read(path, H5T_NATIVE_INT64, v.data());
  return v;
}

std::vector<std::uint8_t> H5In::bytes(const std::string& path) const {
  const auto s = shape(path);
  if (!s) throw std::runtime_error("dataset " + path + " is missing in " + path_.string());
  std::vector<std::uint8_t> v(count_of(s));
  if (!v.empty()) read(path, H5T_NATIVE_UINT8, v.data());
  return v;
}

bool H5In::has_attr(const std::string& name, const std::string& object) const {
  h5::QuietErrors quiet;
  return open_attr(file_.get(), object, name).has_value();
}

std::optional<std::int64_t> H5In::attr_int(const std::string& name, const std::string& object) const {
  h5::QuietErrors quiet;
  auto a = open_attr(file_.get(), object, name);
  if (!a || attr_class(a->get()) != H5T_INTEGER || attr_points(a->get()) != 1) return std::nullopt;
  std::int64_t v = 0;
  if (H5Aread(a->get(), H5T_NATIVE_INT64, &v) < 0) return std::nullopt;
  return v;
}

std::optional<double> H5In::attr_double(const std::string& name, const std::string& object) const {
  h5::QuietErrors quiet;
  auto a = open_attr(file_.get(), object, name);
  if (!a) return std::nullopt;
  const H5T_class_t c = attr_class(a->get());
  if ((c != H5T_INTEGER && c != H5T_FLOAT) || attr_points(a->get()) != 1) return std::nullopt;
  double v = 0;
  if (H5Aread(a->get(), H5T_NATIVE_DOUBLE, &v) < 0) return std::nullopt;
  return v;
}

std::optional<std::string> H5In::attr_string(const std::string& name, const std::string& object) const {
  h5::QuietErrors quiet;
  auto a = open_attr(file_.get(), object, name);
  if (!a) return std::nullopt;
  h5::Handle type(H5Aget_type(a->get()), H5Tclose);
  if (type.get() < 0 || H5Tget_class(type.get()) != H5T_STRING || attr_points(a->get()) != 1) return std::nullopt;
  if (H5Tis_variable_str(type.get()) > 0) {
    h5::Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    char* text = nullptr;
    if (H5Aread(a->get(), mem.get(), &text) < 0) return std::nullopt;
    std::string s = text ? text : "";
    H5free_memory(text);
    return s;
  }
  const std::size_t size = H5Tget_size(type.get());
  std::string s(size, '\0');
  if (H5Aread(a->get(), type.get(), s.data()) < 0) return std::nullopt;
  const auto z = s.find('\0');
  if (z != std::string::npos) s.resize(z);
  return s;
}

}  // namespace aerolbm::surrogate
