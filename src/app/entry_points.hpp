#pragma once
// The work of `aerolbm compare` and `aerolbm predict` as functions, and the checks `aerolbm run` makes on its
// output folder: the commands parse their options into these, and the Python module (src/python) calls the same
// functions, so both report the same results and the same errors. Bad input throws an InputError (CaseError,
// CompareInputError, surrogate::ModelFileError or BackendUnavailable) with the message the command prints.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/case/case.hpp"
#include "src/compare/comparison.hpp"
#include "src/surrogate/prediction.hpp"

namespace aerolbm::app {

struct CompareArgs {
  std::vector<std::string> inputs;  // RUN_A RUN_B, or CASE.yaml
  std::string output = "compare";
  CompareOptions options;
  double fail_above = -1;
  bool plots = true;
  // case mode
  std::int64_t steps = 0;
  int threads = 0;
  std::vector<std::string> sets;
};

// `aerolbm compare`: prints what the command prints and writes the report folder (report.json holds the
// result). `given`: case mode with this case, already loaded (inputs[0] then only names it in messages).
// Returns the exit status: 0, or 1 when --fail-above is exceeded.
int compare(const CompareArgs& a, const std::optional<Case>& given = std::nullopt);

struct PredictArgs {
  std::string file, model, backend = "auto", output;
  std::string polar;  // FROM:TO:STEP in degrees: the polar instead of one field (empty: the case's angle)
  std::vector<std::string> sets;
  int repeats = 5;
  bool overwrite = false;
};

// `aerolbm predict` of the loaded case `c` (a.file and a.sets are not read again). Writes the run folder; the
// prediction is left in `prediction` when given. Returns the exit status (0).
int predict(const Case& c, const PredictArgs& a, surrogate::Prediction* prediction = nullptr,
            std::filesystem::path* folder = nullptr);

// `aerolbm run --output DIR`: DIR is (or can be made) a writable folder. Only checks; creates nothing.
void check_output_dir(const std::filesystem::path& dir);
// Without --overwrite or --restart: DIR holds no run. Throws CaseError saying what to do.
void refuse_existing_run(const std::filesystem::path& dir);

}  // namespace aerolbm::app
