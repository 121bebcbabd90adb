// The averaging window's statistics on synthetic signals: mean/std/drift, the Strouhal number from the lift
// spectrum (a real peak only), the convergence verdict and its suggestion, the FFT and the even resampling.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <vector>

#include "src/solver/coefficient_statistics.hpp"
#include "src/solver/convergence_verdict.hpp"
#include "src/solver/fft.hpp"
#include "src/solver/lift_spectrum.hpp"
#include "src/solver/uniform_series.hpp"
#include "src/solver/window_analysis.hpp"

namespace aerolbm {
namespace {

constexpr double kPi = std::numbers::pi;

// Gaussian noise from splitmix64 and Box-Muller: the same numbers with every standard library.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : s_(seed) {}
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  double gauss() {
    const double u = std::max(uniform(), 1e-300), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * kPi * v);
  }

 private:
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t s_;
};

std::vector<double> times(double t0, double t1, double dt) {
  std::vector<double> t;
  for (std::int64_t k = 0; t0 + dt * double(k) <= t1 + 1e-9; ++k) t.push_back(t0 + dt * double(k));
  return t;
}

template <class F>
std::vector<double> sample(const std::vector<double>& t, F f) {
  std::vector<double> y;
  for (double x : t) y.push_back(f(x));
  return y;
}

std::vector<CoefficientSample> history(const std::vector<double>& t, const std::vector<double>& cd,
                                       const std::vector<double>& cl) {
  std::vector<CoefficientSample> w;
  for (std::size_t k = 0; k < t.size(); ++k) w.push_back({std::int64_t(k), t[k], cd[k], cl[k], 0.0});
  return w;
}

TEST(Fft, MatchesTheDirectSum) {
  Noise rng(1);
  std::vector<std::complex<double>> x(64);
  for (auto& v : x) v = {rng.gauss(), rng.gauss()};
  auto X = x;
  fft_in_place(X);
  for (std::size_t j = 0; j < x.size(); ++j) {
    std::complex<double> s = 0;
    for (std::size_t k = 0; k < x.size(); ++k) s += x[k] * std::polar(1.0, -2 * kPi * double(j * k) / 64.0);
    EXPECT_NEAR(std::abs(X[j] - s), 0.0, 1e-12) << j;
  }
  std::vector<std::complex<double>> bad(12);
  EXPECT_THROW(fft_in_place(bad), std::invalid_argument);
  EXPECT_EQ(next_power_of_two(1000), 1024u);
  EXPECT_EQ(next_power_of_two(1024), 1024u);
}

TEST(UniformSeries, KeepsEvenSamplesAndInterpolatesAnUnevenLastOne) {
  const std::vector<double> t = {0, 1, 2, 3, 3.5}, y = {0, 2, 4, 6, 7};
  const UniformSeries u = resample_uniform(t, y);
  EXPECT_DOUBLE_EQ(u.dt, 1.0);
  ASSERT_EQ(u.y.size(), 4u);  // up to t = 3.5 on the grid 0, 1, 2, 3
  EXPECT_DOUBLE_EQ(u.y[3], 6.0);
  const UniformSeries even = resample_uniform({0, 0.5, 1.0}, {1, 2, 3});
  EXPECT_EQ(even.y, (std::vector<double>{1, 2, 3}));
  EXPECT_THROW(resample_uniform({0, 0}, {1, 2}), std::invalid_argument);
  EXPECT_EQ(moving_average({1, 2, 3, 4, 5}, 2), (std::vector<double>{1.5, 2.5, 3.5, 4.5}));
}

TEST(UniformSeries, AutocorrelationTimeOfWhiteNoiseAndOfAnAr1Process) {
  Noise rng(5);
  std::vector<double> white(20000), ar(20000);
  double a = 0;
  for (std::size_t k = 0; k < white.size(); ++k) {
    white[k] = rng.gauss();
    a = 0.8 * a + rng.gauss();
    ar[k] = a;
  }
  EXPECT_NEAR(autocorrelation_time(white), 1.0, 0.15);
  EXPECT_NEAR(autocorrelation_time(ar), 1.8 / 0.2, 0.15 * 9);  // (1 + ρ)/(1 − ρ)
  EXPECT_DOUBLE_EQ(autocorrelation_time(std::vector<double>(100, 3.0)), 1.0);
}

