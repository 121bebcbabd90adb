#pragma once
// Test models for the surrogate tests: a small model.h5 with random weights, written with the HDF5 C API exactly
// as SCHEMA.md lays it out (version 2 with the C_L, C_D head, or version 1 without), its reference input being a
// NACA section on the model's sample grid.
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "src/geometry/naca.hpp"
#include "src/geometry/polygon_body.hpp"
#include "src/surrogate/airfoil_inputs.hpp"
#include "src/surrogate/model.hpp"

namespace aerolbm::test {

// ||a − b|| / ||b|| of the (C_L, C_D[, C_M]) vectors (numpy_forward.py's coefficient_error); a head of two
// outputs leaves the third NaN in both, which is skipped.
inline double coefficient_error(const std::array<float, surrogate::kCoefficients>& a,
                                const std::array<float, surrogate::kCoefficients>& b) {
  double num = 0, den = 0;
  for (int i = 0; i < surrogate::kCoefficients; ++i) {
    if (std::isnan(b[i]) && std::isnan(a[i])) continue;
    num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    den += double(b[i]) * b[i];
  }
  return std::sqrt(num) / std::max(std::sqrt(den), 1e-30);
}

struct TestModelShape {
  int d_model = 32, heads = 4, layers = 2, mlp_ratio = 2;
  surrogate::SampleGrid grid{12, 8, -1.0, 3.0, -1.0, 1.0};
  int version = 2;     // 1: no coefficient head
  int pool_heads = 3;  // the coefficient head's pooling heads (version 2)
  int coefficients = 2;  // the head's outputs: 2 (C_L, C_D) or 3 (and C_M)
};

inline void h5_write(hid_t loc, const std::string& name, const std::vector<float>& v, std::vector<hsize_t> dims) {
  const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  const hid_t d = H5Dcreate2(loc, name.c_str(), H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Dclose(d);
  H5Sclose(space);
}

inline void h5_attr_int(hid_t loc, const std::string& name, std::int64_t v) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(loc, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_INT64, &v);
  H5Aclose(a);
  H5Sclose(space);
}

inline void h5_attr_double(hid_t loc, const std::string& name, double v) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(loc, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
  H5Aclose(a);
  H5Sclose(space);
}

inline void h5_attr_string(hid_t loc, const std::string& name, const std::string& v) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* p = v.c_str();
  H5Awrite(a, type, &p);
  H5Aclose(a);
  H5Sclose(space);
  H5Tclose(type);
}

// The reference input: NACA 2412 at 5 degrees on the grid.
inline std::vector<float> test_points(const surrogate::SampleGrid& g) {
  SectionPlacement pl;
  pl.angle_of_attack_deg = 5.0;
  std::vector<Point2> outline = naca4_outline("2412", 100);
  for (auto& p : outline) p = place_point(p, pl);
  return surrogate::point_features(g, outline);
}

