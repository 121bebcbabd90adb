#pragma once
// Mean, spread and drift of one force coefficient over the averaging window.
//
// Drift: the least-squares slope of the coefficient times the window's length, i.e. how far the fitted line moves
// across the window, in coefficient units. For a periodic signal (a Strouhal number was found) the line is fitted
// to the signal averaged over one period (a centred moving average), which removes the oscillation itself: fitted
// to the raw signal, even a perfectly periodic lift shows a "drift" of about 2 × amplitude / (periods in window).
// Relative figures are relative to scale = max(|mean|, scale_floor), so that a coefficient whose mean is near
// zero (the lift of a symmetric body, a side force) is measured against a size that matters rather than against
// its own noise; for a periodic signal the scale is at least its standard deviation (the size of its swing).
#include <optional>
#include <vector>

namespace aerolbm {

struct CoefficientStatistics {
  int samples = 0;
  double mean = 0, std = 0, min = 0, max = 0;
  double drift = 0;  // least-squares slope × window length (of the period average when periodic)
  // One standard error of `drift`, from the scatter about a least-squares parabola (so that a curving approach to
  // a steady value is not taken for noise), with the number of samples cut to the effective number of independent
  // ones, n / (the scatter's integrated autocorrelation time; see uniform_series.hpp), at least 3.
  double drift_uncertainty = 0;
  double scale = 0;  // max(|mean|, scale_floor), and ≥ std when periodic
  // The same over each half of the window, for estimating how fast the run settles (convergence_verdict.hpp):
  // |slope| of the (period-averaged) signal and the standard deviation about each half's own line.
  double slope_first_half = 0, slope_second_half = 0;
  double std_first_half = 0, std_second_half = 0;
  double window = 0;  // length of the window, convective times

  double drift_relative() const { return drift / scale; }
  double std_relative() const { return std / scale; }
};

inline constexpr double kCoefficientScaleFloor = 0.05;

// `t` increasing, same size as `y`; `period` (convective times) when the run is periodic. Samples whose value is
// not finite are left out (3D moment coefficients are missing from samples restored from an older checkpoint).
CoefficientStatistics coefficient_statistics(const std::vector<double>& t, const std::vector<double>& y,
                                             std::optional<double> period = std::nullopt,
                                             double scale_floor = kCoefficientScaleFloor);

}  // namespace aerolbm
