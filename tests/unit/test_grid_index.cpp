// The grid's 32-bit index arithmetic: the fixed-divisor division the GPU's step kernels find their rows with, and
// the cell index, against plain 64-bit arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/physics/grid_view.hpp"

namespace aerolbm {
namespace {

TEST(FastDivisor, MatchesDivisionForEveryKindOfDivisorAndDividend) {
  std::mt19937_64 rng(12345);
  std::vector<std::uint32_t> divisors = {1, 2, 3, 5, 7, 64, 100, 127, 128, 129, 400, 640, 1000, 2560, 65535, 65536,
                                         65537, 1u << 20, (1u << 31) - 1, 1u << 31, (1u << 31) + 1, 0xFFFFFFFEu,
                                         0xFFFFFFFFu};
  for (int k = 0; k < 200; ++k) divisors.push_back(std::uint32_t(rng() >> (32 + rng() % 32)) | 1u);
  for (int k = 0; k < 200; ++k) divisors.push_back(std::uint32_t(rng() >> 32) | 2u);
  for (const std::uint32_t d : divisors) {
    const FastDivisor f(d);
    std::vector<std::uint32_t> n = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu,
                                    0xFFFFFFFFu};
    for (int k = 0; k < 2000; ++k) n.push_back(std::uint32_t(rng() >> 32));
    for (int k = 0; k < 200; ++k) n.push_back(std::uint32_t(rng() % (std::uint64_t(d) * 300 + 1)));
    for (const std::uint32_t v : n) ASSERT_EQ(f.divide(v), v / d) << v << " / " << d;
  }
}

TEST(FastDivisor, EveryDividendBelowAFewThousandForSmallDivisors) {
  for (std::uint32_t d = 1; d <= 300; ++d) {
    const FastDivisor f(d);
    for (std::uint32_t v = 0; v < 5000; ++v) ASSERT_EQ(f.divide(v), v / d) << v << " / " << d;
  }
}

TEST(GridIndex, ThirtyTwoBitIndexMatchesTheWideOneUpToTheLimit) {
  GridView g{};
  g.set_extent(65536, 65535, 1);  // kMaxGridCells − 65535 cells
  ASSERT_LE(g.cells, kMaxGridCells);
  EXPECT_EQ(g.index(65535, 65534, 0), g.cells - 1);
  g.set_extent(1625, 1625, 1626);  // 4.29e9 cells, just under the limit
  ASSERT_LE(g.cells, kMaxGridCells);
  std::mt19937 rng(7);
  for (int k = 0; k < 100000; ++k) {
    const int x = int(rng() % 1625), y = int(rng() % 1625), z = int(rng() % 1626);
    ASSERT_EQ(g.index(x, y, z), std::int64_t(x) + 1625 * (std::int64_t(y) + 1625 * std::int64_t(z)));
  }
  EXPECT_EQ(g.index(1624, 1624, 1625), g.cells - 1);
  // One cell more than the limit is refused.
  EXPECT_THROW(g.set_extent(65536, 65536, 1), std::invalid_argument);
  // The row of a position in its plane, as plane_cell_of finds it.
  for (std::uint32_t p : {0u, 1u, 1624u, 1625u, 1626u, 1625u * 1625u - 1u}) EXPECT_EQ(g.row_of.divide(p), p / 1625u);
}

}  // namespace
}  // namespace aerolbm
