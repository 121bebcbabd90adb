#pragma once
// A validated case: what the user asked for, in physical/dimensionless terms. Built only by load_case(), so every
// Case that exists has passed validation. Lattice-unit quantities live in LatticeUnits (units.hpp).
#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/backend_choice.hpp"
#include "kernels/physics/params.hpp"
#include "src/util/input_error.hpp"

namespace aerolbm {

enum class GeometryType { Naca4, Selig, Cylinder, Wing, Stl, None };

// One airfoil section of a wing: a NACA code (4 or 5 digits) or a Selig .dat file (resolved path); one is set.
struct SectionSource {
  std::string naca_code;
  std::filesystem::path file;
  bool empty() const { return naca_code.empty() && file.empty(); }
};

// lattice.les.constant left out with lattice.les.model: wale: C_w of Nicoud & Ducros (1999).
inline constexpr double kWaleConstant = 0.5;

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
  double initial_noise = 0;  // physics.initial_noise, a fraction of the inflow speed
  // physics.initial_velocity, in units of the reference speed: the initial flow of a case without a velocity
  // inlet (a body-force-driven periodic channel), which otherwise starts at rest.
  std::array<double, 3> initial_velocity = {0, 0, 0};

  // geometry
  GeometryType geometry = GeometryType::Naca4;
  std::string naca_code = "0012";      // geometry.code
  std::filesystem::path selig_file;    // geometry.file, resolved relative to the case file
  double chord_cells = 160;            // geometry.chord_cells: reference length in cells (diameter for a cylinder)

  // geometry.type: wing (lengths in root chords = reference lengths)
  SectionSource wing_section{"0012", {}};  // geometry.section
  SectionSource wing_tip_section;      // geometry.tip_section; empty: the root section
  double wing_span = 4;                // geometry.span: full span (tip to tip)
  double wing_tip_chord = 1;           // geometry.tip_chord, or geometry.taper × root chord
  double wing_sweep_deg = 0;           // geometry.sweep_deg: leading-edge sweep
  double wing_dihedral_deg = 0;        // geometry.dihedral_deg
  double wing_twist_deg = 0;           // geometry.twist_deg: at the tip, positive nose up
  bool wing_half = false;              // geometry.half: half wing on the symmetry plane z = 0

  // geometry.type: stl
  std::filesystem::path stl_file;      // geometry.file, resolved relative to the case file
  double stl_units_per_reference = 1;  // geometry.units_per_reference: model units per reference length
  std::array<double, 3> stl_pivot = {0, 0, 0};  // geometry.pivot: model units; lands at body_position_chords
  double stl_reference_area = 0;       // geometry.reference_area (reference lengths²); 0: from the bounds

  // domain (in reference lengths). 2D stencils use the first two entries; size_chords[2] is then 1/chord_cells.
  std::array<double, 3> size_chords = {12, 6, 0};
  std::array<double, 3> body_position_chords = {3, 3, 0};  // pivot (quarter chord / centre) from the lower-left corner

  // lattice
  Stencil stencil = Stencil::D2Q9;
  Collision collision = Collision::TRT;
  Precision precision = Precision::FP32;
  KernelVariant kernel = KernelVariant::Auto;  // lattice.kernel (kKernelNames)
  double trt_magic = 3.0 / 16.0;       // lattice.trt_magic
  std::string les_model = "none";      // lattice.les.model
  double les_constant = 0.17;          // lattice.les.constant: Smagorinsky constant C_s, or WALE's C_w
  double tau_min = 0.505;              // lattice.tau_min: τ at or below this is refused as unstable

  // boundaries
  FaceBC inlet = FaceBC::Velocity;     // boundaries.inlet: velocity | periodic
  FaceBC outlet = FaceBC::Pressure;    // boundaries.outlet: characteristic | pressure | periodic
  bool characteristic_outlet = true;   //   characteristic: the outlet nodes by characteristics (non-reflecting)
  double outlet_relaxation = 1.0;      // boundaries.outlet_relaxation: Poinsot & Lele's σ of the characteristic outlet
  FaceBC lateral = FaceBC::FarField;   // boundaries.lateral: farfield | slip | wall | periodic
  FaceBC span = FaceBC::FarField;      // boundaries.span: the z faces (3D); left out: as lateral
  double sponge_width_chords = 0.5;    // boundaries.sponge.width_chords: in front of the outlet and far-field faces
  double sponge_strength = 0.05;       // boundaries.sponge.strength: relaxation per step at the face (0: none)
  WallModel wall = WallModel::Interpolated;  // boundaries.wall: halfway | interpolated | wall_model
  InletProfile inlet_profile = InletProfile::Uniform;  // boundaries.inlet_profile: uniform | parabolic
  double wall_model_probe = 1.5;       // boundaries.wall_model_probe: a wall-model face's probe, cells from the wall

