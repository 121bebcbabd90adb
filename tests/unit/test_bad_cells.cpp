// The watchdog's account of where a blow-up lies: the bad cells' count, centroid and bounding box on the host copy
// of a grid's fields, with solid cells and a refined level's ghost cells left out, as the backends' scan leaves them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "kernels/physics/params.hpp"
#include "src/solver/bad_cells.hpp"

namespace aerolbm {
namespace {

GridInfo grid(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  GridInfo g;
  g.nx = nx;
  g.ny = ny;
  g.nz = nz;
  g.origin = {-2.0, -1.0, 0.0};
  g.spacing = {0.5, 0.5, 0.5};
  return g;
}

TEST(BadCells, CentroidAndBoxOfNonFiniteAndFastCells) {
  const GridInfo g = grid(10, 8, 3);
  std::vector<float> rho(std::size_t(g.cells()), 1.0f), u(3 * std::size_t(g.cells()), 0.05f);
  auto at = [&](int x, int y, int z) { return std::size_t(x + g.nx * (y + g.ny * z)); };
  // A region of 3 × 2 × 1 cells: four NaN densities and two speeds over the bound, centred at (6, 4.5, 1).
  for (int x = 5; x <= 7; ++x)
    for (int y = 4; y <= 5; ++y) {
      if (x == 7) {
        u[3 * at(x, y, 1) + 1] = 0.6f;  // finite but too fast
      } else {
        rho[at(x, y, 1)] = std::numeric_limits<float>::quiet_NaN();
      }
    }
  const std::vector<std::uint8_t> fluid(std::size_t(g.cells()), cell::fluid);
  const BadCells b = find_bad_cells(g, rho, u, fluid, 0.4);
  EXPECT_EQ(b.count, 6);
  EXPECT_EQ(b.non_finite, 4);
  EXPECT_DOUBLE_EQ(b.centre[0], 6.0);
  EXPECT_DOUBLE_EQ(b.centre[1], 4.5);
  EXPECT_DOUBLE_EQ(b.centre[2], 1.0);
  EXPECT_EQ(b.lo[0], 5);
  EXPECT_EQ(b.hi[0], 7);
  EXPECT_EQ(b.lo[1], 4);
  EXPECT_EQ(b.hi[1], 5);
  // In reference lengths: origin + index × spacing.
  const std::string text = describe_bad_cells(g, b, 3);
  EXPECT_NE(text.find("6 bad cells (4 non-finite) around (1.000, 1.250, 0.500)"), std::string::npos) << text;
  EXPECT_NE(text.find("over x 0.500..1.500, y 1.000..1.500, z 0.500..0.500"), std::string::npos) << text;
  // Under the bound the fast cells are not bad.
  EXPECT_EQ(find_bad_cells(g, rho, u, fluid, 0.7).count, 4);
}

TEST(BadCells, SolidAndGhostCellsAreNotCounted) {
  const GridInfo g = grid(6, 4, 1);
  std::vector<float> rho(std::size_t(g.cells()), 1.0f), u(3 * std::size_t(g.cells()), 0.0f);
  rho[3] = std::numeric_limits<float>::infinity();
  rho[20] = std::numeric_limits<float>::quiet_NaN();
  rho[21] = -1.0f;  // a negative density is bad as the backends' scan has it
  rho[22] = 0.0f;   // and so is zero, but this cell is solid
  std::vector<std::uint8_t> flags(std::size_t(g.cells()), cell::fluid);
  flags[20] = cell::fluid | cell::ghost;
  flags[22] = cell::solid;
  const BadCells b = find_bad_cells(g, rho, u, flags, 0.4);
  EXPECT_EQ(b.count, 2);
  EXPECT_EQ(b.non_finite, 1);
  EXPECT_DOUBLE_EQ(b.centre[0], 3.0);   // cells 3 (3, 0) and 21 (3, 3)
  EXPECT_DOUBLE_EQ(b.centre[1], 1.5);
  EXPECT_EQ(describe_bad_cells(g, b, 2).find(", z"), std::string::npos);
  const std::vector<float> ones(std::size_t(g.cells()), 1.0f);
  EXPECT_EQ(find_bad_cells(g, ones, u, flags, 0.4).count, 0);
}

}  // namespace
}  // namespace aerolbm
