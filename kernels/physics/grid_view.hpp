#pragma once
// What the per-cell functions see of the grid: sizes, cell flags and the interpolated-wall table. Raw pointers
// only, so the same struct is passed by value to CUDA kernels and used by the CPU loops.
#include <cstdint>

#include "kernels/physics/collision.hpp"
#include "kernels/physics/params.hpp"

namespace aerolbm {

struct GridView {
  int n[3];                    // nx, ny, nz
  std::int64_t cells;          // nx*ny*nz
  const std::uint8_t* flags;   // cell::fluid/solid/inlet/outlet | cell::near_wall
  const std::int32_t* link;    // per cell: row in q (−1 when not near a wall)
  const float* q;              // per wall row, Q entries: fraction of the link to the wall along c_i (≤0: none)
  const std::uint32_t* wall_mask = nullptr;  // per wall row, 3 words: which links come through the body in a step,
                                             // which have fluid behind them, which carry force (boundaries.hpp)
  std::uint8_t periodic;       // bit a set: axis a wraps around (both its faces periodic)
  // MPI block of a larger grid: global position of local cell (0,0,0) and the global size (0: this grid is the
  // whole grid). Only positions that depend on the whole grid (inlet profile, Taylor–Green start) use them.
  int origin[3] = {0, 0, 0};
  int global_n[3] = {0, 0, 0};

  AEROLBM_HD int global_size(int a) const { return global_n[a] > 0 ? global_n[a] : n[a]; }

  AEROLBM_HD std::int64_t index(int x, int y, int z) const {
    return std::int64_t(x) + std::int64_t(n[0]) * (std::int64_t(y) + std::int64_t(n[1]) * z);
  }
};

inline std::uint8_t periodic_axes(const PhysicsParams& p) {
  std::uint8_t m = 0;
  for (int a = 0; a < 3; ++a)
    if (p.faces[2 * a] == FaceBC::Periodic && p.faces[2 * a + 1] == FaceBC::Periodic) m |= std::uint8_t(1u << a);
  return m;
}

template <class R>
struct StepConstants {
  CollisionConstants<R> coll;
  R u_inlet[3];            // mean inflow velocity
  bool parabolic_inlet;
  bool interpolated_walls;
  std::uint8_t faces[6];   // FaceBC per face
  R taylor_green;          // initial Taylor–Green peak speed (0: start from the inflow profile)
};

template <class R>
inline StepConstants<R> make_step_constants(const PhysicsParams& p) {
  StepConstants<R> k{};
  k.coll = make_collision_constants<R>(p.collision == Collision::TRT, p.tau, p.trt_magic, p.body_force,
                                             p.smagorinsky);
  for (int a = 0; a < 3; ++a) k.u_inlet[a] = R(p.u_inlet[a]);
  k.parabolic_inlet = p.inlet_profile == InletProfile::Parabolic;
  k.interpolated_walls = p.wall == WallModel::Interpolated;
  for (int f = 0; f < 6; ++f) k.faces[f] = static_cast<std::uint8_t>(p.faces[f]);
  k.taylor_green = R(p.taylor_green_amplitude);
  return k;
}

}  // namespace aerolbm
