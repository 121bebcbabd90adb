#pragma once
// dataset.h5 (postprocess/surrogate/SCHEMA.md, format aerolbm-dataset, version 1), written to a temporary file
// and published atomically, so a reader never sees half a dataset.
#include <filesystem>
#include <string>
#include <vector>

#include "src/surrogate/sweep_file.hpp"
#include "src/surrogate/sweep_runner.hpp"

namespace aerolbm::surrogate {

// Rows: the cases whose result is ok, in order. `failed` lists the others (recorded in attribute failed_cases).
// Throws std::runtime_error naming the file on I/O failure (nothing is left behind).
void write_dataset(const std::filesystem::path& path, const SweepSpec& s, const std::vector<SweepCase>& cases,
                   const std::vector<CaseResult>& results, const std::string& backend);

}  // namespace aerolbm::surrogate
