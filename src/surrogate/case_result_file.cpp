#include "src/surrogate/case_result_file.hpp"

#include <cmath>
#include <mutex>

#include "src/io/atomic_file.hpp"
#include "src/io/hdf5_reader.hpp"
#include "src/io/hdf5_util.hpp"

namespace aerolbm::surrogate {

namespace {
constexpr const char* kFormat = "aerolbm-sweep-case";
}

void write_case_result(const std::filesystem::path& path, std::size_t index, const CaseResult& r,
                       const std::string& backend) {
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  const std::filesystem::path tmp = path.string() + ".tmp";
  const h5::File f(tmp);
  {
    h5::QuietErrors quiet;
    h5::Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create");
    try {
      const hid_t root = file.get();
      f.attr_string(root, "format", kFormat);
      f.attr_int(root, "version", 1);
      f.attr_int(root, "index", std::int64_t(index));
      f.attr_int(root, "ok", r.ok ? 1 : 0);
      f.attr_string(root, "error", r.error);
      f.attr_string(root, "backend", backend);
      const double numbers[4] = {r.cl, r.cd, r.seconds, r.wall};
      f.attr_doubles(root, "cl_cd_seconds_wall", numbers, 4);
      f.attr_doubles(root, "cm", &r.cm, 1);
      if (r.ok) {
        const hsize_t T = r.u.size(), S = r.sx.size();
        f.write_array(root, "u", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.u.data(), T);
        f.write_array(root, "v", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.v.data(), T);
        f.write_array(root, "p", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.p.data(), T);
        f.write_array(root, "sdf", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.sdf.data(), T);
        f.write_array(root, "mask", H5T_STD_U8LE, H5T_NATIVE_UINT8, r.mask.data(), T);
        f.write_array(root, "surface_x", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.sx.data(), S);
        f.write_array(root, "surface_y", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.sy.data(), S);
        f.write_array(root, "surface_cp", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r.scp.data(), S);
      }
      if (!file.close()) f.fail("close");
    } catch (...) {
      file = h5::Handle();
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw;
    }
  }
  publish_file(tmp, path);
}

StoredCase read_case_result(const std::filesystem::path& path, std::size_t index, std::size_t points) {
  const h5::Reader in(path);
  const auto bad = [&](const std::string& what) { return h5::Error(path.string() + ": " + what); };
  if (in.attr_string("/", "format").value_or("") != kFormat || in.attr_int("/", "version").value_or(0) != 1)
    throw bad(std::string("not a sweep case file (format ") + kFormat + ", version 1)");
  if (in.attr_int("/", "index").value_or(-1) != std::int64_t(index))
    throw bad("holds another case than " + std::to_string(index));
  const auto numbers = in.attr_doubles("/", "cl_cd_seconds_wall");
  if (!numbers || numbers->size() != 4) throw bad("attribute cl_cd_seconds_wall is missing");
  StoredCase out;
  CaseResult& r = out.result;
  r.ok = in.attr_int("/", "ok").value_or(0) == 1;
  r.error = in.attr_string("/", "error").value_or("");
  out.backend = in.attr_string("/", "backend").value_or("");
  r.cl = (*numbers)[0];
  r.cd = (*numbers)[1];
  r.seconds = (*numbers)[2];
  r.wall = (*numbers)[3];
  // The pitching moment (absent in a store written before the sweep kept it: NaN, and the dataset then has no cm).
  const auto cm = in.attr_doubles("/", "cm");
  r.cm = cm && cm->size() == 1 ? (*cm)[0] : std::nan("");
  if (!r.ok) return out;
  r.u = in.read<float>("/u");
  r.v = in.read<float>("/v");
  r.p = in.read<float>("/p");
  r.sdf = in.read<float>("/sdf");
  r.mask = in.read<std::uint8_t>("/mask");
  r.sx = in.read<float>("/surface_x");
  r.sy = in.read<float>("/surface_y");
  r.scp = in.read<float>("/surface_cp");
  for (const auto* x : {&r.u, &r.v, &r.p, &r.sdf})
    if (x->size() != points) throw bad("a field has " + std::to_string(x->size()) + " points, expected " +
                                       std::to_string(points) + " (the sweep's sample grid)");
  if (r.mask.size() != points || r.sy.size() != r.sx.size() || r.scp.size() != r.sx.size())
    throw bad("the mask or the surface arrays have the wrong size");
  return out;
}

}  // namespace aerolbm::surrogate
