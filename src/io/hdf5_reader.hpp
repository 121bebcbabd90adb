#pragma once
// Checked reading of HDF5 files that come from outside: run folders read back by aerolbm compare, model files and
// sweep datasets of the surrogate. Objects are named by absolute path ("/", "/frame_000001", "/weights/head.W");
// attribute calls take the object first, then the attribute's name. What is absent comes back as nullopt (or
// false), so the caller can say what it expected; what is there but of another kind, or cannot be read, throws
// h5::Error "<file>: <what is wrong>". Every call holds h5::library_mutex() and keeps HDF5's error printer quiet.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/io/hdf5_util.hpp"

namespace aerolbm::h5 {

class Reader {
 public:
  // Opens the file read-only; throws h5::Error when there is no file or it is not a readable HDF5 file.
  explicit Reader(std::filesystem::path path);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  const std::filesystem::path& path() const { return path_; }

  // Whether a link of that path exists ("/" always does).
  bool exists(const std::string& object) const;
  // Names of the groups directly under `group`, in HDF5's name order.
  std::vector<std::string> groups(const std::string& group) const;

  // Dimensions of a dataset; nullopt when there is none (an object that is not a dataset throws).
  std::optional<std::vector<std::int64_t>> shape(const std::string& dataset) const;
  // The dataset's HDF5 type class in words ("float", "integer", "string", "compound", "other"), for messages.
  std::string type_class(const std::string& dataset) const;
  // All values of a dataset, converted by HDF5 to T (float, double, std::int64_t, std::uint8_t): a uint8 mask
  // read as float becomes 0/1. Throws when the dataset is missing.
  template <class T>
  std::vector<T> read(const std::string& dataset) const;

  // Attributes of `object`: nullopt when absent, h5::Error when present but not what the name says.
  std::optional<std::int64_t> attr_int(const std::string& object, const std::string& name) const;  // one integer
  std::optional<double> attr_double(const std::string& object, const std::string& name) const;    // one number
  std::optional<std::vector<double>> attr_doubles(const std::string& object,
                                                  const std::string& name) const;  // 1 to 64 numbers
  std::optional<std::string> attr_string(const std::string& object, const std::string& name) const;  // one string

 private:
  [[noreturn]] void fail(const std::string& what, bool with_cause = false) const;
  std::optional<Handle> open_attr(const std::string& object, const std::string& name) const;
  std::filesystem::path path_;
  Handle file_;
};

}  // namespace aerolbm::h5
