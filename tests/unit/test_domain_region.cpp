// build_domain with a region (src/solver/domain.hpp): a refined level's box built without the whole domain at its
// resolution. Every cell of the region but its outermost layer (whose links toward cells outside it are not
// recorded, by design) must be what the whole grid has there: its flag, whether it has wall links, and their
// fractions; the region's cells outside the body's reach are plain fluid; a region without the body is fine.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/case/make_body.hpp"
#include "src/case/units.hpp"
#include "src/solver/domain.hpp"
#include "tests/cases_dir.hpp"

namespace aerolbm {
namespace {

// The region [lo, hi) of the case's grid against the whole grid, cell by cell; returns the cells compared.
std::int64_t expect_region_matches(const Case& c, const GridRegion& r) {
  const LatticeUnits u = lattice_units(c);
  const auto body = make_body(c);
  const DomainData whole = build_domain(c, u, body.get());
  const DomainData part = build_domain(c, u, body.get(), &r);
  const std::int64_t n[3] = {u.nx, u.ny, u.nz};
  std::int64_t o[3], e[3];
  for (int a = 0; a < 3; ++a) {
    o[a] = std::max<std::int64_t>(0, r.lo[a]);
    e[a] = std::min<std::int64_t>(n[a], r.hi[a]);
    EXPECT_EQ(part.origin[a], o[a]);
    EXPECT_EQ(part.global_n[a], n[a]);
  }
  EXPECT_EQ(part.nx, e[0] - o[0]);
  EXPECT_EQ(part.ny, e[1] - o[1]);
  EXPECT_EQ(part.nz, e[2] - o[2]);
  const int q = int(whole.q.size() / std::max<std::size_t>(1, whole.wall_cells.size()));
  std::int64_t compared = 0, near_wall = 0, differ = 0;
  std::string first;
  for (std::int64_t z = o[2]; z < e[2]; ++z)
    for (std::int64_t y = o[1]; y < e[1]; ++y)
      for (std::int64_t x = o[0]; x < e[0]; ++x) {
        const std::int64_t g[3] = {x, y, z};
        bool edge = false;  // the region's outermost layer, where the grid goes on beyond it
        for (int a = 0; a < 3; ++a) edge = edge || (g[a] == o[a] && o[a] > 0) || (g[a] == e[a] - 1 && e[a] < n[a]);
        if (edge) continue;
        const std::int64_t w = x + u.nx * (y + u.ny * z);
        const std::int64_t p = (x - o[0]) + part.nx * ((y - o[1]) + part.ny * (z - o[2]));
        const std::string at = "cell " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z);
        bool same = part.flags[std::size_t(p)] == whole.flags[std::size_t(w)] &&
                    (part.link[std::size_t(p)] >= 0) == (whole.link[std::size_t(w)] >= 0);
        if (same && whole.link[std::size_t(w)] >= 0) {
          ++near_wall;
          for (int i = 0; i < q; ++i)
            same = same && part.q[std::size_t(part.link[std::size_t(p)]) * q + i] ==
                               whole.q[std::size_t(whole.link[std::size_t(w)]) * q + i];
        }
        if (!same && differ++ == 0) first = at;
        ++compared;
      }
  std::printf("%s: %lld cells of the region compared, %lld next to the body\n", c.name.c_str(),
              static_cast<long long>(compared), static_cast<long long>(near_wall));
  EXPECT_EQ(differ, 0) << c.name << ": the first that differs is " << first;
  EXPECT_GT(compared, 0) << c.name;
  return near_wall;
}

GridRegion region(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, std::int64_t z0 = 0,
                  std::int64_t z1 = 1) {
  GridRegion r;
  r.lo[0] = x0, r.hi[0] = x1, r.lo[1] = y0, r.hi[1] = y1, r.lo[2] = z0, r.hi[2] = z1;
  return r;
}

TEST(DomainRegion, AirfoilRegionIsTheWholeGridsCells) {
  // The default airfoil (640 × 320, 64 cells per chord, the leading edge at x ≈ 176, the pivot at y = 160): a
  // region cutting through the body, one holding its front and the inlet face, and one away from it.
  const Case c = load_case(testing::cases_dir() / "naca0012_re1000_aoa5.yaml");
  EXPECT_GT(expect_region_matches(c, region(180, 220, 140, 180)), 0);
  EXPECT_GT(expect_region_matches(c, region(-5, 200, 100, 220)), 0);
  EXPECT_EQ(expect_region_matches(c, region(400, 500, 10, 60)), 0);
}

TEST(DomainRegion, HalfWingAndStlRegionsAreTheWholeGridsCells) {
  // A triangle mesh and a wing, each with a region cutting through the body, the half wing's on its root plane.
  const Case wing = load_case(testing::cases_dir() / "ci" / "wing_naca0012_ar4.yaml");
  EXPECT_GT(expect_region_matches(wing, region(20, 50, 10, 40, -3, 20)), 0);
  const Case stl = load_case(testing::cases_dir() / "ci" / "stl_example.yaml");
  EXPECT_GT(expect_region_matches(stl, region(20, 40, 10, 30, 20, 40)), 0);
}

}  // namespace
}  // namespace aerolbm
