#pragma once
// The comparison of run B against run A (the reference): timing, field errors at every common frame, force
// coefficients and their histories, and a verdict against tolerances. Pure computation; report.hpp writes it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/compare/field_error.hpp"
#include "src/compare/grid_match.hpp"
#include "src/compare/run_folder.hpp"

namespace aerolbm {

struct CompareOptions {
  double field_tol = 1e-3;     // relative L2 error of every field at every common frame
  double force_tol = 1e-3;     // absolute difference of mean and final Cd and Cl
  double strouhal_tol = 1e-2;  // relative difference of the Strouhal numbers
  std::optional<double> fail_above;
};

struct FieldResult {
  std::string field;
  FieldError error;
  std::array<double, 3> max_at{};  // position of the largest difference, reference lengths
};

struct FrameResult {
  std::int64_t step_a = 0, step_b = 0;
  double time_a = 0, time_b = 0;
  std::vector<FieldResult> fields;
  std::int64_t mask_cells_differing = -1;  // same grid and both masks written; -1 otherwise
};

struct CoefficientDiff {
  std::string name;  // cd_mean, cl_mean, cd_final, cl_final, strouhal, cpitch_mean
  std::optional<double> a, b, diff;  // diff = b − a when both exist
};

struct HistoryDiff {
  std::int64_t samples = 0;  // samples of A compared (B interpolated in time where its times differ)
  bool interpolated = false;
  double max_dcd = 0, max_dcl = 0, time_max_dcd = 0, time_max_dcl = 0;
};

// Difference fields (b − a) at the last common frame on the comparison grid, for the error-map plots.
struct ErrorMaps {
  bool present = false;
  FieldGrid grid;
  double time = 0;
  std::vector<std::uint8_t> valid;
  std::vector<std::pair<std::string, int>> fields;  // name, components
  std::vector<std::vector<float>> diffs;
};

// One refined level's own cells (level_fields.hpp) compared at its resolution at each common frame.
struct LevelComparison {
  std::string run;  // "A" or "B": the run whose level this is
  int level = 1;
  FieldGrid grid;    // that level's grid
  std::int64_t own_points = 0;  // its points compared at this level (own cells not under the next level's box)
  std::string note;  // one sentence for the report: what is compared against what
  std::vector<FrameResult> frames;
};

struct Comparison {
  const RunFolder* a = nullptr;
  const RunFolder* b = nullptr;
  CompareOptions options;
  std::vector<std::string> warnings;  // case parameters that differ, frames without a partner, ...
  double speedup = 0;                 // wall time A / wall time B
  double mlups_ratio = 0;             // MLUPs B / MLUPs A
  bool fields_compared = false;
  std::string fields_note;
  GridMatch grid;
  std::vector<FrameResult> frames;
  std::vector<CoefficientDiff> coefficients;
  HistoryDiff history;
  ErrorMaps maps;
  // The mean fields (RUN/mean/, output.averages) when both runs wrote them: their one frame's field errors. The
  // mean velocity and pressure count in the verdict like a frame's fields; the RMS fields are reported only (a
  // steady flow's RMS is round-off, whose relative error says nothing).
  bool mean_compared = false;
  std::string mean_note;
  FrameResult mean;
  // Refined runs: each refined level's own cells at its resolution (empty when neither run is refined). Counted in
  // the verdict and --fail-above like the frames' fields.
  std::vector<LevelComparison> levels;
  std::string levels_note;
  double largest_error = 0;  // the figure --fail-above is checked against
  std::string largest_what;
  bool agree = true;
  std::string verdict;
};

// Throws CompareInputError for grids that cannot be compared (see match_grids) and for unreadable field data.
Comparison compare_runs(const RunFolder& a, const RunFolder& b, const CompareOptions& options);

}  // namespace aerolbm
