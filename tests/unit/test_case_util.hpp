#pragma once
// Shared by the test_case_*.cpp files: a private temp folder per test and the example case as a baseline.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/case/case.hpp"

namespace aerolbm::case_test {

// The example case file of docs/case_file.md, one section per line so tests can name the line a problem sits on:
// 1 schema_version, 2 case, 3 physics, 4 geometry, 5 domain, 6 lattice, 7 boundaries, 8 time, 9 output,
// 10 forces, 11 checkpoint.
inline const std::string kSketch = R"(schema_version: 1
case: {name: naca0012_re1000_aoa5, description: "NACA 0012, Re=1000, 5 degrees"}
physics: {reynolds: 1000, mach: 0.1, angle_of_attack_deg: 5}
geometry: {type: naca4, code: "0012", chord_cells: 160}
domain: {size_chords: [12, 6], body_position_chords: [3, 3]}
lattice: {stencil: D2Q9, collision: trt, precision: fp32, kernel: auto, les: {model: none}}
boundaries: {inlet: velocity, outlet: pressure, lateral: slip, wall: interpolated}
time: {convective_times: 20, average_last: 5}
output: {every: 500, fields: [velocity, pressure, vorticity, mask], formats: [hdf5, vtk]}
forces: {every: 10}
checkpoint: {every: 0}
)";

// The sketch with line `line` (1-based) replaced; keeps every other line number fixed.
inline std::string sketch_with(int line, const std::string& replacement) {
  std::string out;
  std::size_t start = 0;
  for (int n = 1; start < kSketch.size(); ++n) {
    const std::size_t end = kSketch.find('\n', start);
    out += (n == line ? replacement : kSketch.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  return out;
}

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string test = info ? std::string(info->test_suite_name()) + "_" + info->name() : "case";
    path_ = std::filesystem::temp_directory_path() /
            ("aerolbm_case_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + test);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

 private:
  std::filesystem::path path_;
};

// The CaseError message from loading, or a test failure if it loads.
inline std::string load_error(const std::filesystem::path& file, const std::vector<std::string>& overrides = {}) {
  try {
    load_case(file, overrides);
  } catch (const CaseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a CaseError for " << file;
  return {};
}

inline ::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "missing \"" << part << "\" in:\n" << text;
}

}  // namespace aerolbm::case_test
