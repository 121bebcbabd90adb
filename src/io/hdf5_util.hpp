#pragma once
// aerolbm's one HDF5 layer, with src/io/hdf5_reader.hpp (checked reading of files from outside: run folders,
// model files, datasets). Here: the library's lock, RAII handles, error messages, and File, the error context for
// writing a file and for reading aerolbm's own files back (checkpoints, frames) where anything absent is an error.
// Every failing HDF5 call becomes one h5::Error that names the file, the operation and the operating system's cause.
// Calls take the file or group first, then the name, then the data.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace aerolbm::h5 {

// What every function of the layer throws; the message names the file and the object.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// HDF5 is called from several threads (the output pipeline's writers, the checkpoint writer): every use holds this
// lock, for libraries built without thread safety (a thread-safe build also serialises calls inside). Recursive, so
// a function that holds it may call others that take it.
std::recursive_mutex& library_mutex();

// Switches HDF5's default error printer off while alive (restores the previous one).
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The innermost cause on the HDF5 error stack (the OS message for system errors); clears the stack.
std::string error_cause();

// Owns one HDF5 identifier.
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
  // Closes now and reports failure (a close flushes, so it can fail on a full disk).
  bool close();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

class File;

// IEEE 754 binary16 as an HDF5 datatype (HDF5 1.10 predefines none): a copy of IEEE F32LE with 1 sign, 5 exponent
// (bias 15) and 10 mantissa bits in 2 bytes. h5py reads it as numpy float16; a reader that asks for float
// (H5T_NATIVE_FLOAT: ParaView's XDMF reader, aerolbm compare) gets it converted by the library.
Handle half_type(const File& f);

// Error context for one file: check() throws h5::Error "HDF5 error in '<file>': <operation>: <cause>".
class File {
 public:
  explicit File(std::filesystem::path path) : path_(std::move(path)) {}
  const std::filesystem::path& path() const { return path_; }

  template <class T>
  T check(T result, const std::string& operation) const {
    if (result < 0) fail(operation);
    return result;
  }
  Handle open(hid_t id, Handle::Closer close, const std::string& operation) const {
    return Handle(check(id, operation), close);
  }
  [[noreturn]] void fail(const std::string& operation) const;

  void attr_int(hid_t obj, const std::string& name, std::int64_t value) const;
  void attr_doubles(hid_t obj, const std::string& name, const double* values, hsize_t count) const;
  void attr_string(hid_t obj, const std::string& name, const std::string& value) const;
  std::int64_t read_attr_int(hid_t obj, const std::string& name) const;
  double read_attr_double(hid_t obj, const std::string& name) const;
  std::string read_attr_string(hid_t obj, const std::string& name) const;
  // Dataset of shape `dims` (row-major, the last dimension fastest); file_type and mem_type as HDF5 types.
  void write_dataset(hid_t loc, const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                     const std::vector<hsize_t>& dims) const;
  // 1-D dataset of `count` values.
  void write_array(hid_t loc, const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                   hsize_t count) const {
    write_dataset(loc, name, file_type, mem_type, data, {count});
  }
  // Reads a dataset of exactly `expected` values (any rank), converted to mem_type, into `data`.
  void read_array(hid_t loc, const std::string& name, hid_t mem_type, void* data, hsize_t expected) const;
  hsize_t dataset_size(hid_t loc, const std::string& name) const;

 private:
  std::filesystem::path path_;
};

}  // namespace aerolbm::h5
