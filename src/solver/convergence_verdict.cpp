#include "src/solver/convergence_verdict.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace aerolbm {
namespace {

// Δ for a figure that went from `first` to `second` over half a window, is `now` and must reach `limit`;
// empty when it does not fall.
std::optional<double> decay_time(double first, double second, double now, double limit, double window,
                                 double decay_ratio, double& tau) {
  if (!(first > 0) || !(second >= 0) || !(second < decay_ratio * first)) return std::nullopt;
  if (second == 0) {
    tau = 0;
    return 0.0;
  }
  tau = 0.5 * window / std::log(first / second);
  return std::max(0.0, tau * std::log(std::max(now, limit) / limit));
}

// Round up to two significant digits, so that the suggestion does not pretend to more.
double round_up(double x) {
  if (!(x > 0)) return 0;
  const double p = std::pow(10.0, std::floor(std::log10(x)) - 1);
  return std::ceil(x / p - 1e-9) * p;
}

}  // namespace

ConvergenceVerdict judge_convergence(const std::vector<std::pair<std::string, CoefficientStatistics>>& judged,
                                     const WindowFacts& w, const ConvergenceCriteria& criteria) {
  ConvergenceVerdict v;
  const double T = w.end_time - w.start_time;
  std::optional<double> more, window;
  auto want = [&](double dt) { more = std::max(more.value_or(0.0), dt); };

  if (w.samples < criteria.min_samples) {
    v.converged = false;
    v.reasons.push_back(fmt::format("the window holds {} force samples, too few to judge (at least {}): lower "
                                    "forces.every or lengthen time.average_last",
                                    w.samples, criteria.min_samples));
    return v;
  }
  // The first sample of a run is at forces.every steps, so "reaches back to the start" is: the window is the
  // whole run, shorter than what was asked for.
  if (w.requested > 0 && w.end_time < w.requested * (1 + 1e-9)) {
    v.converged = false;
    v.reasons.push_back(fmt::format("the run ({:.3g} convective times) is no longer than its averaging window "
                                    "(time.average_last {:.3g}): the window includes the start",
                                    w.end_time, w.requested));
    want(w.requested);
    v.suggestion_notes.push_back("a window after the start-up: at least one more window length");
  }
  std::vector<std::string> lasting_noise;  // coefficients whose noise does not decay
  for (const auto& [name, s] : judged) {
    const double limit = criteria.max_std_relative;
    const bool noisy = !w.periodic && s.std_relative() > limit;
    const double q1 = s.std_first_half / s.scale, q2 = s.std_second_half / s.scale;

    const double drift = std::abs(s.drift_relative());
    if (!std::isfinite(drift) || drift > criteria.max_drift_relative) {
      v.converged = false;
      const bool unresolved = std::abs(s.drift) <= criteria.drift_significance * s.drift_uncertainty;
      v.reasons.push_back(fmt::format("{} drifts by {:+.3g} ± {:.2g} ({:+.2f} % of {:.4g}{}) across the window "
                                      "(limit {:g} %)",
                                      name, s.drift, s.drift_uncertainty, 100 * s.drift_relative(), s.scale,
                                      unresolved ? "; within its noise" : "", 100 * criteria.max_drift_relative));
      double tau = 0;
      const auto dt = decay_time(s.slope_first_half, s.slope_second_half, drift, criteria.max_drift_relative, T,
                                 criteria.decay_ratio, tau);
      if (unresolved && noisy) {
        // A steady run whose noise hides the drift: the noise's test below says what to do.
      } else if (unresolved) {
        // The drift's standard error falls as 1/√(window): `needed` would resolve 1 % at this noise. A window
        // twice as long is suggested (and the verdict of that run will say more), not a tenfold one.
        const double ratio = criteria.drift_significance * s.drift_uncertainty /
                             (criteria.max_drift_relative * s.scale);
        const double needed = T * ratio * ratio;
        window = std::max(window.value_or(0.0), 2 * T);
        want(T);
        v.suggestion_notes.push_back(fmt::format(
            "{} drift is within its noise: average over a window twice as long (time.average_last {:.2g}); about "
            "{:.2g} convective times would resolve 1 % at this noise",
            name, round_up(2 * T), round_up(needed)));
      } else if (dt) {
        want(*dt);
        v.suggestion_notes.push_back(
            fmt::format("{} drift decays with a time constant of about {:.3g} convective times", name, tau));
      } else {
        want(T);
        v.suggestion_notes.push_back(fmt::format("{} drift does not decay over the window: run one more window "
                                                 "length and look again",
                                                 name));
      }
    }
    if (noisy) {
      v.converged = false;
      v.reasons.push_back(fmt::format("{} fluctuates with a standard deviation of {:.3g} ({:.2f} % of {:.4g}; limit "
                                      "{:g} % for a steady run)",
                                      name, s.std, 100 * s.std_relative(), s.scale, 100 * limit));
      double tau = 0;
      const auto dt = decay_time(q1, q2, std::sqrt(q1 * q2), limit, T, criteria.decay_ratio, tau);
      if (std::max(q1, q2) <= limit) {
        // About its own line each half is quiet: the spread is the drift's, judged above.
      } else if (dt) {
        want(*dt);
        v.suggestion_notes.push_back(
            fmt::format("{} fluctuations decay with a time constant of about {:.3g} convective times", name, tau));
      } else {
        lasting_noise.push_back(fmt::format("{} (std {:.3g} in the window's first half, {:.3g} in its second)", name,
                                            s.std_first_half, s.std_second_half));
      }
    }
  }
  if (!lasting_noise.empty()) {
    std::string names;
    for (std::size_t k = 0; k < lasting_noise.size(); ++k) names += (k ? ", " : "") + lasting_noise[k];
    v.suggestion_notes.push_back(
        "the fluctuations of " + names +
        " do not decay over the window: a longer run alone will not remove them (pressure waves that the "
        "boundaries keep, or an unsteadiness without a clear period)");
  }
  if (!v.converged && more) v.more_convective_times = std::max(round_up(*more), round_up(0.1 * T));
  if (!v.converged && window) v.longer_window = round_up(*window);
  return v;
}

}  // namespace aerolbm
