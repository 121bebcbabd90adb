#include <cmath>

#include "src/compare/report.hpp"

namespace aerolbm {
namespace {

Json opt(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json field_results(const std::vector<FieldResult>& results) {
  Json fields = Json::object();
  for (const auto& r : results) {
    Json e = Json::object();
    e.set("rel_l2", r.error.rel_l2);
    e.set("max_abs", r.error.max_abs);
    e.set("max_at", r.error.max_at >= 0 ? Json(Json::Array{Json(r.max_at[0]), Json(r.max_at[1]), Json(r.max_at[2])})
                                        : Json(nullptr));
    e.set("reference_max", r.error.ref_max);
    e.set("points", r.error.points);
    fields.set(r.field, e);
  }
  return fields;
}

Json mean_json(const RunFolder& r) {
  if (!r.mean) return Json(nullptr);
  Json m = Json::object();
  m.set("samples", r.mean_samples);
  m.set("first_sample_time", r.mean_first_time);
  m.set("last_sample_time", r.mean_last_time);
  return m;
}

Json run_json(const RunFolder& r) {
  Json j = Json::object();
  j.set("folder", r.dir.string());
  j.set("case", r.case_name);
  j.set("backend", r.backend);
  j.set("device", r.device);
  j.set("lattice", r.lattice);
  j.set("precision", r.precision);
  j.set("steps", r.steps);
  j.set("wall_time_s", r.wall_time_s);
  j.set("mlups", r.mlups);
  if (r.has_fields) {
    Json g = Json::object();
    g.set("nx", r.grid.nx);
    g.set("ny", r.grid.ny);
    g.set("nz", r.grid.nz);
    g.set("spacing", r.grid.spacing[0]);
    g.set("frames", std::int64_t(r.frames.size()));
    j.set("grid", g);
  }
  return j;
}

}  // namespace

Json report_json(const Comparison& c, const ReportImages& images) {
  Json j = Json::object();
  j.set("reference", "A");
  Json runs = Json::object();
  runs.set("A", run_json(*c.a));
  runs.set("B", run_json(*c.b));
  j.set("runs", runs);

  Json t = Json::object();
  t.set("wall_time_s_A", c.a->wall_time_s);
  t.set("wall_time_s_B", c.b->wall_time_s);
  t.set("mlups_A", c.a->mlups);
  t.set("mlups_B", c.b->mlups);
  t.set("speedup_B_over_A", c.speedup);
  t.set("mlups_ratio_B_over_A", c.mlups_ratio);
  j.set("timing", t);

  Json g = Json::object();
  g.set("fields_compared", c.fields_compared);
  g.set("same_grid", c.grid.same_grid);
  g.set("interpolated", c.fields_compared && !c.grid.same_grid);
  g.set("comparison_grid", c.grid.coarse == 0 ? "A" : "B");
  g.set("note", c.fields_note);
  j.set("grid", g);

  Json frames = Json::array();
  for (const auto& f : c.frames) {
    Json fj = Json::object();
    fj.set("time_A", f.time_a);
    fj.set("time_B", f.time_b);
    fj.set("step_A", f.step_a);
    fj.set("step_B", f.step_b);
    fj.set("fields", field_results(f.fields));
    fj.set("mask_cells_differing", f.mask_cells_differing >= 0 ? Json(f.mask_cells_differing) : Json(nullptr));
    frames.push_back(fj);
  }
  j.set("frames", frames);

  Json levels = Json::array();
  for (const auto& l : c.levels) {
    Json lj = Json::object();
    lj.set("run", l.run);
    lj.set("level", std::int64_t(l.level));
    Json lg = Json::object();
    lg.set("nx", l.grid.nx);
    lg.set("ny", l.grid.ny);
    lg.set("nz", l.grid.nz);
    lg.set("spacing", l.grid.spacing[0]);
    lj.set("grid", lg);
    lj.set("own_points", l.own_points);
    lj.set("note", l.note);
    Json lf = Json::array();
    for (const auto& f : l.frames) {
      Json fj = Json::object();
      fj.set("time_A", f.time_a);
      fj.set("time_B", f.time_b);
      fj.set("fields", field_results(f.fields));
      lf.push_back(fj);
    }
    lj.set("frames", lf);
    levels.push_back(lj);
  }
  j.set("levels", levels);
  j.set("levels_note", c.levels_note);

  Json mf = Json::object();
  mf.set("compared", c.mean_compared);
  mf.set("note", c.mean_note);
  mf.set("A", mean_json(*c.a));
  mf.set("B", mean_json(*c.b));
  mf.set("fields", c.mean_compared ? field_results(c.mean.fields) : Json(nullptr));
  mf.set("mask_cells_differing",
         c.mean_compared && c.mean.mask_cells_differing >= 0 ? Json(c.mean.mask_cells_differing) : Json(nullptr));
  j.set("mean_fields", mf);

  Json co = Json::object();
  for (const auto& d : c.coefficients) {
    Json e = Json::object();
    e.set("A", opt(d.a));
    e.set("B", opt(d.b));
    e.set("diff", opt(d.diff));
    co.set(d.name, e);
  }
  j.set("coefficients", co);

  Json h = Json::object();
  h.set("samples", c.history.samples);
  h.set("interpolated_in_time", c.history.interpolated);
  h.set("max_abs_dcd", c.history.max_dcd);
  h.set("time_max_abs_dcd", c.history.time_max_dcd);
  h.set("max_abs_dcl", c.history.max_dcl);
  h.set("time_max_abs_dcl", c.history.time_max_dcl);
  j.set("force_history", h);

  Json tol = Json::object();
  tol.set("field_rel_l2", c.options.field_tol);
  tol.set("force_abs", c.options.force_tol);
  tol.set("strouhal_rel", c.options.strouhal_tol);
  tol.set("fail_above", c.options.fail_above ? Json(*c.options.fail_above) : Json(nullptr));
  j.set("tolerances", tol);
  Json le = Json::object();
  le.set("value", c.largest_error);
  le.set("what", c.largest_what);
  j.set("largest_error", le);
  Json v = Json::object();
  v.set("agree", c.agree);
  v.set("text", c.verdict);
  j.set("verdict", v);
  Json w = Json::array();
  for (const auto& s : c.warnings) w.push_back(s);
  j.set("warnings", w);
  Json im = Json::array();
  for (const auto& s : images.files) im.push_back(s);
  j.set("images", im);
  j.set("images_note", images.note);
  return j;
}

}  // namespace aerolbm
