#pragma once
// Read-only access to an HDF5 file for the surrogate's files: existence, shapes, attributes and whole datasets
// converted by HDF5 to the requested type. Absent objects are reported as such (nullopt / false) so the callers
// can say which one is missing; read failures throw std::runtime_error naming the object.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/io/hdf5_util.hpp"

namespace aerolbm::surrogate {

class H5In {
 public:
  // Throws std::runtime_error when the file is missing or not HDF5 (the message says which).
  explicit H5In(const std::filesystem::path& path);
  bool has(const std::string& path) const;
  std::optional<std::vector<std::int64_t>> shape(const std::string& path) const;  // nullopt: no such dataset
  // The dataset's HDF5 type class in words ("float", "integer", "string", ...), for messages.
  std::string type_class(const std::string& path) const;
  std::vector<float> floats(const std::string& path) const;
  std::vector<double> doubles(const std::string& path) const;
  std::vector<std::int64_t> ints(const std::string& path) const;
  std::vector<std::uint8_t> bytes(const std::string& path) const;
  bool has_attr(const std::string& name, const std::string& object = "/") const;
  std::optional<std::int64_t> attr_int(const std::string& name, const std::string& object = "/") const;
  std::optional<double> attr_double(const std::string& name, const std::string& object = "/") const;
  std::optional<std::string> attr_string(const std::string& name, const std::string& object = "/") const;

 private:
  void read(const std::string& path, hid_t mem_type, void* out) const;
  std::filesystem::path path_;
  h5::Handle file_;
};

}  // namespace aerolbm::surrogate
