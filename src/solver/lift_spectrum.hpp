#pragma once
// The Strouhal number from the spectrum of the lift over the averaging window, with the tests that the peak is
// real. Time is in convective times L/U, so a frequency in 1/(L/U) is already the Strouhal number f·L/U.
//
// Method: the samples are put on an even grid (src/solver/uniform_series.hpp), their least-squares line is
// removed, a Hann window applied, and the series zero-padded to a power of two ≥ 4× its length before the FFT.
// The search band runs from min_periods / T (T: the window's length) to the Nyquist frequency; its largest power
// is the candidate peak, located to a fraction of a bin by a parabola through the logarithms of the three powers
// around it. The peak is accepted only when all of these hold:
//   1. the detrended lift's standard deviation exceeds min_std_relative × max(|mean|, scale_floor): below that
//      the lift is steady by the same measure the convergence verdict uses (src/solver/convergence_verdict.hpp);
//   2. the peak lies inside the band, not on its low edge (a spectrum that only falls from there is a trend or a
//      period too long for the window), so that at least min_periods periods fit in the window;
//   3. its power is at least min_peak_to_background × the background: the median power over an octave either
//      side of it, its own main lobe left out (white noise's largest bin among a few thousand is some 10× the
//      median, the start-up pressure waves of the default case stand 7× above theirs: 100× leaves no room for
//      chance; a sine carrying half of the variance stands at n/4 × for n samples);
//   4. the peak's main lobe (±2 bins of the unpadded series, the width of the Hann window's lobe) holds at least
//      min_peak_fraction of the windowed signal's energy: a narrow line, not one bump of broadband noise.
#include <optional>
#include <string>
#include <vector>

namespace aerolbm {

struct SpectrumCriteria {
  double min_periods = 3;
  double min_peak_to_background = 100;
  double min_peak_fraction = 0.5;
  double min_std_relative = 0.01;
  double scale_floor = 0.05;
  std::size_t min_samples = 16;
};

struct LiftSpectrum {
  std::optional<double> strouhal;  // the accepted peak's frequency f·L/U; empty when there is no real peak
  // The candidate, accepted or not (NaN when none was found: too few samples, or an empty band).
  double peak_frequency;
  double peak_to_background;  // peak power / median power around it (see 3. above)
  double peak_fraction;       // share of the windowed signal's energy in the peak's main lobe
  double periods_in_window;   // peak_frequency × T
  double std_detrended;       // of the lift, after removing its least-squares line
  std::string reason;         // why the peak was rejected, or "accepted"
};

// `t` (convective times, increasing) and `cl` of the window's samples.
LiftSpectrum lift_spectrum(const std::vector<double>& t, const std::vector<double>& cl,
                           const SpectrumCriteria& criteria = {});

}  // namespace aerolbm
