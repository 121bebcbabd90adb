#pragma once
// sweep.yaml (postprocess/surrogate/SCHEMA.md, "sweep.yaml"): reading with located errors (file:line, key,
// expected, got, what to do; CaseError, exit 2) and expansion into the list of cases, bit for bit as the Python
// side would draw them (splitmix64).
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

// One parameter: a list of values, or a range (random: uniform draw; grid: `count` points, both ends included).
struct ParameterSpec {
  std::vector<double> values;  // non-empty: a values list
  double lo = 0, hi = 0;
  bool log = false;
  int count = 0;  // grid mode ranges
  bool is_values() const { return !values.empty(); }
};

inline constexpr const char* kParamNames[kParamFeatures] = {"camber", "camber_position", "thickness", "aoa_deg",
                                                            "reynolds"};

struct SweepSpec {
  std::filesystem::path file;
  std::string text;  // the sweep file exactly as read
  std::filesystem::path base_case;
  std::string output = "dataset.h5";
  std::vector<std::string> sets;  // "key.path=value", as --set
  std::optional<double> convective_times, average_last;
  SampleGrid grid;
  int surface_points = 200;
  bool random = true;
  std::int64_t count = 0;
  std::uint64_t seed = 1;
  std::array<ParameterSpec, kParamFeatures> parameters;
  double test_fraction = 0;
  std::uint64_t split_seed = 2;
  bool has_extrapolation = false;
  std::int64_t extrapolation_count = 0;
  std::array<std::optional<ParameterSpec>, kParamFeatures> extrapolation;
};

struct SweepCase {
  std::array<double, kParamFeatures> params{};  // camber, camber_position (0 without camber), thickness, aoa, Re
  std::string code;                             // NACA 4-digit code
  int split = 0;                                // 0 train, 1 test, 2 angle-of-attack extrapolation
};

// Throws CaseError naming file:line, key, expected, got and what to do; every problem in one report.
SweepSpec read_sweep(const std::filesystem::path& file);

// The cases in dataset row order (train/test, then extrapolation) with their splits.
std::vector<SweepCase> expand_sweep(const SweepSpec& s);

// splitmix64 as SCHEMA.md defines it.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // [0, 1), 53 bits
 private:
  std::uint64_t state_;
};

}  // namespace aerolbm::surrogate
