#include "src/compare/comparison.hpp"

#include "src/compare/level_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace aerolbm {
namespace {

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void case_warnings(const RunFolder& a, const RunFolder& b, std::vector<std::string>& w) {
  const auto num = [&](const char* what, double x, double y) {
    if (std::abs(x - y) > 1e-9 * std::max(1.0, std::abs(x)))
      w.push_back(std::string("the cases differ in ") + what + ": " + sci(x) + " (A) vs " + sci(y) + " (B)");
  };
  num("Reynolds number", a.reynolds, b.reynolds);
  num("Mach number", a.mach, b.mach);
  num("angle of attack (degrees)", a.angle_of_attack_deg, b.angle_of_attack_deg);
  num("run length (convective times)", a.convective_times, b.convective_times);
  if (a.case_name != b.case_name) w.push_back("the case names differ: " + a.case_name + " (A) vs " + b.case_name + " (B)");
  if (a.precision != b.precision) w.push_back("the storage precisions differ: " + a.precision + " (A) vs " + b.precision + " (B)");
}

// One frame: every field both runs wrote (the mask only as a count of differing cells), on the comparison grid.
FrameResult compare_frame(const RunFolder& a, const FrameEntry& fa, const RunFolder& b, const FrameEntry& fb,
                          const GridMatch& gm, ErrorMaps* maps) {
  FrameResult r;
  r.step_a = fa.step;
  r.step_b = fb.step;
  r.time_a = fa.time;
  r.time_b = fb.time;
  const bool masks = has_field(fa, "mask") && has_field(fb, "mask");
  const std::vector<float> ma = masks ? read_field(a, fa, "mask") : std::vector<float>{};
  const std::vector<float> mb = masks ? read_field(b, fb, "mask") : std::vector<float>{};
  const RunFolder& coarse = gm.coarse == 0 ? a : b;
  const FieldGrid& grid = coarse.grid;
  std::vector<std::uint8_t> valid(grid.points(), 1);
  if (gm.same_grid && masks) {
    r.mask_cells_differing = 0;
    for (std::size_t p = 0; p < valid.size(); ++p) {
      valid[p] = ma[p] == 0.0f && mb[p] == 0.0f;
      r.mask_cells_differing += ma[p] != mb[p];
    }
  } else if (masks) {
    const auto& mc = gm.coarse == 0 ? ma : mb;
    for (std::size_t p = 0; p < valid.size(); ++p) valid[p] = mc[p] == 0.0f;
  }
  if (maps) {
    maps->present = true;
    maps->grid = grid;
    maps->time = fa.time;
    maps->fields.clear();
    maps->diffs.clear();
  }
  for (const std::string& name : compared_field_names()) {
    if (!has_field(fa, name) || !has_field(fb, name)) continue;
    const int comps = field_components(a, fa, name);
    if (field_components(b, fb, name) != comps) continue;
    std::vector<float> va = read_field(a, fa, name), vb = read_field(b, fb, name);
    std::vector<std::uint8_t> ok = valid;
    if (!gm.same_grid) {
      // Sample the finer run at the coarser run's points.
      const bool a_fine = gm.coarse == 1;
      Resampled s = resample(a_fine ? a.grid : b.grid, a_fine ? va : vb, comps, a_fine ? ma : mb, grid);
      (a_fine ? va : vb) = std::move(s.values);
      for (std::size_t p = 0; p < ok.size(); ++p) ok[p] = ok[p] && s.valid[p];
    }
    FieldResult fr;
    fr.field = name;
    std::vector<float> diff;
    fr.error = field_error(va, vb, comps, ok, maps ? &diff : nullptr);
    if (fr.error.max_at >= 0) {
      const std::int64_t p = fr.error.max_at;
      fr.max_at = {grid.coord(0, p % grid.nx), grid.coord(1, (p / grid.nx) % grid.ny),
                   grid.coord(2, p / (grid.nx * grid.ny))};
    }
    r.fields.push_back(fr);
    if (maps) {
      maps->fields.emplace_back(name, comps);
      maps->diffs.push_back(std::move(diff));
      maps->valid = ok;
    }
  }
  return r;
}

// Cd and Cl histories: B sampled at A's times (linear in time where the sample times differ).
HistoryDiff compare_history(const ForcesTable& a, const ForcesTable& b) {
  HistoryDiff h;
  if (a.time.empty() || b.time.empty()) return h;
  h.interpolated = a.time.size() != b.time.size();
  for (std::size_t k = 0; !h.interpolated && k < a.time.size(); ++k)
    h.interpolated = std::abs(a.time[k] - b.time[k]) > 1e-9 * std::max(1.0, a.time[k]);
  std::size_t j = 0;
  for (std::size_t k = 0; k < a.time.size(); ++k) {
    const double t = a.time[k];
    double cd, cl;
    if (!h.interpolated) {
      cd = b.cd[k];
      cl = b.cl[k];
    } else {
      if (t < b.time.front() || t > b.time.back()) continue;
      while (j + 1 < b.time.size() && b.time[j + 1] < t) ++j;
      const std::size_t j1 = std::min(j + 1, b.time.size() - 1);
      const double span = b.time[j1] - b.time[j];
      const double w = span > 0 ? (t - b.time[j]) / span : 0.0;
      cd = b.cd[j] + w * (b.cd[j1] - b.cd[j]);
      cl = b.cl[j] + w * (b.cl[j1] - b.cl[j]);
    }
    ++h.samples;
    const double dcd = std::abs(cd - a.cd[k]), dcl = std::abs(cl - a.cl[k]);
    if (dcd > h.max_dcd || std::isnan(dcd)) h.max_dcd = dcd, h.time_max_dcd = t;
    if (dcl > h.max_dcl || std::isnan(dcl)) h.max_dcl = dcl, h.time_max_dcl = t;
  }
  return h;
}

bool exceeds(double value, double tol) { return !(value <= tol); }  // NaN exceeds every tolerance

bool is_rms(const std::string& field) { return field.ends_with("_rms"); }

std::string mean_window(const RunFolder& r) {
  return std::to_string(r.mean_samples) + " samples, t = " + sci(r.mean_first_time) + " to " +
         sci(r.mean_last_time);
}

// The mean frames of two runs (RUN/mean/), when both have one.
void compare_means(const RunFolder& a, const RunFolder& b, Comparison& c) {
  if (!a.mean || !b.mean) {
    c.mean_note = std::string("mean fields not compared: ") +
                  (a.mean ? "B has" : b.mean ? "A has" : "A and B have") +
                  " no mean/fields.h5 (output.averages.enabled false, or no hdf5 format)";
    return;
  }
  const GridMatch gm = match_grids(*a.mean, *b.mean);
  c.mean = compare_frame(*a.mean, a.mean->frames.front(), *b.mean, b.mean->frames.front(), gm, nullptr);
  c.mean_compared = true;
  c.mean_note = "mean fields of A (" + mean_window(a) + ") and B (" + mean_window(b) + "). " + gm.note;
  const double tol = std::max(0.5 * std::max(a.dt, b.dt), 1e-9);
  if (std::abs(a.mean_first_time - b.mean_first_time) > tol || std::abs(a.mean_last_time - b.mean_last_time) > tol)
    c.warnings.push_back("the mean fields average different windows: A " + mean_window(a) + ", B " + mean_window(b));
}

}  // namespace

