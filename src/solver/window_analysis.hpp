#pragma once
// The statistics of a run's averaging window (time.average_last): every force coefficient's mean, standard
// deviation and drift (coefficient_statistics.hpp), the Strouhal number from the lift spectrum
// (lift_spectrum.hpp) and the convergence verdict (convergence_verdict.hpp); as summary.json's "coefficients"
// members and as the end-of-run log lines.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/io/json.hpp"
#include "src/solver/coefficient_statistics.hpp"
#include "src/solver/convergence_verdict.hpp"
#include "src/solver/force_history.hpp"
#include "src/solver/lift_spectrum.hpp"

namespace aerolbm {

struct WindowAnalysis {
  WindowFacts window;
  double sample_interval = 0;  // median spacing of the samples, convective times
  // cd, cl; in 3D also cs; where the samples have them, croll, cyaw (3D) and cpitch.
  std::vector<std::pair<std::string, CoefficientStatistics>> coefficients;
  LiftSpectrum lift;
  ConvergenceVerdict convergence;

  const CoefficientStatistics* find(const std::string& name) const;
  std::optional<double> strouhal() const { return lift.strouhal; }
};

// `window`: the samples of the averaging window, in time order; `dims`: 2 or 3; `requested`: time.average_last in
// convective times.
WindowAnalysis analyse_window(const std::vector<CoefficientSample>& window, int dims, double requested);

// summary.json: "window", "statistics", "strouhal_spectrum", "convergence" (added after the existing keys).
void add_window_analysis(Json& coefficients, const WindowAnalysis& a);

// The end-of-run lines: the statistics line, then (when not converged) the verdict and the suggestion.
// `continue_hint` is appended to the suggestion (e.g. the command that continues the run); may be empty.
std::string statistics_line(const WindowAnalysis& a);
std::string verdict_line(const WindowAnalysis& a, const std::string& continue_hint);

}  // namespace aerolbm
