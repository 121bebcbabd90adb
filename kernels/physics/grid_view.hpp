#pragma once
// What the per-cell functions see of the grid: sizes, cell flags and the interpolated-wall table. Raw pointers
// only, so the same struct is passed by value to CUDA kernels and used by the CPU loops.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/physics/collision.hpp"
#include "kernels/physics/params.hpp"

namespace aerolbm {

// Division of 32-bit numbers by a divisor fixed in advance, as a multiply-high and two shifts (Granlund &
// Montgomery 1994, the form with a 33-bit multiplier): exact for every dividend and every divisor ≥ 1. The GPU's
// step kernels find a thread's row in its plane this way (plane_cell_of): a division by a run-time nx is some twenty
// instructions per warp, this four, and the D2Q9 box with the entropic collision is bound by instruction issue
// (kernels/PERFORMANCE.md).
struct FastDivisor {
  std::uint32_t mul = 1, sh1 = 0, sh2 = 0;  // the divisor 1
  FastDivisor() = default;
  explicit FastDivisor(std::uint32_t d) {
    std::uint32_t l = 0;  // ceil(log2 d)
    while ((std::uint64_t(1) << l) < d) ++l;
    mul = std::uint32_t(((std::uint64_t(1) << 32) * ((std::uint64_t(1) << l) - d)) / d + 1);
    sh1 = l > 0 ? 1 : 0;
    sh2 = l > 0 ? l - 1 : 0;
  }
  AEROLBM_HD std::uint32_t divide(std::uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const std::uint32_t t = __umulhi(mul, n);
#else
    const std::uint32_t t = std::uint32_t((std::uint64_t(mul) * n) >> 32);
#endif
    return (t + ((n - t) >> sh1)) >> sh2;
  }
};

// The most cells a grid (an MPI rank's block) may have: cell indices are computed in 32 bits (GridView::index).
inline constexpr std::int64_t kMaxGridCells = (std::int64_t(1) << 32) - 1;

struct GridView {
  int n[3];                    // nx, ny, nz
  std::int64_t cells;          // nx*ny*nz (≤ kMaxGridCells)
  FastDivisor row_of;          // divides a cell's position in its z-plane by nx (set_extent)
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
  // WALE: the velocity of every cell of the state before the step (3 × cells: x components, then y, then z;
  // store_cell_velocity), which the step differentiates, and the field of the state the step stores, which it
  // writes for the next step (the same numbers store_cell_velocity would take from it); nullptr without WALE.
  const float* velocity = nullptr;
  float* velocity_next = nullptr;

  AEROLBM_HD int global_size(int a) const { return global_n[a] > 0 ? global_n[a] : n[a]; }

  // The sizes, the cell count and the row divisor together. Throws std::invalid_argument for a grid of more than
  // kMaxGridCells cells (both backends build their grids here).
  void set_extent(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
    if (nx * ny * nz > kMaxGridCells)
      throw std::invalid_argument("the grid (" + std::to_string(nx) + " x " + std::to_string(ny) + " x " +
                                  std::to_string(nz) + ") has more cells than one process or GPU indexes (under "
                                  "2^32). Lower domain.size_chords, or spread the grid over more ranks (mpirun).");
    n[0] = int(nx);
    n[1] = int(ny);
    n[2] = int(nz);
    cells = nx * ny * nz;
    row_of = FastDivisor(std::uint32_t(nx));
  }

