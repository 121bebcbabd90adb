#include "src/solver/window_analysis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace aerolbm {

const CoefficientStatistics* WindowAnalysis::find(const std::string& name) const {
  for (const auto& [n, s] : coefficients)
    if (n == name) return &s;
  return nullptr;
}

WindowAnalysis analyse_window(const std::vector<CoefficientSample>& window, int dims, double requested) {
  WindowAnalysis a;
  a.window.requested = requested;
  std::vector<double> t, cd, cl, cs, croll, cyaw, cpitch, cdp, cdf;
  for (const auto& s : window) {
    // Strictly increasing times only (the spectrum needs them): a repeated sample would end a finished run in an
    // exception. None are expected; this keeps the end of a run safe from one.
    if (!t.empty() && !(s.time > t.back())) continue;
    t.push_back(s.time);
    cd.push_back(s.cd);
    cl.push_back(s.cl);
    cs.push_back(s.cs);
    croll.push_back(s.croll);
    cyaw.push_back(s.cyaw);
    cpitch.push_back(s.cpitch);
    cdp.push_back(s.cd_pressure);
    cdf.push_back(s.cd - s.cd_pressure);
  }
  a.window.samples = int(t.size());
  if (!t.empty()) {
    a.window.start_time = t.front();
    a.window.end_time = t.back();
  }
  if (t.size() >= 2) {
    std::vector<double> gaps;
    for (std::size_t k = 0; k + 1 < t.size(); ++k) gaps.push_back(t[k + 1] - t[k]);
    std::nth_element(gaps.begin(), gaps.begin() + std::ptrdiff_t(gaps.size() / 2), gaps.end());
    a.sample_interval = gaps[gaps.size() / 2];
  }
  a.lift = lift_spectrum(t, cl);
  a.window.periodic = a.lift.strouhal.has_value();
  const std::optional<double> period =
      a.lift.strouhal ? std::optional<double>(1.0 / *a.lift.strouhal) : std::nullopt;
  a.coefficients.emplace_back("cd", coefficient_statistics(t, cd, period));
  a.coefficients.emplace_back("cl", coefficient_statistics(t, cl, period));
  if (dims == 3) a.coefficients.emplace_back("cs", coefficient_statistics(t, cs, period));
  const std::pair<const char*, const std::vector<double>*> moments[] = {
      {"croll", &croll}, {"cyaw", &cyaw}, {"cpitch", &cpitch}};
  for (const auto& [name, v] : moments)
    if (std::any_of(v->begin(), v->end(), [](double x) { return std::isfinite(x); }))
      a.coefficients.emplace_back(name, coefficient_statistics(t, *v, period));
  // The drag's pressure and friction parts, when every sample of the window has them.
  if (!cdp.empty() && std::all_of(cdp.begin(), cdp.end(), [](double x) { return std::isfinite(x); })) {
    a.coefficients.emplace_back("cd_pressure", coefficient_statistics(t, cdp, period));
    a.coefficients.emplace_back("cd_friction", coefficient_statistics(t, cdf, period));
  }
  a.convergence = judge_convergence({a.coefficients[0], a.coefficients[1]}, a.window);
  return a;
}

void add_window_analysis(Json& co, const WindowAnalysis& a) {
  Json w = Json::object();
  w.set("start_time", a.window.start_time);
  w.set("end_time", a.window.end_time);
  w.set("samples", a.window.samples);
  w.set("sample_interval_convective_times", a.sample_interval);
  co.set("window", w);

  Json st = Json::object();
  for (const auto& [name, s] : a.coefficients) {
    Json c = Json::object();
    c.set("samples", s.samples);
    c.set("mean", s.mean);
    c.set("std", s.std);
    c.set("min", s.min);
    c.set("max", s.max);
    c.set("drift", s.drift);
    c.set("drift_uncertainty", s.drift_uncertainty);
    c.set("scale", s.scale);
    c.set("std_relative", s.std_relative());
    c.set("drift_relative", s.drift_relative());
    st.set(name, c);
  }
  co.set("statistics", st);

  Json sp = Json::object();
  sp.set("strouhal", a.lift.strouhal ? Json(*a.lift.strouhal) : Json(nullptr));
  sp.set("peak_frequency", a.lift.peak_frequency);
  sp.set("peak_to_background", a.lift.peak_to_background);
  sp.set("peak_fraction", a.lift.peak_fraction);
  sp.set("periods_in_window", a.lift.periods_in_window);
  sp.set("lift_std_detrended", a.lift.std_detrended);
  sp.set("verdict", a.lift.reason);
  co.set("strouhal_spectrum", sp);

  Json cv = Json::object();
  cv.set("converged", a.convergence.converged);
  Json reasons = Json::array();
  for (const auto& r : a.convergence.reasons) reasons.push_back(r);
  cv.set("reasons", reasons);
  cv.set("suggested_additional_convective_times",
         a.convergence.more_convective_times ? Json(*a.convergence.more_convective_times) : Json(nullptr));
  Json notes = Json::array();
  for (const auto& n : a.convergence.suggestion_notes) notes.push_back(n);
  cv.set("suggested_average_last",
         a.convergence.longer_window ? Json(*a.convergence.longer_window) : Json(nullptr));
  cv.set("suggestion_notes", notes);
  cv.set("criteria", "C_D and C_L: |drift| <= 1 % of the scale and, for a run without a Strouhal number, "
                     "std <= 1 % of the scale; scale = max(|mean|, 0.05), and >= std when periodic; drift = "
                     "least-squares slope x window length (of the one-period moving average when periodic)");
  co.set("convergence", cv);
}

std::string statistics_line(const WindowAnalysis& a) {
  std::string s = fmt::format("averaging window {:.3g}-{:.3g} ({} samples):", a.window.start_time, a.window.end_time,
                              a.window.samples);
  for (const auto& [name, c] : a.coefficients) {
    if (name != "cd" && name != "cl") continue;
    s += fmt::format(" {} {:.4f} ± {:.2g} (drift {:+.2f} %),", name == "cd" ? "Cd" : "Cl", c.mean, c.std,
                     100 * c.drift_relative());
  }
  if (a.lift.strouhal)
    s += fmt::format(" Strouhal {:.4f} ({:.1f} periods)", *a.lift.strouhal, a.lift.periods_in_window);
  else
    s += " no Strouhal number (" + a.lift.reason + ")";
  return s;
}

std::string verdict_line(const WindowAnalysis& a, const std::string& continue_hint) {
  if (a.convergence.converged)
    return a.window.periodic ? "the window is converged: periodic, its one-period mean drifts by at most 1 %"
                             : "the window is converged: steady, drift and fluctuations within 1 %";
  std::string s = "the window is NOT converged: ";
  for (std::size_t k = 0; k < a.convergence.reasons.size(); ++k)
    s += (k ? "; " : "") + a.convergence.reasons[k];
  s += ". ";
  if (a.convergence.more_convective_times)
    s += fmt::format("Run about {:g} more convective times", *a.convergence.more_convective_times);
  else
    s += "No longer run is suggested";
  if (!a.convergence.suggestion_notes.empty()) {
    s += " (";
    for (std::size_t k = 0; k < a.convergence.suggestion_notes.size(); ++k)
      s += (k ? "; " : "") + a.convergence.suggestion_notes[k];
    s += ")";
  }
  if (a.convergence.more_convective_times && !continue_hint.empty()) s += ": " + continue_hint;
  return s + ".";
}

}  // namespace aerolbm
