#include "src/compare/level_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace aerolbm {
namespace {

std::string grid_text(const FieldGrid& g) {
  char buf[96];
  if (g.nz > 1)
    std::snprintf(buf, sizeof buf, "%lld × %lld × %lld, spacing %g", (long long)g.nx, (long long)g.ny,
                  (long long)g.nz, g.spacing[0]);
  else
    std::snprintf(buf, sizeof buf, "%lld × %lld, spacing %g", (long long)g.nx, (long long)g.ny, g.spacing[0]);
  return buf;
}

}  // namespace

bool OwnRegion::contains(const FieldGrid& g, std::int64_t p) const {
  const std::int64_t idx[3] = {p % g.nx, (p / g.nx) % g.ny, p / (g.nx * g.ny)};
  for (int a = 0; a < dims; ++a) {
    const double x = g.coord(a, idx[a]);
    if (x < lo[a] || x > hi[a]) return false;
  }
  return true;
}

OwnRegion own_region(const FieldGrid& level, const FieldGrid& top) {
  OwnRegion r;
  r.dims = top.nz > 1 ? 3 : 2;
  for (int a = 0; a < r.dims; ++a) {
    // The band lies inside the domain: a side whose face is the domain's (within a quarter of a cell) has none.
    const double h = level.spacing[a];
    const bool band_lo = level.lower(a) > top.lower(a) + 0.25 * h;
    const bool band_hi = level.upper(a) < top.upper(a) - 0.25 * h;
    r.lo[a] = level.lower(a) + (band_lo ? 2.0 * h : 0.0);
    r.hi[a] = level.upper(a) - (band_hi ? 2.0 * h : 0.0);
  }
  return r;
}

Resampled sample_finest(const RunFolder& run, double time, double tol, const std::string& field, int components,
                        const FieldGrid& to) {
  Resampled out;
  out.values.assign(std::size_t(to.points()) * components, 0.0f);
  out.valid.assign(std::size_t(to.points()), 0);
  std::vector<std::uint8_t> taken(std::size_t(to.points()), 0);
  for (int m = int(run.levels.size()); m >= 0; --m) {
    const RunFolder& g = m == 0 ? run : *run.levels[std::size_t(m - 1)];
    const FrameEntry* f = frame_at(g, time, tol);
    if (!f || !has_field(*f, field)) continue;
    const OwnRegion own = own_region(g.grid, run.grid);
    const std::vector<float> mask = has_field(*f, "mask") ? read_field(g, *f, "mask") : std::vector<float>{};
    const Resampled s = resample(g.grid, read_field(g, *f, field), components, mask, to);
    for (std::int64_t p = 0; p < to.points(); ++p) {
      if (taken[std::size_t(p)]) continue;
      // A point this grid owns is this grid's to give, valid or not (next to a solid cell it is left out).
      if (m > 0 && !own.contains(to, p)) continue;
      taken[std::size_t(p)] = 1;
      if (!s.valid[std::size_t(p)]) continue;
      out.valid[std::size_t(p)] = 1;
      for (int k = 0; k < components; ++k)
        out.values[std::size_t(p) * components + k] = s.values[std::size_t(p) * components + k];
    }
  }
  return out;
}

std::vector<LevelComparison> compare_levels(const RunFolder& a, const RunFolder& b,
                                            const std::vector<std::pair<double, double>>& times, double tol) {
  std::vector<LevelComparison> out;
  const bool a_ref = !a.levels.empty();
  const RunFolder& ref = a_ref ? a : b;
  const RunFolder& other = a_ref ? b : a;
  const std::string ref_name = a_ref ? "A" : "B", other_name = a_ref ? "B" : "A";
  for (std::size_t l = 0; l < ref.levels.size(); ++l) {
    const RunFolder& level = *ref.levels[l];
    LevelComparison lc;
    lc.run = ref_name;
    lc.level = int(l) + 1;
    lc.grid = level.grid;
    const OwnRegion own = own_region(level.grid, ref.grid);
    std::optional<OwnRegion> next;
    if (l + 1 < ref.levels.size()) next = own_region(ref.levels[l + 1]->grid, ref.grid);
    std::vector<std::uint8_t> region(std::size_t(level.grid.points()), 0);
    for (std::int64_t p = 0; p < level.grid.points(); ++p) {
      region[std::size_t(p)] = own.contains(level.grid, p) && !(next && next->contains(level.grid, p));
      lc.own_points += region[std::size_t(p)];
    }
    lc.note = "Level " + std::to_string(lc.level) + " of " + ref_name + " (" + grid_text(level.grid) + "): its own " +
              "cells" + (next ? " not under level " + std::to_string(lc.level + 1) + "'s box" : "") + ", against " +
              other_name + "'s " +
              (other.levels.empty() ? "grid (" + grid_text(other.grid) + ")"
                                    : "finest level at each point") +
              ", interpolated to this level's cell centres where the points differ.";
    for (const auto& [time_a, time_b] : times) {
      const double t_ref = a_ref ? time_a : time_b, t_other = a_ref ? time_b : time_a;
      const FrameEntry* fl = frame_at(level, t_ref, tol);
      if (!fl) continue;
      FrameResult fr;
      fr.time_a = time_a;
      fr.time_b = time_b;
      fr.step_a = fr.step_b = -1;
      std::vector<std::uint8_t> valid = region;
      if (has_field(*fl, "mask")) {
        const std::vector<float> mask = read_field(level, *fl, "mask");
        for (std::size_t p = 0; p < valid.size(); ++p) valid[p] = valid[p] && mask[p] == 0.0f;
      }
      for (const std::string& name : compared_field_names()) {
        if (!has_field(*fl, name)) continue;
        const int comps = field_components(level, *fl, name);
        const std::vector<float> mine = read_field(level, *fl, name);
        Resampled theirs = sample_finest(other, t_other, tol, name, comps, level.grid);
        if (std::none_of(theirs.valid.begin(), theirs.valid.end(), [](std::uint8_t v) { return v != 0; })) continue;
        std::vector<std::uint8_t> ok = valid;
        for (std::size_t p = 0; p < ok.size(); ++p) ok[p] = ok[p] && theirs.valid[p];
        FieldResult r;
        r.field = name;
        r.error = a_ref ? field_error(mine, theirs.values, comps, ok) : field_error(theirs.values, mine, comps, ok);
        if (r.error.max_at >= 0) {
          const std::int64_t p = r.error.max_at;
          const FieldGrid& g = level.grid;
          r.max_at = {g.coord(0, p % g.nx), g.coord(1, (p / g.nx) % g.ny), g.coord(2, p / (g.nx * g.ny))};
        }
        fr.fields.push_back(r);
      }
      lc.frames.push_back(std::move(fr));
    }
    out.push_back(std::move(lc));
  }
  return out;
}

}  // namespace aerolbm
