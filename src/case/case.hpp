#pragma once
// A validated case: what the user asked for, in physical/dimensionless terms. Built only by load_case(), so every
// Case that exists has passed validation. Lattice-unit quantities live in LatticeUnits (units.hpp).
#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/physics/params.hpp"

namespace aerolbm {

enum class GeometryType { Naca4, Selig, Cylinder, None };

// checkpoint.every left out: a checkpoint every tenth of the run (see checkpoint_interval()).
inline constexpr std::int64_t kCheckpointAuto = -1;

struct Case {
  std::filesystem::path source_file;  // the YAML file it came from
  std::string name;
  std::string description;

  // physics
  double reynolds = 1000;             // based on the reference length (chord or diameter) and mean inflow speed
  double mach = 0.1;                  // mean inflow speed over the speed of sound
  double angle_of_attack_deg = 0;
  bool allow_high_mach = false;       // physics.allow_high_mach: Mach > 0.3 only when set
  std::array<double, 3> body_force = {0, 0, 0};  // physics.body_force, lattice units (validation cases)

  // geometry
  GeometryType geometry = GeometryType::Naca4;
  std::string naca_code = "0012";      // geometry.code
  std::filesystem::path selig_file;    // geometry.file, resolved relative to the case file
  double chord_cells = 160;            // geometry.chord_cells: reference length in cells (diameter for a cylinder)

  // domain (in reference lengths). 2D stencils use the first two entries; size_chords[2] is then 1/chord_cells.
  std::array<double, 3> size_chords = {12, 6, 0};
  std::array<double, 3> body_position_chords = {3, 3, 0};  // pivot (quarter chord / centre) from the lower-left corner

  // lattice
  Stencil stencil = Stencil::D2Q9;
  Collision collision = Collision::TRT;
  Precision precision = Precision::FP32;
  std::string kernel = "auto";
  double trt_magic = 3.0 / 16.0;       // lattice.trt_magic
  std::string les_model = "none";      // lattice.les.model
  double les_constant = 0.17;          // lattice.les.constant: Smagorinsky constant C_s
  double tau_min = 0.505;              // lattice.tau_min: τ at or below this is refused as unstable

  // boundaries
  FaceBC inlet = FaceBC::Velocity;     // boundaries.inlet: velocity | periodic
  FaceBC outlet = FaceBC::Pressure;    // boundaries.outlet: pressure | periodic
  FaceBC lateral = FaceBC::Slip;       // boundaries.lateral: slip | wall | periodic
  WallModel wall = WallModel::Interpolated;  // boundaries.wall: halfway | interpolated
  InletProfile inlet_profile = InletProfile::Uniform;  // boundaries.inlet_profile: uniform | parabolic

  // time
  double convective_times = 20;        // run length in reference lengths travelled by the mean inflow
  double average_last = 5;             // averaging window (convective times) for mean Cd/Cl
  std::int64_t steps = 0;              // time.steps: > 0 overrides convective_times

  // output
  std::int64_t output_every = 500;     // output.every (steps); 0 = no field output
  std::vector<std::string> fields = {"velocity", "pressure", "vorticity", "mask"};
  std::vector<std::string> formats = {"hdf5", "vtk"};
  std::int64_t forces_every = 10;      // forces.every (steps)
  std::int64_t checkpoint_every = kCheckpointAuto;  // checkpoint.every (steps), 0 = off; left out: 10 % of the run
  std::int64_t watchdog_every = 100;   // watchdog.every (steps): scan the state for NaN/Inf and runaway speeds
  double watchdog_max_speed = 0.4;     // watchdog.max_speed (cells/step); the lattice sound speed is 0.577
  std::array<int, 3> ranks_grid = {0, 0, 0};  // parallel.ranks_grid: MPI ranks along x, y, z (zeros: chosen)

  std::string yaml_text;               // the case exactly as run (after overrides), re-emitted
};

// Bad input: the message already names file, line, key path, what was expected and what to do.
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Read, apply --set overrides ("a.b.c=value"), validate. Throws CaseError on any problem.
Case load_case(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

inline int dimensions(Stencil s) { return s == Stencil::D2Q9 ? 2 : 3; }

// Steps between checkpoints for a run of `total_steps`: checkpoint.every, or with the key left out a tenth of the
// run (at least 1). 0: none (a graceful stop still writes one).
inline std::int64_t checkpoint_interval(const Case& c, std::int64_t total_steps) {
  if (c.checkpoint_every != kCheckpointAuto) return c.checkpoint_every;
  return total_steps >= 10 ? (total_steps + 9) / 10 : 1;
}

}  // namespace aerolbm