TEST(CoefficientStatistics, MeanStdMinMaxExactlyOnKnownData) {
  const std::vector<double> t = {0, 1, 2, 3}, y = {1, 2, 3, 4};
  const CoefficientStatistics s = coefficient_statistics(t, y);
  EXPECT_EQ(s.samples, 4);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.std, std::sqrt(1.25));  // population std: the window's own spread
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.drift, 3.0);  // slope 1 over a window of 3
  EXPECT_DOUBLE_EQ(s.scale, 2.5);
  // Non-finite samples (moments missing from restored samples) are left out.
  const CoefficientStatistics m = coefficient_statistics({0, 1, 2}, {std::nan(""), 5, 7});
  EXPECT_EQ(m.samples, 2);
  EXPECT_DOUBLE_EQ(m.mean, 6);
  // A mean near zero is measured against the floor.
  EXPECT_DOUBLE_EQ(coefficient_statistics({0, 1}, {-0.001, 0.001}).scale, kCoefficientScaleFloor);
}

TEST(CoefficientStatistics, LinearDriftIsMeasuredAndFailsTheVerdict) {
  const auto t = times(20, 30, 0.01);
  // Cd grows by 0.004 over the window: 3 % of its mean 0.132; Cl is steady.
  const auto cd = sample(t, [](double x) { return 0.13 + 0.0004 * (x - 25) + 0.002; });
  const auto cl = sample(t, [](double) { return 0.25; });
  const WindowAnalysis a = analyse_window(history(t, cd, cl), 2, 10);
  const CoefficientStatistics& s = *a.find("cd");
  EXPECT_NEAR(s.drift, 0.004, 1e-12);
  EXPECT_NEAR(s.drift_relative(), 0.004 / 0.132, 1e-10);
  EXPECT_NEAR(a.find("cl")->drift, 0.0, 1e-12);
  EXPECT_FALSE(a.convergence.converged);
  // Its spread (0.004/√12 = 0.87 % of the mean) passes; the drift does not.
  ASSERT_EQ(a.convergence.reasons.size(), 1u) << a.convergence.reasons.at(1);
  EXPECT_NE(a.convergence.reasons[0].find("cd drifts"), std::string::npos) << a.convergence.reasons[0];
  // A drift that does not fall across the window: one more window length.
  ASSERT_TRUE(a.convergence.more_convective_times.has_value());
  EXPECT_DOUBLE_EQ(*a.convergence.more_convective_times, 10.0);
  EXPECT_FALSE(a.strouhal().has_value());
}

TEST(LiftSpectrum, SineWithNoiseGivesItsFrequency) {
  // St 0.2 over 50 convective times (10 periods), amplitude 0.5 about 0.3, noise σ 0.1, sampled every 0.05,
  // a slow trend on top; and other frequencies, off the FFT's bins.
  for (double f : {0.2, 0.1637, 0.31, 1.27}) {
    Noise rng(42);
    const auto t = times(100, 150, 0.05);
    const auto cl = sample(t, [&](double x) {
      return 0.3 + 0.001 * (x - 100) + 0.5 * std::sin(2 * kPi * f * x + 0.4) + 0.1 * rng.gauss();
    });
    const LiftSpectrum s = lift_spectrum(t, cl);
    ASSERT_TRUE(s.strouhal.has_value()) << f << ": " << s.reason;
    EXPECT_NEAR(*s.strouhal, f, 0.002 * f) << "bins are " << 1.0 / 50 << " apart before zero padding";
    EXPECT_GT(s.peak_to_background, 100);
    EXPECT_NEAR(s.periods_in_window, 50 * f, 0.01 * 50 * f);
  }
}

TEST(LiftSpectrum, TheSecondHarmonicDoesNotWin) {
  // Lift at f with a weaker 2f and 3f, as a shedding wake gives: the fundamental is the Strouhal number.
  const auto t = times(0, 40, 0.02);
  const auto cl = sample(t, [](double x) {
    return 0.4 * std::sin(2 * kPi * 0.3 * x) + 0.1 * std::sin(4 * kPi * 0.3 * x) + 0.05 * std::sin(6 * kPi * 0.3 * x);
  });
  const LiftSpectrum s = lift_spectrum(t, cl);
  ASSERT_TRUE(s.strouhal.has_value()) << s.reason;
  EXPECT_NEAR(*s.strouhal, 0.3, 0.001);
}

