#pragma once
// The little of the HDF5 C API that compare needs: open a file read-only, read scalar/array attributes, list
// groups, read a dataset's shape and its values as float, and write a few float datasets to a new file.
// Every failure becomes a CompareInputError (reading) or std::runtime_error (writing) naming the file and object;
// HDF5's own error printer is silenced while these calls run.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aerolbm {

// Owns one HDF5 identifier and closes it with the matching H5*close.
class H5Id {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Id() = default;
  H5Id(hid_t id, Closer close) : id_(id), close_(close) {}
  H5Id(H5Id&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  H5Id& operator=(H5Id&& o) noexcept {
    std::swap(id_, o.id_);
    std::swap(close_, o.close_);
    return *this;
  }
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  ~H5Id();
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

class H5Reader {
 public:
  // Throws CompareInputError when the file is missing or is not a readable HDF5 file.
  explicit H5Reader(std::filesystem::path path);
  const std::filesystem::path& path() const { return path_; }

  // Attributes of the object at `object` ("/" or "/frame_000001"); nullopt when absent.
  std::optional<std::int64_t> attr_int(const std::string& object, const std::string& name) const;
  std::optional<std::vector<double>> attr_doubles(const std::string& object, const std::string& name) const;
  std::optional<std::string> attr_string(const std::string& object, const std::string& name) const;

  // Names of the groups directly under the root, in HDF5's name order.
  std::vector<std::string> root_groups() const;
  // Dimensions of a dataset, nullopt when it does not exist.
  std::optional<std::vector<std::int64_t>> dataset_shape(const std::string& path) const;
  // All values of a dataset, converted to float by HDF5 (uint8 masks become 0/1).
  std::vector<float> read_floats(const std::string& path) const;

 private:
  [[noreturn]] void fail(const std::string& what) const;
  std::filesystem::path path_;
  H5Id file_;
};

// Writes float datasets with their shape into a new HDF5 file; for errors.h5. Root attributes are doubles.
struct H5FloatDataset {
  std::string name;
  std::vector<std::int64_t> shape;
  const std::vector<float>* values = nullptr;
};
void write_h5_floats(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::vector<double>>>& attrs,
                     const std::vector<H5FloatDataset>& datasets);

}  // namespace aerolbm