// Writes the model; /reference/output (and /reference/coefficients) are zeros, to be filled by a reference
// (tests/surrogate/numpy_reference.py). `edit` may change the file before it is closed (bad-file tests).
inline void write_test_model(const std::filesystem::path& path, const TestModelShape& s, std::uint32_t seed,
                             const std::function<void(hid_t)>& edit = {}) {
  std::mt19937 rng(seed);
  const int D = s.d_model;
  auto random = [&](std::size_t n, double scale) {
    std::normal_distribution<float> nd(0.0f, float(scale));
    std::vector<float> v(n);
    for (auto& x : v) x = nd(rng);
    return v;
  };
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  h5_attr_string(f, "format", "aerolbm-surrogate");
  h5_attr_int(f, "version", s.version);
  h5_attr_int(f, "d_model", D);
  h5_attr_int(f, "heads", s.heads);
  h5_attr_int(f, "layers", s.layers);
  h5_attr_int(f, "mlp_ratio", s.mlp_ratio);
  h5_attr_int(f, "point_features", 4);
  h5_attr_int(f, "param_features", 5);
  h5_attr_int(f, "outputs", 3);
  if (s.version >= 2) {
    h5_attr_int(f, "coefficients", s.coefficients);
    h5_attr_int(f, "pool_heads", s.pool_heads);
  }
  h5_attr_int(f, "nx", s.grid.nx);
  h5_attr_int(f, "ny", s.grid.ny);
  h5_attr_double(f, "x0", s.grid.x0);
  h5_attr_double(f, "x1", s.grid.x1);
  h5_attr_double(f, "y0", s.grid.y0);
  h5_attr_double(f, "y1", s.grid.y1);
  const hid_t norm = H5Gcreate2(f, "norm", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  h5_write(norm, "point_mean", {1.0f, 0.0f, 0.5f, 0.05f}, {4});
  h5_write(norm, "point_std", {1.2f, 0.6f, 0.4f, 0.2f}, {4});
  h5_write(norm, "param_mean", {0.02f, 0.3f, 0.12f, 4.0f, 2.7f}, {5});
  h5_write(norm, "param_std", {0.015f, 0.2f, 0.03f, 4.0f, 0.2f}, {5});
  h5_write(norm, "out_mean", {0.8f, 0.02f, -0.1f}, {3});
  h5_write(norm, "out_std", {0.3f, 0.1f, 0.5f}, {3});
  if (s.version >= 2) {
    const std::vector<float> cm = {0.4f, 0.12f, 0.01f}, cs = {0.3f, 0.05f, 0.02f};
    const auto K = std::size_t(s.coefficients);
    h5_write(norm, "coef_mean", std::vector<float>(cm.begin(), cm.begin() + K), {K});
    h5_write(norm, "coef_std", std::vector<float>(cs.begin(), cs.begin() + K), {K});
  }
  H5Gclose(norm);
  const hid_t w = H5Gcreate2(f, "weights", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  auto linear = [&](const std::string& name, int out, int in) {
    h5_write(w, name + ".W", random(std::size_t(out) * in, 1.0 / std::sqrt(double(in))), {hsize_t(out), hsize_t(in)});
    h5_write(w, name + ".b", random(out, 0.1), {hsize_t(out)});
  };
  auto layer_norm = [&](const std::string& name) {
    std::vector<float> g = random(D, 0.1);
    for (auto& x : g) x += 1.0f;
    h5_write(w, name + ".gamma", g, {hsize_t(D)});
    h5_write(w, name + ".beta", random(D, 0.1), {hsize_t(D)});
  };
  linear("embed.0", D, 4);
  linear("embed.2", D, D);
  linear("cond.0", D, 5);
  linear("cond.2", D, D);
  for (int l = 0; l < s.layers; ++l) {
    const std::string b = "blocks." + std::to_string(l) + ".";
    layer_norm(b + "ln1");
    for (const char* n : {"q", "k", "v", "o"}) linear(b + n, D, D);
    layer_norm(b + "ln2");
    linear(b + "mlp.0", s.mlp_ratio * D, D);
    linear(b + "mlp.2", D, s.mlp_ratio * D);
  }
  layer_norm("ln_f");
  linear("head", 3, D);
  if (s.version >= 2) {
    linear("coef.score", s.pool_heads, D);
    linear("coef.mlp.0", D, (s.pool_heads + 1) * D);
    linear("coef.mlp.2", s.coefficients, D);
  }
  H5Gclose(w);
  const hsize_t T = hsize_t(s.grid.points());
  const hid_t ref = H5Gcreate2(f, "reference", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  h5_write(ref, "points", test_points(s.grid), {T, 4});
  h5_write(ref, "params", {0.02f, 0.4f, 0.12f, 5.0f, 500.0f}, {5});
  h5_write(ref, "output", std::vector<float>(T * 3, 0.0f), {T, 3});
  if (s.version >= 2)
    h5_write(ref, "coefficients", std::vector<float>(std::size_t(s.coefficients), 0.0f), {hsize_t(s.coefficients)});
  H5Gclose(ref);
  if (edit) edit(f);
  H5Fclose(f);
}

}  // namespace aerolbm::test
