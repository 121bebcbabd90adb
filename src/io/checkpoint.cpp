#include "src/io/checkpoint.hpp"

#include <unistd.h>

#include <mutex>
#include <stdexcept>
#include <utility>

#include "src/io/atomic_file.hpp"
#include "src/io/hdf5_util.hpp"

namespace aerolbm {
namespace {

namespace fs = std::filesystem;
using h5::Handle;

constexpr std::int64_t kFormatVersion = 1;

bool exact_in_float(const std::vector<double>& v) {
  for (double x : v)
    if (double(float(x)) != x) return false;
  return true;
}

}  // namespace

std::uint64_t fingerprint(const void* data, std::size_t bytes) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

// The checkpoint's contents into `tmp`, closed (flushed).
void write_file(const fs::path& tmp, const h5::File& f, const Checkpoint& c) {
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  h5::QuietErrors quiet;
  Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
  const hid_t root = file.get();
  f.attr_int(root, "checkpoint_format", kFormatVersion);
  f.attr_string(root, "stencil", c.stencil);
  f.attr_string(root, "precision", c.precision);
  f.attr_string(root, "collision", c.collision);
  f.attr_int(root, "nx", c.nx);
  f.attr_int(root, "ny", c.ny);
  f.attr_int(root, "nz", c.nz);
  f.attr_int(root, "q", c.q);
  f.attr_string(root, "geometry_hash", std::to_string(c.geometry_hash));
  f.attr_doubles(root, "tau", &c.tau, 1);
  f.attr_doubles(root, "u_lattice", &c.u_lattice, 1);
  f.attr_int(root, "step", c.step);
  f.attr_doubles(root, "time", &c.time, 1);
  f.attr_string(root, "case_yaml", c.case_yaml);
  const bool as_float = exact_in_float(c.populations);
  f.write_array(root, "populations", as_float ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                c.populations.data(), c.populations.size());
  f.write_array(root, "force_steps", H5T_STD_I64LE, H5T_NATIVE_INT64, c.force_steps.data(), c.force_steps.size());
  f.write_array(root, "force_times", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.force_times.data(), c.force_times.size());
  f.write_array(root, "cd", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.cd.data(), c.cd.size());
  f.write_array(root, "cl", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.cl.data(), c.cl.size());
  f.write_array(root, "cs", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.cs.data(), c.cs.size());
  // 3D bodies only; a reader of an older checkpoint finds none and leaves them empty.
  if (!c.croll.empty()) {
    f.write_array(root, "croll", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.croll.data(), c.croll.size());
    f.write_array(root, "cyaw", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.cyaw.data(), c.cyaw.size());
    f.write_array(root, "cpitch", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.cpitch.data(), c.cpitch.size());
  }
  if (!c.cd_pressure.empty())
    f.write_array(root, "cd_pressure", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.cd_pressure.data(), c.cd_pressure.size());
  f.write_array(root, "frame_times", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, c.frame_times.data(), c.frame_times.size());
  if (!file.close()) f.fail("close (flush) file");
}

}  // namespace

void write_checkpoint(const fs::path& path, const Checkpoint& c) { write_checkpoint(path, c, {}); }

std::uint64_t write_checkpoint(const fs::path& path, const Checkpoint& c, const std::function<void()>& before_publish) {
  const fs::path tmp = path.string() + ".tmp";
  const h5::File f(path);
  try {
    write_file(tmp, f, c);
    sync_file(tmp, path);
    std::error_code ec;
    const std::uint64_t bytes = fs::file_size(tmp, ec);
    if (before_publish) before_publish();
    rename_into_place(tmp, path);
    return ec ? 0 : bytes;
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
}

Checkpoint read_checkpoint(const fs::path& path) {
  const h5::File f(path);
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  std::error_code ec;
  if (!fs::exists(path, ec)) throw std::runtime_error("'" + path.string() + "' does not exist");
  h5::QuietErrors quiet;
  Handle file = f.open(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open file");
  const hid_t root = file.get();
  if (H5Aexists(root, "checkpoint_format") <= 0)
    throw std::runtime_error("'" + path.string() + "' is not an aerolbm checkpoint");
  const std::int64_t version = f.read_attr_int(root, "checkpoint_format");
  if (version != kFormatVersion)
    throw std::runtime_error("'" + path.string() + "' has checkpoint format " + std::to_string(version) +
                             ", this aerolbm reads format " + std::to_string(kFormatVersion));
  Checkpoint c;
  c.stencil = f.read_attr_string(root, "stencil");
  c.precision = f.read_attr_string(root, "precision");
  c.collision = f.read_attr_string(root, "collision");
  c.nx = f.read_attr_int(root, "nx");
  c.ny = f.read_attr_int(root, "ny");
  c.nz = f.read_attr_int(root, "nz");
  c.q = int(f.read_attr_int(root, "q"));
  c.geometry_hash = std::stoull(f.read_attr_string(root, "geometry_hash"));
  c.tau = f.read_attr_double(root, "tau");
  c.u_lattice = f.read_attr_double(root, "u_lattice");
  c.step = f.read_attr_int(root, "step");
  c.time = f.read_attr_double(root, "time");
  c.case_yaml = f.read_attr_string(root, "case_yaml");
  // Q × cells on one grid; every level's with refinement (RefinedLevels).
  const hsize_t n = f.dataset_size(root, "populations");
  c.populations.resize(n);
  f.read_array(root, "populations", H5T_NATIVE_DOUBLE, c.populations.data(), n);
  const hsize_t samples = f.dataset_size(root, "force_steps");
  c.force_steps.resize(samples);
  c.force_times.resize(samples);
  c.cd.resize(samples);
  c.cl.resize(samples);
  c.cs.resize(samples);
  f.read_array(root, "force_steps", H5T_NATIVE_INT64, c.force_steps.data(), samples);
  f.read_array(root, "force_times", H5T_NATIVE_DOUBLE, c.force_times.data(), samples);
  f.read_array(root, "cd", H5T_NATIVE_DOUBLE, c.cd.data(), samples);
  f.read_array(root, "cl", H5T_NATIVE_DOUBLE, c.cl.data(), samples);
  f.read_array(root, "cs", H5T_NATIVE_DOUBLE, c.cs.data(), samples);
  if (H5Lexists(root, "croll", H5P_DEFAULT) > 0) {
    for (auto [name, v] : {std::pair{"croll", &c.croll}, std::pair{"cyaw", &c.cyaw}, std::pair{"cpitch", &c.cpitch}}) {
      v->resize(samples);
      f.read_array(root, name, H5T_NATIVE_DOUBLE, v->data(), samples);
    }
  }
  if (H5Lexists(root, "cd_pressure", H5P_DEFAULT) > 0) {
    c.cd_pressure.resize(samples);
    f.read_array(root, "cd_pressure", H5T_NATIVE_DOUBLE, c.cd_pressure.data(), samples);
  }
  const hsize_t frames = f.dataset_size(root, "frame_times");
  c.frame_times.resize(frames);
  f.read_array(root, "frame_times", H5T_NATIVE_DOUBLE, c.frame_times.data(), frames);
  return c;
}

}  // namespace aerolbm
