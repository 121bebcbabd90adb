#include "src/compare/grid_match.hpp"

#include <cmath>
#include <sstream>

#include "src/compare/input_error.hpp"

namespace aerolbm {
GridMatch match_grids(const RunFolder& a, const RunFolder& b) {
  const FieldGrid &ga = a.grid, &gb = b.grid;
  if (a.lattice != b.lattice || (ga.nz > 1) != (gb.nz > 1)) {
    throw CompareInputError("the runs use different lattices: " + a.dir.string() + " is " + a.lattice + " (nz " +
                            std::to_string(ga.nz) + "), " + b.dir.string() + " is " + b.lattice + " (nz " +
                            std::to_string(gb.nz) + "). Compare runs of the same lattice.stencil.");
  }
  const double h = std::max(ga.spacing[0], gb.spacing[0]);
  const int dims = ga.nz > 1 ? 3 : 2;
  for (int ax = 0; ax < dims; ++ax) {
    if (std::abs(ga.lower(ax) - gb.lower(ax)) > 0.5 * h || std::abs(ga.upper(ax) - gb.upper(ax)) > 0.5 * h) {
      std::ostringstream m;
      m << "the runs cover different domains: along " << "xyz"[ax] << " " << a.dir.string() << " spans ["
        << ga.lower(ax) << ", " << ga.upper(ax) << "] and " << b.dir.string() << " spans [" << gb.lower(ax)
        << ", " << gb.upper(ax) << "] reference lengths (body pivot at 0). Compare runs with the same "
        << "domain.size_chords and domain.body_position_chords.";
      throw CompareInputError(m.str());
    }
  }
  GridMatch m;
  const bool same_spacing = std::abs(ga.spacing[0] - gb.spacing[0]) <= 1e-9 * h;
  m.same_grid = same_spacing && ga.nx == gb.nx && ga.ny == gb.ny && ga.nz == gb.nz;
  if (m.same_grid) {
    m.note = "Both runs have the same grid (" + std::to_string(ga.nx) + " x " + std::to_string(ga.ny) +
             (dims == 3 ? " x " + std::to_string(ga.nz) : "") + "): fields are compared point by point.";
    return m;
  }
  m.coarse = ga.spacing[0] >= gb.spacing[0] ? 0 : 1;
  const FieldGrid& c = m.coarse == 0 ? ga : gb;
  const FieldGrid& f = m.coarse == 0 ? gb : ga;
  std::ostringstream n;
  n << "The runs have different resolutions (spacing " << ga.spacing[0] << " and " << gb.spacing[0]
    << " reference lengths): the finer run (" << (m.coarse == 0 ? "B" : "A") << ", " << f.nx << " x " << f.ny
    << ") is interpolated " << (dims == 3 ? "trilinearly" : "bilinearly") << " onto the cell centres of the coarser ("
    << (m.coarse == 0 ? "A" : "B") << ", " << c.nx << " x " << c.ny
    << "); points whose interpolation touches a solid cell are left out.";
  m.note = n.str();
  return m;
}

Resampled resample(const FieldGrid& from, const std::vector<float>& values, int components,
                   const std::vector<float>& from_mask, const FieldGrid& to) {
  Resampled r;
  const std::int64_t n = to.points();
  r.values.assign(std::size_t(n) * components, 0.0f);
  r.valid.assign(std::size_t(n), 0);
  const int dims = from.nz > 1 ? 3 : 2;
  const std::int64_t stride[3] = {1, from.nx, from.nx * from.ny};
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < n; ++p) {
    const std::int64_t idx[3] = {p % to.nx, (p / to.nx) % to.ny, p / (to.nx * to.ny)};
    std::int64_t i0[3] = {0, 0, 0};
    double t[3] = {0, 0, 0};
    bool inside = true;
    for (int a = 0; a < dims && inside; ++a) {
      const double s = (to.coord(a, idx[a]) - from.origin[a]) / from.spacing[a];
      const double eps = 1e-9;
      if (s < -eps || s > double(from.size(a) - 1) + eps) inside = false;
      const double sc = std::min(std::max(s, 0.0), double(from.size(a) - 1));
      i0[a] = std::min<std::int64_t>(std::int64_t(std::floor(sc)), std::max<std::int64_t>(0, from.size(a) - 2));
      t[a] = from.size(a) > 1 ? sc - double(i0[a]) : 0.0;
    }
    if (!inside) continue;
    double acc[3] = {0, 0, 0};
    bool fluid = true;
    const int corners = dims == 3 ? 8 : 4;
    for (int c = 0; c < corners; ++c) {
      double w = 1;
      std::int64_t q = 0;
      for (int a = 0; a < dims; ++a) {
        const int hi = (c >> a) & 1;
        w *= hi ? t[a] : 1 - t[a];
        q += (i0[a] + hi) * stride[a];
      }
      if (w <= 0) continue;
      if (!from_mask.empty() && from_mask[q] != 0.0f) fluid = false;
      for (int k = 0; k < components; ++k) acc[k] += w * values[std::size_t(q) * components + k];
    }
    if (!fluid) continue;
    for (int k = 0; k < components; ++k) r.values[std::size_t(p) * components + k] = float(acc[k]);
    r.valid[p] = 1;
  }
  return r;
}

}  // namespace aerolbm