TEST(LiftSpectrum, WhiteNoiseAndConstantsGiveNone) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Noise rng(seed);
    const auto t = times(0, 4, 0.0135);  // the default case's window: 4 convective times, ~300 samples
    const auto cl = sample(t, [&](double) { return 0.25 + 0.15 * rng.gauss(); });
    const LiftSpectrum s = lift_spectrum(t, cl);
    EXPECT_FALSE(s.strouhal.has_value()) << "seed " << seed << ": " << *s.strouhal << " (" << s.peak_to_background
                                         << "x the median)";
  }
  const auto t = times(0, 10, 0.01);
  for (double c : {0.0, 0.25, -3.0}) {
    const LiftSpectrum s = lift_spectrum(t, sample(t, [&](double) { return c; }));
    EXPECT_FALSE(s.strouhal.has_value()) << c;
    EXPECT_NE(s.reason.find("steady"), std::string::npos) << s.reason;
  }
  // A steady lift with a tiny oscillation (0.2 % of the mean) is steady, not shedding.
  const LiftSpectrum tiny = lift_spectrum(t, sample(t, [](double x) { return 0.25 + 5e-4 * std::sin(2 * kPi * x); }));
  EXPECT_FALSE(tiny.strouhal.has_value()) << tiny.reason;
  // A slow exponential approach to a steady value, no oscillation: no peak either.
  const LiftSpectrum slow = lift_spectrum(t, sample(t, [](double x) { return 0.25 - 0.1 * std::exp(-x / 3); }));
  EXPECT_FALSE(slow.strouhal.has_value()) << slow.reason;
}

TEST(LiftSpectrum, FewerThanThreePeriodsGiveNone) {
  const auto t = times(0, 10, 0.01);
  const LiftSpectrum s = lift_spectrum(t, sample(t, [](double x) { return 0.5 * std::sin(2 * kPi * 0.2 * x); }));
  EXPECT_FALSE(s.strouhal.has_value()) << "2 periods in the window: " << s.reason;
  const LiftSpectrum four = lift_spectrum(t, sample(t, [](double x) { return 0.5 * std::sin(2 * kPi * 0.4 * x); }));
  ASSERT_TRUE(four.strouhal.has_value()) << four.reason;
  EXPECT_NEAR(*four.strouhal, 0.4, 0.004);
}

TEST(LiftSpectrum, TooFewSamplesGiveNone) {
  const auto t = times(0, 1, 0.1);
  const LiftSpectrum s = lift_spectrum(t, sample(t, [](double x) { return std::sin(2 * kPi * 4 * x); }));
  EXPECT_FALSE(s.strouhal.has_value());
  EXPECT_NE(s.reason.find("too few samples"), std::string::npos) << s.reason;
}

TEST(CoefficientStatistics, PeriodicDriftIsTheDriftOfThePeriodAverage) {
  // A pure oscillation over 7.3 periods: the least-squares line through the raw signal tilts by about
  // 2 A / periods; through the one-period average it stays flat. A real drift under it is still found.
  const double f = 0.73;
  const auto t = times(0, 10, 0.01);
  const auto y = sample(t, [&](double x) { return 1.4 + 0.3 * std::sin(2 * kPi * f * x); });
  const CoefficientStatistics raw = coefficient_statistics(t, y);
  const CoefficientStatistics periodic = coefficient_statistics(t, y, 1.0 / f);
  EXPECT_GT(std::abs(raw.drift), 0.02);
  EXPECT_LT(std::abs(periodic.drift), 1e-3);
  const auto z = sample(t, [&](double x) { return 1.4 + 0.01 * x + 0.3 * std::sin(2 * kPi * f * x); });
  EXPECT_NEAR(coefficient_statistics(t, z, 1.0 / f).drift, 0.1, 2e-3);
}

