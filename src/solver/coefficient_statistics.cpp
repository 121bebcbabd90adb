#include "src/solver/coefficient_statistics.hpp"

#include <algorithm>
#include <cmath>

#include "src/solver/uniform_series.hpp"

namespace aerolbm {
namespace {

// The series the drift is measured on: the samples themselves, or their one-period moving average on an even grid.
void drift_series(const std::vector<double>& t, const std::vector<double>& y, std::optional<double> period,
                  std::vector<double>& ts, std::vector<double>& ys) {
  ts = t;
  ys = y;
  if (!period || !(*period > 0) || t.size() < 2) return;
  const UniformSeries u = resample_uniform(t, y);
  const std::size_t width = std::size_t(std::lround(*period / u.dt));
  if (width < 2 || width >= u.y.size()) return;
  ys = moving_average(u.y, width);
  ts.resize(ys.size());
  for (std::size_t k = 0; k < ys.size(); ++k) ts[k] = u.time(k) + 0.5 * double(width - 1) * u.dt;
}

// One standard error of the least-squares slope × window, see drift_uncertainty in the header.
double drift_uncertainty(const std::vector<double>& t, const std::vector<double>& y, double window) {
  const std::size_t n = t.size();
  if (n < 4 || !(window > 0)) return 0;
  // Parabola y ≈ c0 + c1 x + c2 x², x = (t − t̄)/window, by the normal equations (3 × 3, Cramer's rule).
  const double tm = mean_of(t);
  double S[5] = {0, 0, 0, 0, 0}, B[3] = {0, 0, 0};
  for (std::size_t k = 0; k < n; ++k) {
    const double x = (t[k] - tm) / window;
    double p = 1;
    for (int i = 0; i < 5; ++i, p *= x) {
      S[i] += p;
      if (i < 3) B[i] += p * y[k];
    }
  }
  auto det3 = [](double a, double b, double c, double d, double e, double f, double g, double h, double i) {
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  };
  const double D = det3(S[0], S[1], S[2], S[1], S[2], S[3], S[2], S[3], S[4]);
  if (!(std::abs(D) > 0)) return 0;
  const double c0 = det3(B[0], S[1], S[2], B[1], S[2], S[3], B[2], S[3], S[4]) / D;
  const double c1 = det3(S[0], B[0], S[2], S[1], B[1], S[3], S[2], B[2], S[4]) / D;
  const double c2 = det3(S[0], S[1], B[0], S[1], S[2], B[1], S[2], S[3], B[2]) / D;
  std::vector<double> r(n);
  double rr = 0, stt = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double x = (t[k] - tm) / window;
    r[k] = y[k] - (c0 + c1 * x + c2 * x * x);
    rr += r[k] * r[k];
    stt += (t[k] - tm) * (t[k] - tm);
  }
  if (!(rr > 0) || !(stt > 0)) return 0;
  const double n_eff = std::clamp(double(n) / autocorrelation_time(r), 3.0, double(n));
  const double sigma2 = rr / double(n - 3);
  // Var(slope) = σ² / Σ(t − t̄)² for n independent samples; n_eff of them scale it by n / n_eff.
  return std::sqrt(sigma2 / stt * double(n) / n_eff) * window;
}

struct Half {
  std::vector<double> t, y;
};
Half half_of(const std::vector<double>& t, const std::vector<double>& y, bool second) {
  const std::size_t mid = t.size() / 2;
  Half h;
  h.t.assign(t.begin() + (second ? std::ptrdiff_t(mid) : 0), second ? t.end() : t.begin() + std::ptrdiff_t(mid));
  h.y.assign(y.begin() + (second ? std::ptrdiff_t(mid) : 0), second ? y.end() : y.begin() + std::ptrdiff_t(mid));
  return h;
}

}  // namespace

CoefficientStatistics coefficient_statistics(const std::vector<double>& t_in, const std::vector<double>& y_in,
                                             std::optional<double> period, double scale_floor) {
  std::vector<double> t, y;
  for (std::size_t k = 0; k < std::min(t_in.size(), y_in.size()); ++k)
    if (std::isfinite(y_in[k])) {
      t.push_back(t_in[k]);
      y.push_back(y_in[k]);
    }
  CoefficientStatistics s;
  s.samples = int(y.size());
  if (y.empty()) {
    s.mean = s.std = s.min = s.max = s.drift = s.drift_uncertainty = std::nan("");
    s.scale = scale_floor;
    return s;
  }
  s.mean = mean_of(y);
  s.std = std_of(y);
  s.min = *std::min_element(y.begin(), y.end());
  s.max = *std::max_element(y.begin(), y.end());
  s.scale = std::max(std::abs(s.mean), scale_floor);
  if (period) s.scale = std::max(s.scale, s.std);
  s.window = t.back() - t.front();

  std::vector<double> ts, ys;
  drift_series(t, y, period, ts, ys);
  s.drift = least_squares_line(ts, ys).slope * s.window;
  s.drift_uncertainty = drift_uncertainty(ts, ys, s.window);
  if (ts.size() >= 4) {
    const Half a = half_of(ts, ys, false), b = half_of(ts, ys, true);
    s.slope_first_half = std::abs(least_squares_line(a.t, a.y).slope);
    s.slope_second_half = std::abs(least_squares_line(b.t, b.y).slope);
  }
  if (t.size() >= 4) {
    const Half a = half_of(t, y, false), b = half_of(t, y, true);
    s.std_first_half = std_of(detrended(a.t, a.y));
    s.std_second_half = std_of(detrended(b.t, b.y));
  }
  return s;
}

}  // namespace aerolbm
