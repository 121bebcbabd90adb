#include "src/solver/force_history.hpp"

#include <algorithm>
#include <cmath>

namespace aerolbm {

std::vector<CoefficientSample> ForceHistory::window(double t0) const {
  std::vector<CoefficientSample> w;
  for (const auto& s : samples_)
    if (s.time >= t0) w.push_back(s);
  return w;
}

double ForceHistory::mean_cd(const std::vector<CoefficientSample>& w) {
  if (w.empty()) return std::nan("");
  double s = 0;
  for (const auto& x : w) s += x.cd;
  return s / double(w.size());
}

double ForceHistory::mean_cl(const std::vector<CoefficientSample>& w) {
  if (w.empty()) return std::nan("");
  double s = 0;
  for (const auto& x : w) s += x.cl;
  return s / double(w.size());
}

std::optional<double> ForceHistory::strouhal(const std::vector<CoefficientSample>& w, double min_amplitude) {
  if (w.size() < 8) return std::nullopt;
  const double mean = mean_cl(w);
  double lo = w.front().cl, hi = lo;
  for (const auto& s : w) {
    lo = std::min(lo, s.cl);
    hi = std::max(hi, s.cl);
  }
  if (0.5 * (hi - lo) < min_amplitude) return std::nullopt;
  // Upward crossings of the mean, with a small hysteresis so noise near the mean does not count twice.
  const double band = 0.1 * (hi - lo);
  std::vector<double> crossings;
  bool below = w.front().cl < mean - band;
  for (std::size_t k = 1; k < w.size(); ++k) {
    const double v = w[k].cl;
    if (v < mean - band) below = true;
    if (below && v >= mean && w[k - 1].cl < mean) {
      const double a = w[k - 1].cl - mean, b = v - mean;
      const double t = w[k - 1].time + (w[k].time - w[k - 1].time) * (-a / (b - a));
      crossings.push_back(t);
      below = false;
    }
  }
  if (crossings.size() < 3) return std::nullopt;
  const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  if (!(period > 0)) return std::nullopt;
  return 1.0 / period;  // time is in L/U, so the frequency is already f·L/U
}

}  // namespace aerolbm
