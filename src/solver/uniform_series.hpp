#pragma once
// A sampled signal on an even time grid, and the small operations the window statistics are built from.
// Force samples come every forces.every steps, but the last one of a run (step == total) or the samples around a
// restart can fall off that grid; the spectrum and the period average want an even one.
#include <cstddef>
#include <vector>

namespace aerolbm {

struct UniformSeries {
  double t0 = 0, dt = 0;  // time of y[0], spacing
  std::vector<double> y;
  double time(std::size_t k) const { return t0 + dt * double(k); }
};

// `t` strictly increasing, same size as `y`, at least 2 samples (std::invalid_argument otherwise). The spacing is
// the median of the sample intervals; the samples are kept as they are when every interval is within 1e-6 of it,
// otherwise interpolated linearly onto the grid t.front() + k·dt up to t.back().
UniformSeries resample_uniform(const std::vector<double>& t, const std::vector<double>& y);

// Least-squares straight line y ≈ a + b·(t − mean t): {a, b}. For fewer than 2 samples {mean y, 0}.
struct Line {
  double intercept = 0, slope = 0;
};
Line least_squares_line(const std::vector<double>& t, const std::vector<double>& y);

// y minus its least-squares line.
std::vector<double> detrended(const std::vector<double>& t, const std::vector<double>& y);

// Centred moving average over `width` samples (width ≥ 1): the values where the whole width fits, i.e.
// y.size() − width + 1 of them, the first centred at (width − 1)/2 samples in.
std::vector<double> moving_average(const std::vector<double>& y, std::size_t width);

// Integrated autocorrelation time of a series, in samples: 1 + 2 Σ ρ_k, the sum cut by Geyer's initial positive
// sequence rule (pairs ρ_2m + ρ_2m+1 summed while positive). n / this is the effective number of independent
// samples: 1 for white noise, (1 + ρ)/(1 − ρ) for an AR(1) process, about a third of the period (in samples) for
// a narrow-band oscillation. ρ by FFT, so any length is cheap. 1 for fewer than 4 samples or a constant.
double autocorrelation_time(const std::vector<double>& y);

double mean_of(const std::vector<double>& y);
// Population standard deviation (divides by n): a window's own spread, not an estimate for a larger set.
double std_of(const std::vector<double>& y);

}  // namespace aerolbm
