// errors.h5: compare's difference fields at the last common frame, for the error-map plots
// (postprocess/plot_errors.py). Every value is float32, every root attribute a double.
#include <mutex>

#include "src/compare/report.hpp"
#include "src/io/hdf5_util.hpp"

namespace aerolbm {

void write_error_maps(const std::filesystem::path& path, const ErrorMaps& m) {
  const auto& g = m.grid;
  const h5::File f(path);
  std::lock_guard<std::recursive_mutex> lock(h5::library_mutex());
  h5::QuietErrors quiet;
  h5::Handle file = f.open(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
  const hid_t root = file.get();
  const double nx = double(g.nx), ny = double(g.ny), nz = double(g.nz);
  f.attr_doubles(root, "nx", &nx, 1);
  f.attr_doubles(root, "ny", &ny, 1);
  f.attr_doubles(root, "nz", &nz, 1);
  f.attr_doubles(root, "origin", g.origin.data(), 3);
  f.attr_doubles(root, "spacing", g.spacing.data(), 3);
  f.attr_doubles(root, "time", &m.time, 1);
  const std::vector<hsize_t> cells = {hsize_t(g.nz), hsize_t(g.ny), hsize_t(g.nx)};
  const std::vector<float> valid(m.valid.begin(), m.valid.end());
  f.write_dataset(root, "valid", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, valid.data(), cells);
  for (std::size_t k = 0; k < m.fields.size(); ++k) {
    std::vector<hsize_t> dims = cells;
    if (m.fields[k].second > 1) dims.push_back(hsize_t(m.fields[k].second));
    f.write_dataset(root, m.fields[k].first, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, m.diffs[k].data(), dims);
  }
  if (!file.close()) f.fail("close (flush) file");
}

}  // namespace aerolbm
