#pragma once
// Run-time choices shared by the case, the domain and both backends, with their names (the case file's words:
// lattice.stencil, lattice.collision, lattice.precision, boundaries.wall, boundaries.inlet_profile,
// boundaries.lateral and span). Plain C++: included by .cu files too.
#include <cstdint>

#include "kernels/physics/enum_names.hpp"

namespace aerolbm {

enum class Stencil : std::uint8_t { D2Q9, D3Q19, D3Q27 };
inline constexpr EnumName<Stencil> kStencilNames[] = {
    {Stencil::D2Q9, "D2Q9"}, {Stencil::D3Q19, "D3Q19"}, {Stencil::D3Q27, "D3Q27"}};
constexpr const char* stencil_name(Stencil s) { return enum_name(kStencilNames, s); }

enum class Collision : std::uint8_t { BGK, TRT, KBC };  // KBC: entropic (collision.hpp)
inline constexpr EnumName<Collision> kCollisionNames[] = {
    {Collision::BGK, "bgk"}, {Collision::TRT, "trt"}, {Collision::KBC, "kbc"}};
constexpr const char* collision_name(Collision c) { return enum_name(kCollisionNames, c); }

enum class Precision : std::uint8_t { FP32, FP64, FP16S };
inline constexpr EnumName<Precision> kPrecisionNames[] = {
    {Precision::FP32, "fp32"}, {Precision::FP64, "fp64"}, {Precision::FP16S, "fp16s"}};
constexpr const char* precision_name(Precision p) { return enum_name(kPrecisionNames, p); }

// WallFunction ("wall_model"): interpolated bounce-back plus the wall-function eddy viscosity in the near-wall
// cells (kernels/physics/wall_model.hpp).
enum class WallModel : std::uint8_t { HalfwayBounceBack, Interpolated, WallFunction };
inline constexpr EnumName<WallModel> kWallModelNames[] = {{WallModel::HalfwayBounceBack, "halfway"},
                                                          {WallModel::Interpolated, "interpolated"},
                                                          {WallModel::WallFunction, "wall_model"}};

enum class InletProfile : std::uint8_t { Uniform, Parabolic };
inline constexpr EnumName<InletProfile> kInletProfileNames[] = {{InletProfile::Uniform, "uniform"},
                                                                {InletProfile::Parabolic, "parabolic"}};

// What happens where a population would stream in from outside the grid. One entry per face:
// index 2*axis for the low face, 2*axis+1 for the high face.
enum class FaceBC : std::uint8_t {
  Periodic,  // wrap around
  Slip,      // specular reflection (free-slip wall half a cell outside the last row)
  Wall,      // half-way bounce-back (no-slip wall half a cell outside the last row)
  Velocity,  // cells on this face are velocity-inlet nodes
  Pressure,  // cells on this face are pressure-outlet nodes
  FarField,  // free stream: a population streaming in across the face is the equilibrium of the free stream
  WallModel,  // a wall at high Reynolds number: free-slip reflection plus the law of the wall's stress
              // (stream_source in boundaries.hpp, wall_model_face_stress in cell_update.hpp)
};
// The side faces' choices (boundaries.lateral, boundaries.span).
inline constexpr EnumName<FaceBC> kSideFaceNames[] = {
    {FaceBC::FarField, "farfield"}, {FaceBC::Slip, "slip"}, {FaceBC::Wall, "wall"}, {FaceBC::Periodic, "periodic"},
    {FaceBC::WallModel, "wall_model"}};

// Cell flags (one byte per cell).
namespace cell {
inline constexpr std::uint8_t fluid = 0;
inline constexpr std::uint8_t solid = 1;
inline constexpr std::uint8_t inlet = 2;
inline constexpr std::uint8_t outlet = 3;
inline constexpr std::uint8_t type_mask = 0x0f;
inline constexpr std::uint8_t near_wall = 0x10;  // fluid cell with at least one link into a solid cell
// MPI halo: a copy of a cell another rank owns (its type bits kept, so neighbours see the cell as it is). Never
// updated here; the populations that stream out of it are received from its owner after every step.
inline constexpr std::uint8_t ghost = 0x20;
// Storage bookkeeping, not physics: the in-place (AA) storage of the CUDA backend sets this on its own copy of the
// flags for the interior cells whose populations its boundary cells read (they keep a snapshot row). The physics
// ignores it.
inline constexpr std::uint8_t aa_snapshot = 0x40;
// Bookkeeping too: the CUDA backend marks the cells of the sponge layer (sponge_sigma > 0) on its copy of the flags,
// so its interior kernels test one bit that is in a register anyway where every cell computed the distance to the
// sponge faces (the CPU walks its rows in from the faces instead). The physics ignores it.
inline constexpr std::uint8_t sponge = 0x80;
}  // namespace cell

// Per-step physics parameters in lattice units (what the per-cell functions need besides the data).
struct PhysicsParams {
  Collision collision = Collision::TRT;
  double tau = 0.6;                // relaxation time of the symmetric (viscous) moments
  double trt_magic = 3.0 / 16.0;   // Λ = (τ+ − ½)(τ− − ½)
  double smagorinsky = 0;          // Smagorinsky constant C_s (0: no LES model)
  double wale = 0;                 // WALE constant C_w (0: not WALE; kernels/physics/les_wale.hpp)
  double body_force[3] = {0, 0, 0};
  double u_inlet[3] = {0, 0, 0};   // mean inflow velocity (lattice units)
  InletProfile inlet_profile = InletProfile::Uniform;
  WallModel wall = WallModel::Interpolated;
  FaceBC faces[6] = {FaceBC::Velocity, FaceBC::Pressure, FaceBC::Slip,
                     FaceBC::Slip,     FaceBC::Periodic, FaceBC::Periodic};
  // The far field (boundaries.hpp): the outlet nodes by characteristics (waves leave; the pressure relaxes to the
  // free stream's at the rate `outlet_k` per step) instead of a fixed density; a sponge layer of
  // `sponge_cells` cells in front of the faces in `sponge_faces` (bit f for face f: the outlet and the far-field
  // faces) relaxing the post-collision populations toward the free stream's equilibrium, at most
  // `sponge_strength` per step at the face.
  bool characteristic_outlet = false;
  double outlet_k = 0;
  double sponge_cells = 0;
  double sponge_strength = 0;
  std::uint8_t sponge_faces = 0;
  // The inflow (inlet and free stream) ramps up from rest over this many steps (0: full from the start).
  std::int64_t ramp_steps = 0;
  // > 0: start from a Taylor–Green vortex of this peak speed filling the domain (periodic boxes, benchmarks)
  // instead of the inflow profile.
  double taylor_green_amplitude = 0;
  // > 0: every fluid cell's initial velocity gets a deterministic pseudo-random component of up to this speed
  // (lattice units) per axis, the seed that a flow with a homogeneous direction (a span-periodic body) needs to
  // leave its symmetric two-dimensional state (initialize_cell, cell_update.hpp).
  double initial_noise = 0;
  // The initial velocity (lattice units) of the fluid cells of a case without a velocity inlet, which otherwise
  // start at rest (physics.initial_velocity; a body-force-driven periodic channel starts at its bulk speed).
  double initial_velocity[3] = {0, 0, 0};
  // A wall-model face's probe (boundaries.wall_model_probe): rows between the face's cells and the cell whose
  // velocity sets the law of the wall's stress (1: the second row, 1½ cells from the wall).
  int wall_model_probe = 1;
};

}  // namespace aerolbm