TEST(ConvergenceVerdict, SteadyQuietWindowIsConverged) {
  Noise rng(7);
  const auto t = times(8, 12, 0.0135);
  const auto cd = sample(t, [&](double) { return 0.130 + 0.0003 * rng.gauss(); });
  const auto cl = sample(t, [&](double) { return 0.247 + 0.0005 * rng.gauss(); });
  const WindowAnalysis a = analyse_window(history(t, cd, cl), 2, 4);
  EXPECT_TRUE(a.convergence.converged) << (a.convergence.reasons.empty() ? "" : a.convergence.reasons[0]);
  EXPECT_FALSE(a.strouhal().has_value());
  EXPECT_FALSE(a.convergence.more_convective_times.has_value());
  EXPECT_NEAR(a.find("cl")->mean, 0.247, 2e-4);
  EXPECT_NEAR(a.find("cl")->std, 0.0005, 1e-4);
}

TEST(ConvergenceVerdict, PeriodicRunIsJudgedOnItsDriftNotItsOscillation) {
  const auto t = times(100, 150, 0.02);
  const auto cd = sample(t, [](double x) { return 1.35 + 0.01 * std::sin(4 * kPi * 0.165 * x); });
  const auto cl = sample(t, [](double x) { return 0.33 * std::sin(2 * kPi * 0.165 * x); });
  const WindowAnalysis a = analyse_window(history(t, cd, cl), 2, 50);
  ASSERT_TRUE(a.strouhal().has_value()) << a.lift.reason;
  EXPECT_NEAR(*a.strouhal(), 0.165, 0.001);
  EXPECT_TRUE(a.convergence.converged) << a.convergence.reasons.at(0);
  // The same with the drag still climbing by 5 % across the window.
  const auto cd2 = sample(t, [](double x) { return 1.35 + 0.00135 * (x - 125) + 0.01 * std::sin(4 * kPi * 0.165 * x); });
  const WindowAnalysis b = analyse_window(history(t, cd2, cl), 2, 50);
  EXPECT_FALSE(b.convergence.converged);
  ASSERT_EQ(b.convergence.reasons.size(), 1u) << "only the drift: a periodic run's spread is its oscillation";
  EXPECT_NE(b.convergence.reasons[0].find("cd drifts"), std::string::npos);
}

