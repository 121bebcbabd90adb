#include <cmath>
#include <cstdio>

#include "src/compare/report.hpp"

namespace aerolbm {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::string sci(double v) { return fmt("%.3e", v); }
std::string num(const std::optional<double>& v, const char* f = "%.6f") { return v ? fmt(f, *v) : "—"; }

// A field's cells of a table row, from its name on: "field | rel. L2 | max abs | max at | max abs of A | points |\n"
// (the frames' table puts the time before it).
std::string field_cells(const FieldResult& r) {
  std::string where = "—";
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "(" + std::string at -O3.
  if (r.error.max_at >= 0) {
    where = fmt("(%.3f, ", r.max_at[0]);
    where += fmt("%.3f)", r.max_at[1]);
  }
  return r.field + " | " + sci(r.error.rel_l2) + " | " + sci(r.error.max_abs) + " | " + where + " | " +
         sci(r.error.ref_max) + " | " + std::to_string(r.error.points) + " |\n";
}

std::string run_line(const char* label, const RunFolder& r) {
  std::string s = std::string("| ") + label + " | `" + r.dir.string() + "` | " + r.backend + " (" + r.device + ") | " +
                  r.lattice + " " + r.precision + " | ";
  s += r.has_fields ? std::to_string(r.grid.nx) + " × " + std::to_string(r.grid.ny) +
                          (r.grid.nz > 1 ? " × " + std::to_string(r.grid.nz) : "")
                    : "no fields";
  s += " | " + std::to_string(r.steps) + " | " + fmt("%.3f", r.wall_time_s) + " | " + fmt("%.1f", r.mlups) + " |\n";
  return s;
}

}  // namespace

std::string report_markdown(const Comparison& c, const ReportImages& images) {
  std::string m;
  m += "# aerolbm compare: " + c.a->case_name + (c.b->case_name != c.a->case_name ? " vs " + c.b->case_name : "") + "\n\n";
  m += "**Verdict.** " + c.verdict + "\n\n";
  m += "Run A is the reference: errors are those of B against A.\n\n";
  m += "| run | folder | backend (device) | lattice | grid | steps | wall time (s) | MLUPs |\n";
  m += "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  m += run_line("A", *c.a);
  m += run_line("B", *c.b);
  m += "\n**Speed-up** of B over A: " + fmt("%.2f", c.speedup) + "× in wall time, " + fmt("%.2f", c.mlups_ratio) +
       "× in MLUPs (wall time includes output).\n\n";

  if (!c.warnings.empty()) {
    m += "**Warnings.**\n\n";
    for (const auto& w : c.warnings) m += "- " + w + "\n";
    m += "\n";
  }

  m += "## Fields\n\n" + c.fields_note + "\n\n";
  if (c.fields_compared) {
    m += "Relative L2 error ‖b − a‖₂ / ‖a‖₂ and largest pointwise difference |b − a| (vectors: length of the "
         "difference), over fluid points; position in reference lengths from the body pivot.\n\n";
    m += "| time | field | rel. L2 | max abs | max at (x, y) | max abs of A | points |\n";
    m += "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const auto& f : c.frames) {
      for (const auto& r : f.fields) m += "| " + fmt("%.4g", f.time_a) + " | " + field_cells(r);
      if (f.mask_cells_differing > 0)
        m += "| " + fmt("%.4g", f.time_a) + " | mask | " + std::to_string(f.mask_cells_differing) +
             " cells differ | | | | |\n";
    }
    m += "\n";
  }

  if (!c.levels.empty()) {
    m += "## Refined levels\n\n" + c.levels_note + "\n\n";
    for (const auto& l : c.levels) {
      m += "**Level " + std::to_string(l.level) + "** (" + std::to_string(l.own_points) + " points). " + l.note +
           "\n\n";
      m += "| time | field | rel. L2 | max abs | max at (x, y) | max abs of A | points |\n";
      m += "| --- | --- | --- | --- | --- | --- | --- |\n";
      for (const auto& f : l.frames)
        for (const auto& r : f.fields) m += "| " + fmt("%.4g", f.time_a) + " | " + field_cells(r);
      m += "\n";
    }
  }

  m += "## Mean fields\n\n" + c.mean_note + "\n\n";
  if (c.mean_compared) {
    m += "Time averages (`velocity`, `pressure`: in the verdict) and RMS fluctuations (`velocity_rms`, "
         "`pressure_rms`: reported only) over the averaging window, errors as above.\n\n";
    m += "| field | rel. L2 | max abs | max at (x, y) | max abs of A | points |\n";
    m += "| --- | --- | --- | --- | --- | --- |\n";
    for (const auto& r : c.mean.fields) m += "| " + field_cells(r);
    if (c.mean.mask_cells_differing > 0)
      m += "| mask | " + std::to_string(c.mean.mask_cells_differing) + " cells differ | | | | |\n";
    m += "\n";
  }

  m += "## Forces\n\n";
  m += "| coefficient | A | B | B − A |\n| --- | --- | --- | --- |\n";
  for (const auto& d : c.coefficients)
    m += "| " + d.name + " | " + num(d.a) + " | " + num(d.b) + " | " + num(d.diff, "%.3e") + " |\n";
  m += "\nForce history (forces.csv), " + std::to_string(c.history.samples) + " samples" +
       (c.history.interpolated ? " (B interpolated linearly to A's times)" : "") + ": max |ΔCd| " +
       sci(c.history.max_dcd) + " at t = " + fmt("%.4g", c.history.time_max_dcd) + ", max |ΔCl| " +
       sci(c.history.max_dcl) + " at t = " + fmt("%.4g", c.history.time_max_dcl) + ".\n\n";

  m += "## Tolerances\n\n";
  m += "Fields: relative L2 ≤ " + sci(c.options.field_tol) + "; Cd and Cl (mean and final): |B − A| ≤ " +
       sci(c.options.force_tol) + "; Strouhal: relative difference ≤ " + sci(c.options.strouhal_tol) + ".\n";
  m += "Largest error: " + sci(c.largest_error) + (c.largest_what.empty() ? "" : " (" + c.largest_what + ")");
  if (c.options.fail_above)
    m += "; --fail-above " + sci(*c.options.fail_above) +
         (!(c.largest_error <= *c.options.fail_above) ? ": **exceeded** (exit status 1)" : ": not exceeded");
  m += ".\n\n";

  m += "## Images\n\n";
  if (!images.note.empty()) m += images.note + "\n\n";
  for (const auto& f : images.files) m += "![" + f + "](" + f + ")\n\n";
  return m;
}

}  // namespace aerolbm
