#pragma once
// forces.csv read back: the '# key: value' header and the step,time,...,Cd,Cl columns.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace aerolbm {

struct ForcesTable {
  std::vector<std::pair<std::string, std::string>> header;
  std::vector<std::int64_t> step;
  std::vector<double> time, cd, cl;
};

// Throws CompareInputError naming the file and line when the file is missing, has no column line with
// step, time, Cd and Cl, or holds a line that is not numbers (a truncated last line included).
ForcesTable read_forces_csv(const std::filesystem::path& path);

}  // namespace aerolbm
