#pragma once
// Shared by the test_io_*.cpp files: a fresh temp folder per test and frames with known, position-dependent
// values, so that a transposed axis, a swapped component or a mixed-up frame shows as a wrong value.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "src/io/frame.hpp"

namespace aerolbm::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "aerolbm_io_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

inline int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

// field: 0 velocity, 1 pressure, 2 density, 3 vorticity. Distinct per frame id, point, component and field.
inline float known_value(int field, int id, std::int64_t i, std::int64_t j, std::int64_t k, int c) {
  return static_cast<float>(1000.0 * field + 100.0 * id + 1.0 * i + 0.1 * j + 0.01 * k + 0.25 * c - 3.5);
}
inline std::uint8_t known_mask(int id, std::int64_t i, std::int64_t j, std::int64_t k) {
  return static_cast<std::uint8_t>((i + 2 * j + 3 * k + id) % 3 == 0 ? 1 : 0);
}

inline GridInfo small_grid(std::int64_t nz = 1) {
  GridInfo g;
  g.nx = 7;
  g.ny = 5;
  g.nz = nz;
  g.origin = {-2.5, -1.25, nz > 1 ? -0.5 : 0.0};
  g.spacing = {0.125, 0.25, 0.5};
  return g;
}

inline Frame known_frame(const GridInfo& g, int id, int vorticity_components = 1) {
  Frame f;
  f.step = 1000 * (id + 1);
  f.time = 0.75 * (id + 1);
  f.vorticity_components = vorticity_components;
  for (std::int64_t k = 0; k < g.nz; ++k)
    for (std::int64_t j = 0; j < g.ny; ++j)
      for (std::int64_t i = 0; i < g.nx; ++i) {
        for (int c = 0; c < 3; ++c) f.velocity.push_back(known_value(0, id, i, j, k, c));
        f.pressure.push_back(known_value(1, id, i, j, k, 0));
        f.density.push_back(known_value(2, id, i, j, k, 0));
        for (int c = 0; c < vorticity_components; ++c) f.vorticity.push_back(known_value(3, id, i, j, k, c));
        f.mask.push_back(known_mask(id, i, j, k));
      }
  return f;
}

}  // namespace aerolbm::test
