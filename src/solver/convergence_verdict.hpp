#pragma once
// Whether the averaging window of a run is converged, and if not, roughly how much longer to run.
//
// Judged on C_D and C_L (the other coefficients are reported, not judged). A window is converged when, for both:
//   - |drift| ≤ max_drift_relative × scale (1 %): the fitted line moves by at most 1 % of the coefficient across
//     the window (for a periodic run: the line through the one-period average, see coefficient_statistics.hpp);
//   - for a run without a Strouhal number (steady): std ≤ max_std_relative × scale (1 %). A periodic run's spread
//     is its oscillation and is not held against it.
// scale = max(|mean|, 0.05), and for a periodic run at least the coefficient's standard deviation (the size of
// its swing: the lift of a shedding body has a mean near zero). The window must also hold at least 16 samples and must not reach back to the start
// of the run (time 0).
//
// The suggestion: where a figure falls from the first half of the window to the second, it is taken to decay
// exponentially, with the time constant τ = (T/2) / ln(first / second); the run must go on until it is below its
// limit, Δ = τ ln(now / limit). A drift that does not fall over the window gets one more window length ("look
// again then"). A drift within 3 standard errors of zero (drift_uncertainty) is not resolved: in a steady run its
// noise fails too and speaks for it; in a periodic run a window twice as long is suggested (longer_window; the
// error falls as 1/√window, and the note says what window would resolve 1 %). Noise that does not fall
// is not something a longer run removes (standing pressure waves, say): then no number is given for it and the
// note says so.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/solver/coefficient_statistics.hpp"

namespace aerolbm {

struct ConvergenceCriteria {
  double max_drift_relative = 0.01;
  double max_std_relative = 0.01;
  int min_samples = 16;
  double decay_ratio = 0.8;     // second half / first half below this: decaying
  double drift_significance = 3;  // |drift| within this many standard errors: the noise's
};

struct ConvergenceVerdict {
  bool converged = true;
  std::vector<std::string> reasons;                 // one per failed test, for people
  std::optional<double> more_convective_times;      // rough; empty when none can be given
  std::optional<double> longer_window;              // a time.average_last to go with it, when the window is short
  std::vector<std::string> suggestion_notes;        // how the suggestion was reached
};

struct WindowFacts {
  double start_time = 0, end_time = 0;  // of the window's samples, convective times
  double requested = 0;                 // time.average_last
  int samples = 0;
  bool periodic = false;                // a Strouhal number was accepted
};

// `judged`: the coefficients to judge with their names (cd, cl).
ConvergenceVerdict judge_convergence(const std::vector<std::pair<std::string, CoefficientStatistics>>& judged,
                                     const WindowFacts& w, const ConvergenceCriteria& criteria = {});

}  // namespace aerolbm