TEST(ConvergenceVerdict, NoisySteadyWindowIsNotConvergedAndLongerRunIsNotPromised) {
  Noise rng(3);
  const auto t = times(8, 12, 0.0135);
  const auto cd = sample(t, [&](double) { return 0.13 + 0.01 * rng.gauss(); });
  const auto cl = sample(t, [&](double) { return 0.246 + 0.15 * rng.gauss(); });
  const WindowAnalysis a = analyse_window(history(t, cd, cl), 2, 4);
  EXPECT_FALSE(a.strouhal().has_value()) << "noise is no Strouhal number: " << a.lift.peak_frequency;
  EXPECT_FALSE(a.convergence.converged);
  EXPECT_FALSE(a.convergence.more_convective_times.has_value())
      << "noise that does not decay is not removed by a longer run";
  bool said = false;
  for (const auto& n : a.convergence.suggestion_notes) said = said || n.find("do not decay") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(ConvergenceVerdict, FollowingTheSuggestionConverges) {
  // The lift settles exponentially (time constant 4): over the window 10-20 it still drifts by some 7 %.
  auto cl = [](double x) { return 0.25 - 0.2 * std::exp(-x / 4); };
  auto cd = [](double x) { return 0.13 + 0.05 * std::exp(-x / 4); };
  auto window = [&](double t0, double t1) {
    const auto t = times(t0, t1, 0.01);
    return analyse_window(history(t, sample(t, cd), sample(t, cl)), 2, t1 - t0);
  };
  const WindowAnalysis a = window(10, 20);
  ASSERT_FALSE(a.convergence.converged);
  ASSERT_TRUE(a.convergence.more_convective_times.has_value());
  const double more = *a.convergence.more_convective_times;
  // Exactly (least squares over the moved window): the lift's drift, the slower to fall under 1 % of its mean,
  // gets there 6.8 convective times later.
  EXPECT_GT(more, 6.0);
  EXPECT_LT(more, 8.5);
  EXPECT_TRUE(window(10 + more, 20 + more).convergence.converged);
  EXPECT_FALSE(window(10 + 0.8 * more, 20 + 0.8 * more).convergence.converged) << "the suggestion is not lavish";
}

TEST(ConvergenceVerdict, DriftWithinItsNoiseAsksForALongerWindowInAPeriodicRun) {
  CoefficientStatistics s;
  s.samples = 1000;
  s.mean = 0.0;
  s.std = 0.6;
  s.scale = 0.6;
  s.drift = 0.012;  // 2 % of the scale, but only 1.2 standard errors
  s.drift_uncertainty = 0.01;
  s.slope_first_half = s.slope_second_half = 0.001;
  s.std_first_half = s.std_second_half = 0.6;
  WindowFacts w;
  w.start_time = 15;
  w.end_time = 30;
  w.requested = 15;
  w.samples = 1000;
  w.periodic = true;
  const ConvergenceVerdict v = judge_convergence({{"cl", s}}, w);
  EXPECT_FALSE(v.converged);
  ASSERT_TRUE(v.longer_window.has_value());
  EXPECT_DOUBLE_EQ(*v.longer_window, 30.0);
  ASSERT_TRUE(v.more_convective_times.has_value());
  EXPECT_DOUBLE_EQ(*v.more_convective_times, 15.0);
  // Resolved (5 standard errors) and not falling: one more window, the same window length.
  s.drift_uncertainty = 0.0024;
  const ConvergenceVerdict r = judge_convergence({{"cl", s}}, w);
  EXPECT_FALSE(r.converged);
  EXPECT_FALSE(r.longer_window.has_value());
  EXPECT_DOUBLE_EQ(r.more_convective_times.value_or(0), 15.0);
  // Under 1 % of the scale: converged, however noisy (a periodic run's spread is its oscillation).
  s.drift = 0.005;
  EXPECT_TRUE(judge_convergence({{"cl", s}}, w).converged);
}

TEST(ConvergenceVerdict, WindowReachingBackToTheStartIsNotConverged) {
  const auto t = times(0.01, 0.4, 0.01);
  const auto c = sample(t, [](double) { return 0.2; });
  const WindowAnalysis a = analyse_window(history(t, c, c), 2, 4);
  EXPECT_FALSE(a.convergence.converged);
  ASSERT_FALSE(a.convergence.reasons.empty());
  EXPECT_NE(a.convergence.reasons[0].find("includes the start"), std::string::npos) << a.convergence.reasons[0];
  const WindowAnalysis few = analyse_window(history({1, 2, 3}, {1, 1, 1}, {1, 1, 1}), 2, 2);
  EXPECT_FALSE(few.convergence.converged);
  // A repeated sample is left out rather than ending the run in an exception.
  auto twice = history(times(8, 12, 0.01), sample(times(8, 12, 0.01), [](double) { return 0.2; }),
                       sample(times(8, 12, 0.01), [](double) { return 0.2; }));
  twice.insert(twice.begin() + 10, twice[10]);
  const WindowAnalysis dup = analyse_window(twice, 2, 4);
  EXPECT_EQ(dup.window.samples, int(twice.size()) - 1);
  EXPECT_TRUE(dup.convergence.converged);
}

TEST(WindowAnalysis, SummaryJsonKeepsTheStrouhalNullForASteadyLift) {
  const auto t = times(8, 12, 0.01);
  const auto c = sample(t, [](double) { return 0.2; });
  auto w = history(t, c, c);
  for (auto& s : w) s.cpitch = -0.01;  // a 3D body's pitching moment; roll and yaw absent
  const WindowAnalysis a = analyse_window(w, 3, 4);
  ASSERT_EQ(a.coefficients.size(), 4u);  // cd, cl, cs, cpitch
  EXPECT_EQ(a.coefficients[3].first, "cpitch");
  Json co = Json::object();
  add_window_analysis(co, a);
  const std::string text = co.dump(0);
  EXPECT_NE(text.find("\"strouhal_spectrum\":{\"strouhal\":null"), std::string::npos) << text;
  EXPECT_NE(text.find("\"converged\":true"), std::string::npos) << text;
  EXPECT_NE(text.find("\"cpitch\":{\"samples\":"), std::string::npos) << text;
  EXPECT_NE(statistics_line(a).find("no Strouhal number (steady lift"), std::string::npos) << statistics_line(a);
}

}  // namespace
}  // namespace aerolbm
