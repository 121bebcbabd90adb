// Mesh voxelisation on the GPU gives exactly the CPU's answers: the same solid cells and the same wall fractions,
// bit for bit, for a swept, tapered, twisted wing at an angle of attack and for the STL example, and so the same
// domain (flags and q) from build_domain.
#include <gtest/gtest.h>

#include <cstring>

#include "src/case/case.hpp"
#include "src/case/make_body.hpp"
#include "src/geometry/naca.hpp"
#include "src/geometry/stl.hpp"
#include "src/geometry/wing.hpp"
#include "src/solver/mesh_voxelize.hpp"
#include "tests/cases_dir.hpp"

namespace aerolbm {
namespace {

void expect_same_voxels(const StlBody& body) {
  const auto b = body.bounds();
  std::int64_t lo[3], n[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::int64_t(std::floor(b[0][a] - 2));
    n[a] = std::int64_t(std::ceil(b[1][a] + 2)) - lo[a];
  }
  std::vector<std::uint8_t> cpu, gpu;
  ASSERT_EQ(mesh_inside_cells(*body.mesh(), lo, n, cpu, VoxelDevice::Cpu), "cpu");
  ASSERT_EQ(mesh_inside_cells(*body.mesh(), lo, n, gpu, VoxelDevice::Cuda), "cuda");
  ASSERT_EQ(cpu.size(), gpu.size());
  std::size_t solid = 0, differ = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) solid += cpu[i], differ += cpu[i] != gpu[i];
  EXPECT_GT(solid, 100u);
  EXPECT_EQ(differ, 0u);

  // Every link from a cell to each of its 18 D3Q19 neighbours where one end is solid.
  std::vector<double> seg;
  const int d[18][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},  {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
                        {1, 1, 0},  {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 0, 1},  {-1, 0, -1},
                        {1, 0, -1}, {-1, 0, 1}, {0, 1, 1},  {0, -1, -1}, {0, 1, -1}, {0, -1, 1}};
  const auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) { return cpu[std::size_t(x + n[0] * (y + n[1] * z))]; };
  for (std::int64_t z = 1; z + 1 < n[2]; ++z)
    for (std::int64_t y = 1; y + 1 < n[1]; ++y)
      for (std::int64_t x = 1; x + 1 < n[0]; ++x) {
        if (at(x, y, z)) continue;
        for (const auto& e : d)
          if (at(x + e[0], y + e[1], z + e[2]))
            seg.insert(seg.end(), {lo[0] + x + 0.5, lo[1] + y + 0.5, lo[2] + z + 0.5, lo[0] + x + e[0] + 0.5,
                                   lo[1] + y + e[1] + 0.5, lo[2] + z + e[2] + 0.5});
      }
  ASSERT_GT(seg.size(), 600u);
  std::vector<double> tc, tg;
  ASSERT_EQ(mesh_link_fractions(*body.mesh(), seg, tc, VoxelDevice::Cpu), "cpu");
  ASSERT_EQ(mesh_link_fractions(*body.mesh(), seg, tg, VoxelDevice::Cuda), "cuda");
  ASSERT_EQ(tc.size(), tg.size());
  std::size_t bits_differ = 0, missed = 0;
  for (std::size_t i = 0; i < tc.size(); ++i) {
    bits_differ += std::memcmp(&tc[i], &tg[i], sizeof(double)) != 0;
    missed += tc[i] < 0;
  }
  EXPECT_EQ(bits_differ, 0u) << "of " << tc.size() << " links";
  EXPECT_LT(missed, tc.size() / 100 + 1);
  std::printf("voxels CPU = GPU: %zu cells (%zu solid), %zu links\n", cpu.size(), solid, tc.size());
}

TEST(GpuVoxelize, SweptTaperedTwistedWingMatchesTheCpu) {
  WingShape w;
  w.root = naca_outline("2412", 120);
  w.tip = naca_outline("23012", 120);
  w.span = 5;
  w.tip_chord = 0.5;
  w.sweep_deg = 25;
  w.dihedral_deg = 3;
  w.twist_deg = -2;
  w.half = false;
  const auto body = make_wing_body(w, 48, 6, {100, 60, 140});
  expect_same_voxels(*body);
}

TEST(GpuVoxelize, StlExampleMatchesTheCpu) {
  const auto mesh = read_stl(testing::cases_dir() / "data/spheroid.stl");
  StlPlacement pl;
  pl.scale = 64.0 / 200.0;
  pl.angle_of_attack_deg = 7;
  pl.pivot_lattice = {80, 40, 40};
  expect_same_voxels(StlBody(mesh.triangles, pl));
}

}  // namespace
}  // namespace aerolbm
