#pragma once
// compare's outputs: report.json (every figure, for scripts), report.md (the same for people) and errors.h5
// (the difference fields at the last common frame, for the error-map plots).
#include <filesystem>
#include <string>
#include <vector>

#include "src/compare/comparison.hpp"
#include "src/io/json.hpp"

namespace aerolbm {

struct ReportImages {
  std::vector<std::string> files;  // relative to the report folder
  std::string note;                // why images are missing, if they are
};

Json report_json(const Comparison& c, const ReportImages& images);
std::string report_markdown(const Comparison& c, const ReportImages& images);

// Writes maps to `path` (HDF5: root attributes nx, ny, nz, origin, spacing, time; datasets valid and one
// difference b − a per field, shaped (nz, ny, nx[, 3])).
void write_error_maps(const std::filesystem::path& path, const ErrorMaps& maps);

}  // namespace aerolbm
