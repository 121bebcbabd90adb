#include "src/solver/lift_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "src/solver/fft.hpp"
#include "src/solver/uniform_series.hpp"

namespace aerolbm {

LiftSpectrum lift_spectrum(const std::vector<double>& t, const std::vector<double>& cl,
                           const SpectrumCriteria& criteria) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  LiftSpectrum r{std::nullopt, nan, nan, nan, nan, nan, ""};
  if (t.size() < std::max<std::size_t>(criteria.min_samples, 4) || t.size() != cl.size()) {
    r.reason = fmt::format("too few samples in the window ({}; at least {})", t.size(), criteria.min_samples);
    return r;
  }
  const UniformSeries u = resample_uniform(t, cl);
  const std::size_t n = u.y.size();
  std::vector<double> tu(n);
  for (std::size_t k = 0; k < n; ++k) tu[k] = u.time(k);
  const std::vector<double> y = detrended(tu, u.y);
  r.std_detrended = std_of(y);
  const double scale = std::max(std::abs(mean_of(cl)), criteria.scale_floor);
  const double T = t.back() - t.front();

  // Hann window, zero padding to ≥ 4n, FFT, one-sided power.
  const std::size_t m = next_power_of_two(4 * n);
  std::vector<std::complex<double>> x(m, 0.0);
  double energy = 0;  // of the windowed series, = (1/m) Σ_all |X_j|² (Parseval)
  for (std::size_t k = 0; k < n; ++k) {
    const double w = 0.5 * (1.0 - std::cos(2.0 * std::numbers::pi * double(k) / double(n - 1)));
    x[k] = w * y[k];
    energy += (w * y[k]) * (w * y[k]);
  }
  fft_in_place(x);
  const std::size_t half = m / 2;
  std::vector<double> power(half + 1);
  for (std::size_t j = 0; j <= half; ++j) power[j] = std::norm(x[j]);
  const double df = 1.0 / (double(m) * u.dt);  // frequency of one padded bin

  // The band: f ≥ min_periods / T, up to (not including) the Nyquist bin.
  const std::size_t j_lo = std::size_t(std::ceil(criteria.min_periods / T / df));
  if (j_lo + 2 >= half) {
    r.reason = "the window is too short for the band searched (fewer than " +
               fmt::format("{:g}", criteria.min_periods) + " periods of any resolvable frequency)";
    return r;
  }
  std::size_t jp = j_lo;
  for (std::size_t j = j_lo; j < half; ++j)
    if (power[j] > power[jp]) jp = j;
  // Main lobe of the Hann window: ±2 bins of the unpadded series = ±2 m/n padded bins.
  const std::size_t lobe = std::size_t(std::ceil(2.0 * double(m) / double(n)));
  // Background: the median power over an octave either side of the peak, its main lobe left out; the whole band
  // (lobe left out) when that leaves fewer than 8 bins. Local, because force signals are sampled far faster than
  // they vary: a median over the band up to the Nyquist frequency would be the empty top of the spectrum, and any
  // bump of noise would stand out against it.
  auto background = [&](bool local) {
    std::vector<double> bins;
    for (std::size_t j = j_lo; j < half; ++j) {
      const double f = double(j) * df, fp = double(jp) * df;
      if ((j + lobe < jp || j > jp + lobe) && (!local || (f >= 0.5 * fp && f <= 2.0 * fp))) bins.push_back(power[j]);
    }
    return bins;
  };
  std::vector<double> bins = background(true);
  if (bins.size() < 8) bins = background(false);
  double median = 0;
  if (!bins.empty()) {
    std::nth_element(bins.begin(), bins.begin() + std::ptrdiff_t(bins.size() / 2), bins.end());
    median = bins[bins.size() / 2];
  }

  // Sub-bin position from a parabola through the log powers (exact for a Gaussian lobe, close for Hann's).
  double delta = 0;
  if (jp > 0 && jp < half && power[jp - 1] > 0 && power[jp] > 0 && power[jp + 1] > 0) {
    const double a = std::log(power[jp - 1]), b = std::log(power[jp]), c = std::log(power[jp + 1]);
    const double den = a - 2 * b + c;
    if (den < 0) delta = std::clamp(0.5 * (a - c) / den, -0.5, 0.5);
  }
  r.peak_frequency = (double(jp) + delta) * df;
  r.periods_in_window = r.peak_frequency * T;
  r.peak_to_background = median > 0 ? power[jp] / median : std::numeric_limits<double>::infinity();
  // The lobe's share of the energy; one-sided bins count twice (but 0 and m/2).
  double lobe_power = 0;
  for (std::size_t j = jp > lobe ? jp - lobe : 0; j <= std::min(half, jp + lobe); ++j)
    lobe_power += (j == 0 || j == half ? 1.0 : 2.0) * power[j];
  r.peak_fraction = energy > 0 ? lobe_power / double(m) / energy : 0.0;

  if (!(r.std_detrended > criteria.min_std_relative * scale)) {
    r.reason = fmt::format("steady lift: its standard deviation {:.3g} is at most {:g} % of max(|mean|, {:g})",
                           r.std_detrended, 100 * criteria.min_std_relative, criteria.scale_floor);
  } else if (jp == j_lo) {
    r.reason = fmt::format("no peak: the spectrum is largest at the band's low edge ({:g} periods in the window): "
                           "a trend, or a period too long for the window",
                           criteria.min_periods);
  } else if (r.peak_to_background < criteria.min_peak_to_background) {
    r.reason = fmt::format("no clear peak: the largest ({:.4g}) stands {:.3g}× above the median of the spectrum "
                           "around it (at least {:g}× needed)",
                           r.peak_frequency, r.peak_to_background, criteria.min_peak_to_background);
  } else if (r.peak_fraction < criteria.min_peak_fraction) {
    r.reason = fmt::format("broadband signal: the peak at {:.4g} holds {:.0f} % of the lift's variance (at least "
                           "{:g} % needed)",
                           r.peak_frequency, 100 * r.peak_fraction, 100 * criteria.min_peak_fraction);
  } else {
    r.strouhal = r.peak_frequency;
    r.reason = "accepted";
  }
  return r;
}

}  // namespace aerolbm