Comparison compare_runs(const RunFolder& a, const RunFolder& b, const CompareOptions& options) {
  Comparison c;
  c.a = &a;
  c.b = &b;
  c.options = options;
  case_warnings(a, b, c.warnings);
  c.speedup = b.wall_time_s > 0 ? a.wall_time_s / b.wall_time_s : 0.0;
  c.mlups_ratio = a.mlups > 0 ? b.mlups / a.mlups : 0.0;

  if (a.has_fields && b.has_fields) {
    c.grid = match_grids(a, b);
    const double tol = std::max(0.5 * std::max(a.dt, b.dt), 1e-9);
    std::vector<std::pair<const FrameEntry*, const FrameEntry*>> pairs;
    for (const auto& fa : a.frames)
      if (const FrameEntry* fb = frame_at(b, fa.time, tol)) pairs.emplace_back(&fa, fb);
    for (std::size_t k = 0; k < pairs.size(); ++k)
      c.frames.push_back(compare_frame(a, *pairs[k].first, b, *pairs[k].second, c.grid,
                                       k + 1 == pairs.size() ? &c.maps : nullptr));
    c.fields_compared = !c.frames.empty();
    c.fields_note = c.grid.note;
    if (!a.levels.empty() || !b.levels.empty()) {
      c.fields_note += " A refined run's frames here are level 0's grid, the cells under a box holding the mean of "
                       "their children; its levels are compared at their own resolution below.";
      std::vector<std::pair<double, double>> times;
      for (const auto& [fa, fb] : pairs) times.emplace_back(fa->time, fb->time);
      c.levels = compare_levels(a, b, times, tol);
      c.levels_note = std::string(!a.levels.empty() && !b.levels.empty() ? "Both runs are refined: A's levels are "
                                                                            "compared, against B's finest level at "
                                                                            "each point. "
                                                                          : "") +
                      "Each point is compared once, at the finest level of " + (a.levels.empty() ? "B" : "A") +
                      " that owns it; relative L2 over those points, B against A.";
    }
    if (pairs.empty())
      c.warnings.push_back("no common frame times (A has " + std::to_string(a.frames.size()) + " frames, B " +
                           std::to_string(b.frames.size()) + "): fields not compared. Use output.every with the "
                           "same output times in both runs.");
    else if (pairs.size() < std::max(a.frames.size(), b.frames.size()))
      c.warnings.push_back(std::to_string(pairs.size()) + " common frame times of " + std::to_string(a.frames.size()) +
                           " (A) and " + std::to_string(b.frames.size()) + " (B); the others are not compared");
  } else {
    c.fields_note = std::string("fields not compared: ") + (a.has_fields ? "B" : "A") +
                    (a.has_fields || b.has_fields ? " has" : " and B have") + " no fields.h5 (output.every 0 or no hdf5 format)";
  }

  compare_means(a, b, c);

  const auto coef = [&](const char* name, const std::optional<double>& x, const std::optional<double>& y) {
    CoefficientDiff d{name, x, y, std::nullopt};
    if (x && y) d.diff = *y - *x;
    c.coefficients.push_back(d);
  };
  coef("cd_mean", a.cd_mean, b.cd_mean);
  coef("cl_mean", a.cl_mean, b.cl_mean);
  coef("cd_final", a.cd_final, b.cd_final);
  coef("cl_final", a.cl_final, b.cl_final);
  coef("strouhal", a.strouhal, b.strouhal);
  coef("cpitch_mean", a.cpitch_mean, b.cpitch_mean);
  c.history = compare_history(a.forces, b.forces);

  // Verdict and the largest error (what --fail-above checks): field relative L2 errors, Cd/Cl differences.
  std::vector<std::string> fails;
  c.largest_error = 0;
  const auto consider = [&](double value, const std::string& what) {
    if (exceeds(value, c.largest_error) && !std::isnan(c.largest_error)) {
      c.largest_error = value;
      c.largest_what = what;
    }
  };
  for (const auto& f : c.frames)
    for (const auto& r : f.fields) {
      const std::string what = r.field + " relative L2 at t = " + sci(f.time_a);
      consider(r.error.rel_l2, what);
      if (exceeds(r.error.rel_l2, options.field_tol)) fails.push_back(what + ": " + sci(r.error.rel_l2));
    }
  for (const auto& l : c.levels)
    for (const auto& f : l.frames)
      for (const auto& r : f.fields) {
        const std::string what = "level " + std::to_string(l.level) + " " + r.field + " relative L2 at t = " +
                                 sci(f.time_a);
        consider(r.error.rel_l2, what);
        if (exceeds(r.error.rel_l2, options.field_tol)) fails.push_back(what + ": " + sci(r.error.rel_l2));
      }
  for (const auto& r : c.mean.fields) {
    if (is_rms(r.field)) continue;
    const std::string what = "mean " + r.field + " relative L2";
    consider(r.error.rel_l2, what);
    if (exceeds(r.error.rel_l2, options.field_tol)) fails.push_back(what + ": " + sci(r.error.rel_l2));
  }
  for (const auto& d : c.coefficients) {
    if (d.name == "strouhal") {
      if (d.a.has_value() != d.b.has_value()) fails.push_back("Strouhal: one run oscillates, the other is steady");
      else if (d.diff && exceeds(std::abs(*d.diff), options.strouhal_tol * std::abs(*d.a)))
        fails.push_back("Strouhal: relative difference " + sci(std::abs(*d.diff / *d.a)));
      continue;
    }
    if (!d.a || !d.b) continue;
    const double v = std::abs(*d.diff);
    consider(v, "|Δ" + d.name + "|");
    if (exceeds(v, options.force_tol)) fails.push_back("|Δ" + d.name + "| " + sci(v));
  }
  c.agree = fails.empty();
  std::string tol = "tolerances: fields relative L2 ≤ " + sci(options.field_tol) + ", |ΔCd|, |ΔCl|, |ΔCm| ≤ " +
                    sci(options.force_tol) + ", Strouhal within " + pct(options.strouhal_tol * 100) + " %";
  if (c.agree) {
    c.verdict = "AGREE: " + std::string(c.fields_compared ? "every field at " + std::to_string(c.frames.size()) +
                                                                " common frames and " : "") +
                (c.levels.empty() ? "" : "on " + std::to_string(c.levels.size()) + " refined level(s), ") +
                (c.mean_compared ? "the mean fields and " : "") +
                "the force coefficients are within the " + tol + " (largest error " + sci(c.largest_error) +
                (c.largest_what.empty() ? "" : ", " + c.largest_what) + ")";
  } else {
    c.verdict = "DIFFER: " + std::to_string(fails.size()) + " figure(s) outside the " + tol + ": " + fails.front();
    for (std::size_t k = 1; k < std::min<std::size_t>(fails.size(), 4); ++k) c.verdict += "; " + fails[k];
    if (fails.size() > 4) c.verdict += "; ...";
  }
  return c;
}

}  // namespace aerolbm
