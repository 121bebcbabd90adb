#pragma once
// Runs the postprocess/ plotting scripts for a comparison when a Python with numpy, h5py and matplotlib is there
// (/usr/bin/python3, or $AEROLBM_PYTHON). Images go to a temporary folder that is renamed to `images_dir` only
// when every script succeeded, so a report never links a half-written set.
#include <filesystem>

#include "src/compare/report.hpp"

namespace aerolbm {

// The postprocess/ folder: $AEROLBM_POSTPROCESS_DIR, else share/aerolbm/postprocess beside the installed binary,
// else the source tree's (compiled in). Empty when none holds the scripts.
std::filesystem::path find_postprocess_dir();

// Makes forces.png (both histories), cp.png (surface Cp of both runs, when they wrote masks) and errors.png (from
// errors_h5, when it exists). Returns the images relative to `report_dir` or, when skipped, why.
ReportImages make_compare_plots(const std::filesystem::path& run_a, const std::filesystem::path& run_b,
                                const std::filesystem::path& errors_h5, bool fields_with_mask,
                                const std::filesystem::path& report_dir);

}  // namespace aerolbm
