#include "src/io/hdf5_reader.hpp"

#include <mutex>

namespace aerolbm::h5 {
namespace {

// Held by every call: the library's lock, and HDF5's error printer off (a failure becomes one message instead).
struct Call {
  std::lock_guard<std::recursive_mutex> lock{library_mutex()};
  QuietErrors quiet;
};

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

std::string attr_words(const std::string& object, const std::string& name) {
  return object == "/" ? "root attribute '" + name + "'" : "attribute '" + name + "' of " + object;
}

// Number of elements of an attribute (scalar: 1).
hssize_t attr_points(hid_t attr) {
  Handle space(H5Aget_space(attr), H5Sclose);
  return space.get() < 0 ? -1 : H5Sget_simple_extent_npoints(space.get());
}

H5T_class_t attr_class(hid_t attr) {
  Handle type(H5Aget_type(attr), H5Tclose);
  return type.get() < 0 ? H5T_NO_CLASS : H5Tget_class(type.get());
}

bool is_number(H5T_class_t c) { return c == H5T_INTEGER || c == H5T_FLOAT; }

template <class T>
hid_t memory_type();
template <>
hid_t memory_type<float>() { return H5T_NATIVE_FLOAT; }
template <>
hid_t memory_type<double>() { return H5T_NATIVE_DOUBLE; }
template <>
hid_t memory_type<std::int64_t>() { return H5T_NATIVE_INT64; }
template <>
hid_t memory_type<std::uint8_t>() { return H5T_NATIVE_UINT8; }

}  // namespace

Reader::Reader(std::filesystem::path path) : path_(std::move(path)) {
  Call call;
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) fail("no file found");
  if (!std::filesystem::is_regular_file(path_, ec)) fail("not a regular file");
  if (H5Fis_hdf5(path_.c_str()) <= 0)
    fail("not a readable HDF5 file (truncated or corrupt, or not an HDF5 file at all)");
  file_ = Handle(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file_.get() < 0) fail("cannot open it as HDF5", true);
}

Reader::~Reader() {
  Call call;
  file_.close();
}

void Reader::fail(const std::string& what, bool with_cause) const {
  const std::string cause = with_cause ? error_cause() : std::string();
  throw Error(path_.string() + ": " + what + (cause.empty() ? std::string() : ": " + cause));
}

bool Reader::exists(const std::string& object) const {
  Call call;
  return link_exists(file_.get(), object);
}

std::vector<std::string> Reader::groups(const std::string& group) const {
  Call call;
  Handle g(H5Gopen2(file_.get(), group.c_str(), H5P_DEFAULT), H5Gclose);
  if (g.get() < 0) fail("cannot open group " + group, true);
  struct Listing {
    std::vector<std::string> names;
    std::string unreadable;  // the member that could not be opened
  } list;
  // HDF5 1.10 (Debian 12): H5Literate with H5L_info_t; the object type from opening it.
  const herr_t rc = H5Literate(
      g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t loc, const char* name, const H5L_info_t*, void* out) -> herr_t {
        auto* l = static_cast<Listing*>(out);
        const hid_t obj = H5Oopen(loc, name, H5P_DEFAULT);
        if (obj < 0) {
          l->unreadable = name;
          return -1;
        }
        const bool is_group = H5Iget_type(obj) == H5I_GROUP;
        H5Oclose(obj);
        if (is_group) l->names.push_back(name);
        return 0;
      },
      &list);
  if (rc < 0)
    fail(list.unreadable.empty() ? "cannot list the groups in " + group
                                 : "cannot open " + (group == "/" ? "" : group) + "/" + list.unreadable,
         true);
  return list.names;
}

std::optional<std::vector<std::int64_t>> Reader::shape(const std::string& dataset) const {
  Call call;
  if (!link_exists(file_.get(), dataset)) return std::nullopt;
  Handle d(H5Oopen(file_.get(), dataset.c_str(), H5P_DEFAULT), H5Oclose);
  if (d.get() < 0) fail("cannot open " + dataset, true);
  if (const H5I_type_t type = H5Iget_type(d.get()); type != H5I_DATASET)
    fail(dataset + " is " + (type == H5I_GROUP ? "a group" : "a named type") + ", expected a dataset");
  Handle space(H5Dget_space(d.get()), H5Sclose);
  const int rank = space.get() < 0 ? -1 : H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 8) fail("dataset " + dataset + " has no readable shape", true);
  hsize_t dims[8] = {};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  return std::vector<std::int64_t>(dims, dims + rank);
}

