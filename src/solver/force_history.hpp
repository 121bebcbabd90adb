#pragma once
// Force-coefficient history: window means and the Strouhal number of the lift signal.
#include <cstdint>
#include <optional>
#include <vector>

namespace aerolbm {

struct CoefficientSample {
  std::int64_t step;
  double time;  // convective times
  double cd, cl, cs;
};

class ForceHistory {
 public:
  void add(const CoefficientSample& s) { samples_.push_back(s); }
  const std::vector<CoefficientSample>& samples() const { return samples_; }
  // Samples with time ≥ t0.
  std::vector<CoefficientSample> window(double t0) const;
  static double mean_cd(const std::vector<CoefficientSample>& w);
  static double mean_cl(const std::vector<CoefficientSample>& w);
  // Strouhal number f·L/U from the lift signal (upward mean crossings, interpolated), when it oscillates at least
  // two full periods with an amplitude above `min_amplitude`; nullopt for a steady signal.
  static std::optional<double> strouhal(const std::vector<CoefficientSample>& w, double min_amplitude = 1e-2);

 private:
  std::vector<CoefficientSample> samples_;
};

}  // namespace aerolbm
