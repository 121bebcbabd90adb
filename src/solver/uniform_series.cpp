#include "src/solver/uniform_series.hpp"
#include "src/solver/fft.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>

namespace aerolbm {

UniformSeries resample_uniform(const std::vector<double>& t, const std::vector<double>& y) {
  if (t.size() != y.size() || t.size() < 2)
    throw std::invalid_argument("resample_uniform: needs at least 2 samples and as many times as values");
  std::vector<double> gaps(t.size() - 1);
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    gaps[k] = t[k + 1] - t[k];
    if (!(gaps[k] > 0)) throw std::invalid_argument("resample_uniform: times must increase strictly");
  }
  std::vector<double> sorted = gaps;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double dt = sorted[sorted.size() / 2];
  UniformSeries s;
  s.t0 = t.front();
  s.dt = dt;
  const bool even = std::all_of(gaps.begin(), gaps.end(), [&](double g) { return std::abs(g - dt) <= 1e-6 * dt; });
  if (even) {
    s.y = y;
    return s;
  }
  const std::size_t n = std::size_t(std::floor((t.back() - t.front()) / dt * (1 + 1e-12))) + 1;
  s.y.resize(n);
  std::size_t j = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double tk = s.time(k);
    while (j + 2 < t.size() && t[j + 1] < tk) ++j;
    const double f = std::clamp((tk - t[j]) / (t[j + 1] - t[j]), 0.0, 1.0);
    s.y[k] = y[j] + f * (y[j + 1] - y[j]);
  }
  return s;
}

double autocorrelation_time(const std::vector<double>& y) {
  const std::size_t n = y.size();
  if (n < 4) return 1;
  const double m = mean_of(y);
  // Autocovariance by FFT: zero-padded to ≥ 2n so that the circular correlation is the linear one.
  std::vector<std::complex<double>> x(next_power_of_two(2 * n), 0.0);
  for (std::size_t k = 0; k < n; ++k) x[k] = y[k] - m;
  fft_in_place(x);
  for (auto& v : x) v = std::conj(v) * v;  // |X|², then the inverse FFT as the forward FFT of its conjugate
  fft_in_place(x);
  const double c0 = x[0].real();
  if (!(c0 > 0)) return 1;
  auto rho = [&](std::size_t k) { return x[k].real() / c0; };  // biased estimate (divides by n, not n − k)
  double sum = -1.0;  // Σ over pairs below includes ρ_0 = 1; τ = −1 + 2 Σ_m (ρ_2m + ρ_2m+1)
  for (std::size_t k = 0; k + 1 < n; k += 2) {
    const double pair = rho(k) + rho(k + 1);
    if (!(pair > 0)) break;
    sum += 2.0 * pair;
  }
  return std::max(1.0, sum);
}

double mean_of(const std::vector<double>& y) {
  if (y.empty()) return std::numeric_limits<double>::quiet_NaN();
  double s = 0;
  for (double v : y) s += v;
  return s / double(y.size());
}

double std_of(const std::vector<double>& y) {
  if (y.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double m = mean_of(y);
  double s = 0;
  for (double v : y) s += (v - m) * (v - m);
  return std::sqrt(s / double(y.size()));
}

Line least_squares_line(const std::vector<double>& t, const std::vector<double>& y) {
  Line l;
  l.intercept = mean_of(y);
  if (t.size() < 2) return l;
  const double tm = mean_of(t);
  double stt = 0, sty = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    stt += (t[k] - tm) * (t[k] - tm);
    sty += (t[k] - tm) * (y[k] - l.intercept);
  }
  l.slope = stt > 0 ? sty / stt : 0.0;
  return l;
}

std::vector<double> detrended(const std::vector<double>& t, const std::vector<double>& y) {
  const Line l = least_squares_line(t, y);
  const double tm = mean_of(t);
  std::vector<double> r(y.size());
  for (std::size_t k = 0; k < y.size(); ++k) r[k] = y[k] - (l.intercept + l.slope * (t[k] - tm));
  return r;
}

std::vector<double> moving_average(const std::vector<double>& y, std::size_t width) {
  if (width == 0) throw std::invalid_argument("moving_average: width must be at least 1");
  if (y.size() < width) return {};
  std::vector<double> r(y.size() - width + 1);
  // A running sum, summed afresh every `width` outputs so that its round-off does not pile up along the window.
  double s = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (k % width == 0) {
      s = 0;
      for (std::size_t i = 0; i < width; ++i) s += y[k + i];
    } else {
      s += y[k + width - 1] - y[k - 1];
    }
    r[k] = s / double(width);
  }
  return r;
}

}  // namespace aerolbm