  // time
  double convective_times = 20;        // run length in reference lengths travelled by the mean inflow
  double average_last = 5;             // averaging window (convective times) for mean Cd/Cl
  double ramp_convective_times = 1;    // time.ramp_convective_times: the inflow ramps up from rest over this
  std::int64_t steps = 0;              // time.steps: > 0 overrides convective_times

  // output
  std::int64_t output_every = 500;     // output.every (steps); 0 = no field output
  std::vector<std::string> fields = {"velocity", "pressure", "vorticity", "mask"};
  std::vector<std::string> formats = {"hdf5", "vtk"};
  std::string output_precision = "fp32";  // output.precision: fp32 | fp16 (HDF5 float datasets; VTK stays fp32)
  bool averages = false;               // output.averages.enabled: the mean fields over the averaging window
  std::int64_t averages_every = 0;     // output.averages.every (steps between samples); left out: forces.every
  std::int64_t forces_every = 10;      // forces.every (steps)
  double forces_reference_area = 0;    // forces.reference_area (reference lengths²), 3D bodies; 0: the body's
  bool has_moment_point = false;       // forces.moment_point given
  std::array<double, 3> forces_moment_point = {0, 0, 0};  // reference lengths from the body's pivot
  std::int64_t checkpoint_every = kCheckpointAuto;  // checkpoint.every (steps), 0 = off; left out: 10 % of the run
  std::int64_t watchdog_every = 100;   // watchdog.every (steps): scan the state for NaN/Inf and runaway speeds
  double watchdog_max_speed = 0.4;     // watchdog.max_speed (cells/step); the lattice sound speed is 0.577
  std::array<int, 3> ranks_grid = {0, 0, 0};  // parallel.ranks_grid: MPI ranks along x, y, z (zeros: chosen)

  // refinement.boxes: level ℓ + 1's region per entry, from (x, y[, z]) to (x, y[, z]) in reference lengths from
  // the body's pivot (2D: z entries 0); each inside the one before. Empty: one uniform grid.
  struct RefinementBox {
    std::array<double, 3> from{0, 0, 0}, to{0, 0, 0};
  };
  std::vector<RefinementBox> refinement_boxes;
  // refinement.band's levels (0: none): the loader turned the band into refinement_boxes (refinement_section.cpp).
  int refinement_band_levels = 0;

  std::string yaml_text;               // the case exactly as run (after overrides), re-emitted
};

// Bad input in a case (or sweep, or geometry) file or a --set: the message already names file, line, key path,
// what was expected and what to do; single problems also carry those parts (InputError::problems()).
class CaseError : public InputError {
 public:
  using InputError::InputError;
};

// Read, apply --set overrides ("a.b.c=value"), validate. Throws CaseError on any problem.
Case load_case(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

// The same for a case given as text (the Python module's dicts): messages name `label` where they would name the
// file; `file` stands for the file it would be (relative paths in the case resolve against its folder, and its stem
// is the default case name).
Case load_case_text(const std::string& text, const std::string& label, const std::filesystem::path& file,
                    const std::vector<std::string>& overrides = {});

inline int dimensions(Stencil s) { return s == Stencil::D2Q9 ? 2 : 3; }

// A half wing on the symmetry plane z = 0 (the low z face is then a symmetry plane).
inline bool is_half_model(const Case& c) { return c.geometry == GeometryType::Wing && c.wing_half; }

// Bodies that exist only in 3D (triangle meshes).
inline bool is_3d_body(GeometryType g) { return g == GeometryType::Wing || g == GeometryType::Stl; }

// Steps between checkpoints for a run of `total_steps`: checkpoint.every, or with the key left out a tenth of the
// run (at least 1). 0: none (a graceful stop still writes one).
inline std::int64_t checkpoint_interval(const Case& c, std::int64_t total_steps) {
  if (c.checkpoint_every != kCheckpointAuto) return c.checkpoint_every;
  return total_steps >= 10 ? (total_steps + 9) / 10 : 1;
}

}  // namespace aerolbm