std::string Reader::type_class(const std::string& dataset) const {
  Call call;
  Handle d(H5Dopen2(file_.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
  if (d.get() < 0) return "unreadable";
  Handle t(H5Dget_type(d.get()), H5Tclose);
  switch (t.get() < 0 ? H5T_NO_CLASS : H5Tget_class(t.get())) {
    case H5T_FLOAT: return "float";
    case H5T_INTEGER: return "integer";
    case H5T_STRING: return "string";
    case H5T_COMPOUND: return "compound";
    default: return "other";
  }
}

template <class T>
std::vector<T> Reader::read(const std::string& dataset) const {
  Call call;
  const auto s = shape(dataset);
  if (!s) fail("dataset " + dataset + " is missing");
  std::size_t n = 1;
  for (auto d : *s) n *= std::size_t(d);
  std::vector<T> v(n);
  if (n == 0) return v;
  Handle d(H5Dopen2(file_.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
  if (d.get() < 0 || H5Dread(d.get(), memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    fail("cannot read dataset " + dataset + " (truncated or corrupt file?)", true);
  return v;
}

template std::vector<float> Reader::read<float>(const std::string&) const;
template std::vector<double> Reader::read<double>(const std::string&) const;
template std::vector<std::int64_t> Reader::read<std::int64_t>(const std::string&) const;
template std::vector<std::uint8_t> Reader::read<std::uint8_t>(const std::string&) const;

// Callers hold a Call.
std::optional<Handle> Reader::open_attr(const std::string& object, const std::string& name) const {
  if (!link_exists(file_.get(), object)) return std::nullopt;
  const htri_t there = H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT);
  if (there < 0) fail("cannot read the attributes of " + object, true);
  if (there == 0) return std::nullopt;
  Handle a(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (a.get() < 0) fail("cannot open " + attr_words(object, name), true);
  return a;
}

std::optional<std::int64_t> Reader::attr_int(const std::string& object, const std::string& name) const {
  Call call;
  const auto a = open_attr(object, name);
  if (!a) return std::nullopt;
  if (attr_class(a->get()) != H5T_INTEGER || attr_points(a->get()) != 1)
    fail(attr_words(object, name) + " is not a single integer");
  std::int64_t v = 0;
  if (H5Aread(a->get(), H5T_NATIVE_INT64, &v) < 0) fail("cannot read " + attr_words(object, name), true);
  return v;
}

std::optional<double> Reader::attr_double(const std::string& object, const std::string& name) const {
  Call call;
  const auto a = open_attr(object, name);
  if (!a) return std::nullopt;
  if (!is_number(attr_class(a->get())) || attr_points(a->get()) != 1)
    fail(attr_words(object, name) + " is not a single number");
  double v = 0;
  if (H5Aread(a->get(), H5T_NATIVE_DOUBLE, &v) < 0) fail("cannot read " + attr_words(object, name), true);
  return v;
}

std::optional<std::vector<double>> Reader::attr_doubles(const std::string& object, const std::string& name) const {
  Call call;
  const auto a = open_attr(object, name);
  if (!a) return std::nullopt;
  if (!is_number(attr_class(a->get()))) fail(attr_words(object, name) + " does not hold numbers");
  const hssize_t n = attr_points(a->get());
  if (n < 1 || n > 64)
    fail(attr_words(object, name) + " holds " + std::to_string(n) + " values, expected 1 to 64");
  std::vector<double> v(static_cast<std::size_t>(n));
  if (H5Aread(a->get(), H5T_NATIVE_DOUBLE, v.data()) < 0) fail("cannot read " + attr_words(object, name), true);
  return v;
}

std::optional<std::string> Reader::attr_string(const std::string& object, const std::string& name) const {
  Call call;
  const auto a = open_attr(object, name);
  if (!a) return std::nullopt;
  Handle type(H5Aget_type(a->get()), H5Tclose);
  if (type.get() < 0 || H5Tget_class(type.get()) != H5T_STRING || attr_points(a->get()) != 1)
    fail(attr_words(object, name) + " is not a single string");
  std::string s;
  if (H5Tis_variable_str(type.get()) > 0) {
    Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    char* text = nullptr;
    if (H5Aread(a->get(), mem.get(), &text) < 0) fail("cannot read " + attr_words(object, name), true);
    s = text ? text : "";
    H5free_memory(text);
    return s;
  }
  s.assign(H5Tget_size(type.get()), '\0');
  if (H5Aread(a->get(), type.get(), s.data()) < 0) fail("cannot read " + attr_words(object, name), true);
  const auto end = s.find('\0');
  if (end != std::string::npos) s.resize(end);
  return s;
}

}  // namespace aerolbm::h5
