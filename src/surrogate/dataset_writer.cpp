#include "src/surrogate/dataset_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "src/io/atomic_file.hpp"
#include "src/io/hdf5_util.hpp"

namespace aerolbm::surrogate {
namespace {

using h5::Handle;

void attr_strings(const h5::File& f, hid_t obj, const std::string& name, const std::vector<std::string>& values) {
  const std::string op = "write attribute '" + name + "'";
  Handle type = f.open(H5Tcopy(H5T_C_S1), H5Tclose, op);
  f.check(H5Tset_size(type.get(), H5T_VARIABLE), op);
  f.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), op);
  const hsize_t n = values.size();
  Handle space = f.open(H5Screate_simple(1, &n, nullptr), H5Sclose, op);
  Handle attr = f.open(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, op);
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  f.check(H5Awrite(attr.get(), type.get(), ptrs.data()), op);
}

}  // namespace

void write_dataset(const std::filesystem::path& path, const SweepSpec& s, const std::vector<SweepCase>& cases,
                   const std::vector<CaseResult>& results, const std::string& backend) {
  std::vector<std::size_t> rows;
  std::vector<std::string> failed;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].ok) rows.push_back(i);
    else failed.push_back(std::to_string(i) + " NACA " + cases[i].code + ": " + results[i].error);
  }
  const hsize_t N = rows.size(), ny = hsize_t(s.grid.ny), nx = hsize_t(s.grid.nx),
                S = rows.empty() ? hsize_t(s.surface_points) : hsize_t(results[rows[0]].sx.size());

  std::vector<double> params, cl, cd, cm, seconds;
  std::vector<std::int8_t> split;
  std::vector<float> u, v, p, sdf, sx, sy, scp;
  std::vector<std::uint8_t> mask;
  for (std::size_t i : rows) {
    const CaseResult& r = results[i];
    for (double x : cases[i].params) params.push_back(x);
    split.push_back(std::int8_t(cases[i].split));
    u.insert(u.end(), r.u.begin(), r.u.end());
    v.insert(v.end(), r.v.begin(), r.v.end());
    p.insert(p.end(), r.p.begin(), r.p.end());
    sdf.insert(sdf.end(), r.sdf.begin(), r.sdf.end());
    mask.insert(mask.end(), r.mask.begin(), r.mask.end());
    sx.insert(sx.end(), r.sx.begin(), r.sx.end());
    sy.insert(sy.end(), r.sy.begin(), r.sy.end());
    scp.insert(scp.end(), r.scp.begin(), r.scp.end());
    cl.push_back(r.cl);
    cd.push_back(r.cd);
    cm.push_back(r.cm);
    seconds.push_back(r.seconds);
  }

  const std::filesystem::path tmp = path.string() + ".tmp";
  const h5::File f(tmp);
  {
    h5::QuietErrors quiet;
    Handle file = f.open(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create");
    try {
      const hid_t root = file.get();
      f.attr_string(root, "format", "aerolbm-dataset");
      f.attr_int(root, "version", 1);
      f.attr_int(root, "nx", s.grid.nx);
      f.attr_int(root, "ny", s.grid.ny);
      f.attr_doubles(root, "x0", &s.grid.x0, 1);
      f.attr_doubles(root, "x1", &s.grid.x1, 1);
      f.attr_doubles(root, "y0", &s.grid.y0, 1);
      f.attr_doubles(root, "y1", &s.grid.y1, 1);
      f.attr_string(root, "sweep_yaml", s.text);
      f.attr_string(root, "backend", backend);
      std::string failed_text;
      for (const auto& x : failed) failed_text += x + "\n";
      f.attr_string(root, "failed_cases", failed_text);

      f.write_dataset(root, "params", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, params.data(), {N, 5});
      {
        Handle d = f.open(H5Dopen2(root, "params", H5P_DEFAULT), H5Dclose, "open params");
        attr_strings(f, d.get(), "columns", {"camber", "camber_position", "thickness", "aoa_deg", "reynolds"});
      }
      f.write_dataset(root, "split", H5T_STD_I8LE, H5T_NATIVE_INT8, split.data(), {N});
      Handle fields = f.open(H5Gcreate2(root, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "group fields");
      f.write_dataset(fields.get(), "u", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, u.data(), {N, ny, nx});
      f.write_dataset(fields.get(), "v", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, v.data(), {N, ny, nx});
      f.write_dataset(fields.get(), "p", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, p.data(), {N, ny, nx});
      f.write_dataset(fields.get(), "sdf", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, sdf.data(), {N, ny, nx});
      f.write_dataset(fields.get(), "mask", H5T_STD_U8LE, H5T_NATIVE_UINT8, mask.data(), {N, ny, nx});
      Handle surface =
          f.open(H5Gcreate2(root, "surface", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "group surface");
      f.write_dataset(surface.get(), "x", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, sx.data(), {N, S});
      f.write_dataset(surface.get(), "y", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, sy.data(), {N, S});
      f.write_dataset(surface.get(), "cp", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, scp.data(), {N, S});
      Handle coef = f.open(H5Gcreate2(root, "coefficients", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                           "group coefficients");
      f.write_dataset(coef.get(), "cl", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, cl.data(), {N});
      f.write_dataset(coef.get(), "cd", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, cd.data(), {N});
      // Every row's moment, or none (rows continued from a store written before the sweep kept it).
      if (std::all_of(cm.begin(), cm.end(), [](double x) { return std::isfinite(x); }))
        f.write_dataset(coef.get(), "cm", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, cm.data(), {N});
      Handle timing =
          f.open(H5Gcreate2(root, "timing", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "group timing");
      f.write_dataset(timing.get(), "seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, seconds.data(), {N});
      fields.close();
      surface.close();
      coef.close();
      timing.close();
      if (!file.close()) f.fail("close");
    } catch (...) {
      file = Handle();
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw;
    }
  }
  publish_file(tmp, path);
}

}  // namespace aerolbm::surrogate
