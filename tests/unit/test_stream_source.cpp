// Where a streamed population comes from at the faces of the grid (stream_source, kernels/physics/boundaries.hpp),
// against the rule written out in full: population i of cell x streams from x − c_i; along each axis (in order)
// where that lies outside the grid, the face's rule applies — periodic: the image; free-slip and wall-model: the
// cell's own coordinate along that axis with the direction mirrored; far field: the free stream; any other face:
// the cell's own opposite population (bounce-back). stream_source decides at compile time, per direction, which
// face it can cross; this checks it agrees with the rule for every cell, direction and mix of face types.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/physics/boundaries.hpp"

namespace aerolbm {
namespace {

template <class L>
StreamSource rule(const GridView& g, const std::uint8_t (&faces)[6], const int (&x)[3], std::int64_t n, int i) {
  int s[3] = {x[0] - L::c(i, 0), x[1] - L::c(i, 1), x[2] - L::c(i, 2)};
  int j = i;
  for (int a = 0; a < L::D; ++a) {
    if (s[a] >= 0 && s[a] < g.n[a]) continue;
    const auto bc = static_cast<FaceBC>(s[a] < 0 ? faces[2 * a] : faces[2 * a + 1]);
    if (bc == FaceBC::Periodic) {
      s[a] = s[a] < 0 ? s[a] + g.n[a] : s[a] - g.n[a];
    } else if (bc == FaceBC::Slip || bc == FaceBC::WallModel) {
      s[a] = x[a];
      j = mirror<L>(j, a);
    } else if (bc == FaceBC::FarField) {
      return {-1, i};
    } else {
      return {n, opposite(i)};
    }
  }
  return {g.index(s[0], s[1], s[2]), j};
}

template <class L>
void check_every_cell_and_face_mix() {
  const FaceBC kinds[] = {FaceBC::Periodic, FaceBC::Slip,     FaceBC::Wall,     FaceBC::Velocity,
                          FaceBC::Pressure, FaceBC::FarField, FaceBC::WallModel};
  GridView g{};
  g.n[0] = 5;
  g.n[1] = 4;
  g.n[2] = L::D == 3 ? 3 : 1;
  g.cells = std::int64_t(g.n[0]) * g.n[1] * g.n[2];
  StepConstants<double> k{};
  int checked = 0, crossing = 0;
  // Each face takes each kind over the mixes (low and high faces of an axis differ, as at an inlet and outlet).
  for (int mix = 0; mix < 7 * 7; ++mix) {
    for (int f = 0; f < 6; ++f) {
      const int pick = (f % 2 == 0 ? mix % 7 : (mix / 7 + f) % 7);
      k.faces[f] = static_cast<std::uint8_t>(kinds[pick]);
    }
    std::uint8_t faces[6];
    for (int f = 0; f < 6; ++f) faces[f] = k.faces[f];
    for (int z = 0; z < g.n[2]; ++z)
      for (int y = 0; y < g.n[1]; ++y)
        for (int x0 = 0; x0 < g.n[0]; ++x0) {
          const int x[3] = {x0, y, z};
          const std::int64_t n = g.index(x0, y, z);
          for (int i = 0; i < L::Q; ++i) {
            const StreamSource want = rule<L>(g, faces, x, n, i);
            const StreamSource got = stream_source<L, double>(g, k, x, n, i);
            ASSERT_EQ(got.m, want.m) << L::name << " mix " << mix << " cell " << x0 << "," << y << "," << z << " i " << i;
            ASSERT_EQ(got.j, want.j) << L::name << " mix " << mix << " cell " << x0 << "," << y << "," << z << " i " << i;
            ++checked;
            if (want.m != n - (L::c(i, 0) + g.n[0] * (L::c(i, 1) + g.n[1] * L::c(i, 2)))) ++crossing;
          }
        }
  }
  EXPECT_GT(crossing, checked / 10) << "the grid is small enough that many populations cross a face";
}

TEST(StreamSource, EveryCellDirectionAndMixOfFacesFollowsTheRule) {
  check_every_cell_and_face_mix<D2Q9>();
  check_every_cell_and_face_mix<D3Q19>();
  check_every_cell_and_face_mix<D3Q27>();
}

}  // namespace
}  // namespace aerolbm