  // In 32 bits (cells ≤ kMaxGridCells, which both backends check): the neighbours' indices of every population
  // come from here, and on the GPU 64-bit arithmetic took two or more instructions where this takes one.
  AEROLBM_HD std::int64_t index(int x, int y, int z) const {
    const std::uint32_t nx = std::uint32_t(n[0]), ny = std::uint32_t(n[1]);
    return std::int64_t(std::uint32_t(x) + nx * (std::uint32_t(y) + ny * std::uint32_t(z)));
  }
};

inline std::uint8_t periodic_axes(const PhysicsParams& p) {
  std::uint8_t m = 0;
  for (int a = 0; a < 3; ++a)
    if (p.faces[2 * a] == FaceBC::Periodic && p.faces[2 * a + 1] == FaceBC::Periodic) m |= std::uint8_t(1u << a);
  return m;
}

// What a face without the sponge layer adds to a cell's distance to it: farther than any grid reaches.
inline constexpr std::int32_t kSpongeFar = std::int32_t(1) << 29;

template <class R>
struct StepConstants {
  CollisionConstants<R> coll;
  R u_inlet[3];            // mean inflow velocity, also the free stream's (far field, sponge)
  bool parabolic_inlet;
  bool interpolated_walls;
  bool wall_function;  // boundaries.wall: wall_model, or a face of the grid FaceBC::WallModel (update_boundary_cell)
  bool characteristic_outlet;
  std::uint8_t faces[6];   // FaceBC per face
  std::int32_t wall_probe;  // a wall-model face's probe: rows in from the face's cells (PhysicsParams)
  std::uint8_t sponge_faces;
  R outlet_k;              // characteristic outlet: relaxation rate of the pressure toward the free stream's
  R sponge_strength;       // at the face
  R sponge_inv_width;      // 1 / sponge width in cells
  // Per face: 0 where the face has the sponge layer, kSpongeFar where it has none, added to the cell's distance to
  // that face, so that sponge_sigma takes the nearest one as a plain minimum (no test of sponge_faces per face).
  std::int32_t sponge_pad[6];
  // The free stream's equilibrium without its weight, per lattice direction c (index (cx+1) + 3(cy+1) + 9(cz+1)):
  // 3 c·u + 4.5 (c·u)² − 1.5 u² at ρ = 1, so that free_stream_population is one multiplication (the far-field faces
  // and the sponge layer need it for every population of their cells).
  R free_stream[27];
  R taylor_green;          // initial Taylor–Green peak speed (0: start from the inflow profile)
  R initial_noise;         // largest initial velocity perturbation per axis (0: none)
  R initial_velocity[3];   // the initial flow of a case without a velocity inlet (PhysicsParams::initial_velocity)
};

// The inflow's share of its full speed in step `step` (the step that makes state step + 1), or for the initial
// state at step −1 (0: at rest): sin² over the ramp, smooth at both ends, then 1.
inline double inflow_ramp(const PhysicsParams& p, std::int64_t step) {
  if (p.ramp_steps <= 0 || step + 1 >= p.ramp_steps) return 1.0;
  if (step < 0) return 0.0;
  const double s = std::sin(1.5707963267948966 * double(step + 1) / double(p.ramp_steps));
  return s * s;
}

// `scale`: the inflow's share of its full speed (inflow_ramp); `gain`: how much that share grows in this step,
// which a uniform body force of gain × u_inlet (per unit density) adds to the whole fluid, so that it speeds up
// with the inlet everywhere at once instead of waiting for the pressure waves that would carry the news.
template <class R>
inline StepConstants<R> make_step_constants(const PhysicsParams& p, double scale = 1.0, double gain = 0.0) {
  StepConstants<R> k{};
  const double force[3] = {p.body_force[0] + gain * p.u_inlet[0], p.body_force[1] + gain * p.u_inlet[1],
                           p.body_force[2] + gain * p.u_inlet[2]};
  k.coll = make_collision_constants<R>(p.collision == Collision::TRT, p.tau, p.trt_magic, force, p.smagorinsky,
                                       p.collision == Collision::KBC, p.wale);
  for (int a = 0; a < 3; ++a) k.u_inlet[a] = R(scale * p.u_inlet[a]);
  k.parabolic_inlet = p.inlet_profile == InletProfile::Parabolic;
  k.interpolated_walls = p.wall == WallModel::Interpolated || p.wall == WallModel::WallFunction;
  k.wall_function = p.wall == WallModel::WallFunction;
  for (int f = 0; f < 6; ++f)  // a wall-model face runs the wall model's step path too (update_boundary_cell)
    if (p.faces[f] == FaceBC::WallModel) k.wall_function = true;
  k.wall_probe = p.wall_model_probe;
  k.characteristic_outlet = p.characteristic_outlet;
  for (int f = 0; f < 6; ++f) k.faces[f] = static_cast<std::uint8_t>(p.faces[f]);
  const bool sponge = p.sponge_cells > 0 && p.sponge_strength > 0;
  k.sponge_faces = sponge ? p.sponge_faces : 0;
  k.sponge_strength = R(sponge ? p.sponge_strength : 0.0);
  k.sponge_inv_width = R(sponge ? 1.0 / p.sponge_cells : 0.0);
  for (int f = 0; f < 6; ++f) k.sponge_pad[f] = ((k.sponge_faces >> f) & 1u) ? 0 : kSpongeFar;
  k.outlet_k = R(p.outlet_k);
  for (int d = 0; d < 27; ++d) {
    const int c[3] = {d % 3 - 1, (d / 3) % 3 - 1, d / 9 - 1};
    double cu = 0, uu = 0;
    for (int a = 0; a < 3; ++a) {
      const double u = scale * p.u_inlet[a];
      cu += c[a] * u;
      uu += u * u;
    }
    k.free_stream[d] = R(3 * cu + 4.5 * cu * cu - 1.5 * uu);
  }
  k.taylor_green = R(p.taylor_green_amplitude);
  k.initial_noise = R(p.initial_noise);
  for (int a = 0; a < 3; ++a) k.initial_velocity[a] = R(p.initial_velocity[a]);
  return k;
}

// Where a run stands in its inflow ramp: the steps its state has had, and the constants of its next step. The
// backends step with their full constants once the ramp is over (CUDA: from captured graphs) and with next()
// during it. The ramp starts from rest and accelerates the whole fluid with the inlet (make_step_constants).
template <class R>
struct InflowRamp {
  PhysicsParams p;
  std::int64_t step = 0;
  bool active() const { return step < p.ramp_steps; }
  StepConstants<R> next() const {
    const double s = inflow_ramp(p, step);
    return make_step_constants<R>(p, s, s - inflow_ramp(p, step - 1));
  }
  StepConstants<R> initial() const { return make_step_constants<R>(p, inflow_ramp(p, -1)); }
};

}  // namespace aerolbm
