#include "src/solver/bad_cells.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kernels/physics/watchdog.hpp"

namespace aerolbm {

BadCells find_bad_cells(const GridInfo& g, const std::vector<float>& rho, const std::vector<float>& u,
                        const std::vector<std::uint8_t>& flags, double max_speed) {
  BadCells b;
  double sum[3] = {0, 0, 0};
  for (std::int64_t n = 0; n < g.cells(); ++n) {
    if (!watched_cell(flags[std::size_t(n)])) continue;
    const double r = rho[std::size_t(n)];
    const double ux = u[3 * std::size_t(n)], uy = u[3 * std::size_t(n) + 1], uz = u[3 * std::size_t(n) + 2];
    const double s2 = ux * ux + uy * uy + uz * uz;
    if (state_is_sane(r, s2, max_speed)) continue;
    const bool finite = std::isfinite(r) && std::isfinite(s2);
    const std::int64_t x[3] = {n % g.nx, (n / g.nx) % g.ny, n / (g.nx * g.ny)};
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = b.count == 0 ? x[a] : std::min(b.lo[a], x[a]);
      b.hi[a] = b.count == 0 ? x[a] : std::max(b.hi[a], x[a]);
      sum[a] += double(x[a]);
    }
    ++b.count;
    if (!finite) ++b.non_finite;
  }
  for (int a = 0; a < 3; ++a) b.centre[a] = b.count > 0 ? sum[a] / double(b.count) : 0.0;
  return b;
}

std::string describe_bad_cells(const GridInfo& g, const BadCells& b, int dims) {
  auto at = [&](int a, double i) { return g.origin[a] + i * g.spacing[a]; };
  char text[400];
  int k = std::snprintf(text, sizeof(text), "%lld bad cells (%lld non-finite) around (%.3f, %.3f", (long long)b.count,
                        (long long)b.non_finite, at(0, b.centre[0]), at(1, b.centre[1]));
  if (dims == 3) k += std::snprintf(text + k, sizeof(text) - std::size_t(k), ", %.3f", at(2, b.centre[2]));
  k += std::snprintf(text + k, sizeof(text) - std::size_t(k), "), over x %.3f..%.3f, y %.3f..%.3f", at(0, double(b.lo[0])),
                     at(0, double(b.hi[0])), at(1, double(b.lo[1])), at(1, double(b.hi[1])));
  if (dims == 3)
    std::snprintf(text + k, sizeof(text) - std::size_t(k), ", z %.3f..%.3f", at(2, double(b.lo[2])),
                  at(2, double(b.hi[2])));
  return text;
}

}  // namespace aerolbm
