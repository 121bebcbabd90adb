#pragma once
// One finished case of a sweep as a small HDF5 file (format aerolbm-sweep-case, version 1) in the sweep's progress
// store (src/surrogate/sweep_progress.hpp): every value of its dataset.h5 row, stored exactly (the same float32
// and float64 values), so a dataset assembled from these files equals one written straight from the results.
#include <cstddef>
#include <filesystem>
#include <string>

#include "src/surrogate/sweep_runner.hpp"

namespace aerolbm::surrogate {

// Writes `r` (case `index`, run on `backend`) to path + ".tmp", then renames it over `path` (after fsync), so a
// kill leaves either no file or a whole one. Throws h5::Error / std::runtime_error naming the file.
void write_case_result(const std::filesystem::path& path, std::size_t index, const CaseResult& r,
                       const std::string& backend);

// What write_case_result wrote. Throws h5::Error naming the file when it is not such a file, its index is not
// `index`, or a field's size differs from `points` (sample-grid points).
struct StoredCase {
  CaseResult result;
  std::string backend;
};
StoredCase read_case_result(const std::filesystem::path& path, std::size_t index, std::size_t points);

}  // namespace aerolbm::surrogate
