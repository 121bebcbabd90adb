// build_frame_box: the frame of a block (an MPI rank's share of collective output) built from the block's cells
// plus one layer of its neighbours holds exactly the values the whole grid's frame has there, derivatives included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "kernels/lattice/lattice.hpp"
#include "src/solver/frame_builder.hpp"

namespace aerolbm {
namespace {

struct Grid {
  DomainData d;
  std::vector<float> rho, u;
};

Grid random_grid(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  Grid g;
  g.d.nx = nx, g.d.ny = ny, g.d.nz = nz;
  const std::int64_t N = nx * ny * nz;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> val(-0.1f, 0.1f);
  g.d.flags.resize(std::size_t(N));
  g.d.link.assign(std::size_t(N), -1);
  for (auto& f : g.d.flags) f = rng() % 5 == 0 ? cell::solid : cell::fluid;  // walls inside blocks and on faces
  for (std::int64_t n = 0; n < N; ++n) g.rho.push_back(1.0f + val(rng));
  for (std::int64_t n = 0; n < 3 * N; ++n) g.u.push_back(val(rng));
  return g;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

// Every block of a split into parts[a] pieces per axis against the whole grid's frame.
void check_split(const Grid& g, const int (&parts)[3]) {
  const DomainData& d = g.d;
  const FrameRequest req = FrameRequest::from_names({"velocity", "pressure", "density", "vorticity", "q_criterion",
                                                     "mask"});
  const Frame whole = build_frame(d, g.rho.data(), g.u.data(), 0.08, 0.25, req);
  const std::int64_t n[3] = {d.nx, d.ny, d.nz};
  for (int bz = 0; bz < parts[2]; ++bz)
    for (int by = 0; by < parts[1]; ++by)
      for (int bx = 0; bx < parts[0]; ++bx) {
        const int b[3] = {bx, by, bz};
        GridBox out, in;
        for (int a = 0; a < 3; ++a) {
          const std::int64_t lo = n[a] * b[a] / parts[a], hi = n[a] * (b[a] + 1) / parts[a];
          out.lo[a] = lo;
          out.n[a] = hi - lo;
          in.lo[a] = std::max<std::int64_t>(0, lo - 1);
          in.n[a] = std::min(n[a], hi + 1) - in.lo[a];
        }
        // The input box's cells; its edge and corner cells (outside out on two or more axes) are NaN, since
        // the derivatives must not read them.
        std::vector<float> rho(std::size_t(in.cells())), u(std::size_t(3 * in.cells()));
        for (std::int64_t z = 0; z < in.n[2]; ++z)
          for (std::int64_t y = 0; y < in.n[1]; ++y)
            for (std::int64_t x = 0; x < in.n[0]; ++x) {
              const std::int64_t gx[3] = {x + in.lo[0], y + in.lo[1], z + in.lo[2]};
              int outside = 0;
              for (int a = 0; a < 3; ++a) outside += gx[a] < out.lo[a] || gx[a] >= out.lo[a] + out.n[a];
              const std::int64_t m = x + in.n[0] * (y + in.n[1] * z);
              const std::int64_t gi = gx[0] + n[0] * (gx[1] + n[1] * gx[2]);
              const float nan = std::numeric_limits<float>::quiet_NaN();
              rho[std::size_t(m)] = outside > 1 ? nan : g.rho[std::size_t(gi)];
              for (int c = 0; c < 3; ++c) u[std::size_t(3 * m + c)] = outside > 1 ? nan : g.u[std::size_t(3 * gi + c)];
            }
        const Frame part = build_frame_box(d, in, rho.data(), u.data(), out, 0.08, 0.25, req);
        ASSERT_EQ(part.vorticity_components, whole.vorticity_components);
        const int vc = whole.vorticity_components;
        ASSERT_EQ(part.q_criterion.size(), std::size_t(out.cells()));
        ASSERT_EQ(part.vorticity.size(), std::size_t(vc * out.cells()));
        for (std::int64_t z = 0; z < out.n[2]; ++z)
          for (std::int64_t y = 0; y < out.n[1]; ++y)
            for (std::int64_t x = 0; x < out.n[0]; ++x) {
              const auto o = std::size_t(x + out.n[0] * (y + out.n[1] * z));
              const auto gi = std::size_t((x + out.lo[0]) + n[0] * ((y + out.lo[1]) + n[1] * (z + out.lo[2])));
              SCOPED_TRACE("block " + std::to_string(bx) + "," + std::to_string(by) + "," + std::to_string(bz) +
                           " cell " + std::to_string(gi));
              ASSERT_TRUE(same_bits(part.pressure[o], whole.pressure[gi]));
              ASSERT_TRUE(same_bits(part.density[o], whole.density[gi]));
              ASSERT_TRUE(same_bits(part.q_criterion[o], whole.q_criterion[gi]));
              ASSERT_EQ(part.mask[o], whole.mask[gi]);
              for (int c = 0; c < 3; ++c) ASSERT_TRUE(same_bits(part.velocity[3 * o + c], whole.velocity[3 * gi + c]));
              for (int c = 0; c < vc; ++c)
                ASSERT_TRUE(same_bits(part.vorticity[vc * o + c], whole.vorticity[vc * gi + c]));
            }
      }
}

TEST(FrameBox, BlocksOf3DGridMatchTheWholeGridBitForBit) {
  const Grid g = random_grid(9, 7, 6);
  check_split(g, {3, 2, 2});
  check_split(g, {1, 1, 3});
}

TEST(FrameBox, BlocksOf2DGridMatchTheWholeGridBitForBit) {
  const Grid g = random_grid(11, 8, 1);
  check_split(g, {2, 1, 1});
  check_split(g, {3, 4, 1});
}

TEST(FrameBox, InputWithoutTheNeighbourLayerIsRejected) {
  const Grid g = random_grid(6, 6, 1);
  const FrameRequest req = FrameRequest::from_names({"vorticity"});
  const GridBox out{{2, 0, 0}, {2, 6, 1}};
  const GridBox in = out;  // no layer on either side along x
  EXPECT_THROW(build_frame_box(g.d, in, g.rho.data(), g.u.data(), out, 0.1, 1.0, req), std::invalid_argument);
  const GridBox wide{{1, 0, 0}, {4, 6, 1}};
  std::vector<float> rho(std::size_t(wide.cells()), 1.0f), u(std::size_t(3 * wide.cells()), 0.0f);
  EXPECT_NO_THROW(build_frame_box(g.d, wide, rho.data(), u.data(), out, 0.1, 1.0, req));
}

}  // namespace
}  // namespace aerolbm
