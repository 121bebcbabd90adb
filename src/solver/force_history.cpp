#include "src/solver/force_history.hpp"

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

double ForceHistory::mean_cpitch(const std::vector<CoefficientSample>& w) {
  if (w.empty()) return std::nan("");
  double s = 0;
  for (const auto& x : w) s += x.cpitch;
  return s / double(w.size());
}

}  // namespace aerolbm
