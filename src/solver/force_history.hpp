#pragma once
// Force-coefficient history and window means. The window's full statistics (spread, drift, the Strouhal number
// from the lift spectrum, convergence) are in window_analysis.hpp.
#include <cstdint>
#include <limits>
#include <vector>

namespace aerolbm {

struct CoefficientSample {
  std::int64_t step;
  double time;  // convective times
  double cd, cl, cs;
  // The moment coefficients (roll, yaw, pitch) of a run with a body; in 2D the pitch alone (roll and yaw NaN). NaN
  // without a body and for samples restored from a checkpoint written before the checkpoint kept them.
  double croll = std::numeric_limits<double>::quiet_NaN();
  double cyaw = std::numeric_limits<double>::quiet_NaN();
  double cpitch = std::numeric_limits<double>::quiet_NaN();
  // The pressure part of C_D (Backend::wall_pressure_force); C_D − cd_pressure is the skin-friction drag. NaN for
  // samples restored from a checkpoint written before it was kept.
  double cd_pressure = std::numeric_limits<double>::quiet_NaN();
};

class ForceHistory {
 public:
  void add(const CoefficientSample& s) { samples_.push_back(s); }
  const std::vector<CoefficientSample>& samples() const { return samples_; }
  // Samples with time ≥ t0.
  std::vector<CoefficientSample> window(double t0) const;
  static double mean_cd(const std::vector<CoefficientSample>& w);
  static double mean_cl(const std::vector<CoefficientSample>& w);
  static double mean_cpitch(const std::vector<CoefficientSample>& w);  // NaN where a sample has none

 private:
  std::vector<CoefficientSample> samples_;
};

}  // namespace aerolbm
