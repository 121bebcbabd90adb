// Valid case files: every key lands in the right Case field, defaults fill the gaps, and the re-emitted text
// loads back to the same Case.
#include <gtest/gtest.h>

#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/solver/domain.hpp"
#include "tests/cases_dir.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;
using case_test::kSketch;
using case_test::TempDir;

// Every case file the repository ships (cases/ and cases/ci/) loads and passes the loader's rules: a schema or rule
// change that breaks one fails here, not in a user's first run.
TEST(CaseLoad, EveryShippedCaseLoads) {
  namespace fs = std::filesystem;
  int files = 0;
  const fs::path root = testing::cases_dir();
  for (const fs::path& dir : {root, root / "ci"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".yaml") continue;
      ++files;
      EXPECT_NO_THROW(load_case(e.path())) << e.path();
    }
  }
  EXPECT_GE(files, 12) << "the shipped cases were not found under " << root;
}

void expect_same_case(const Case& a, const Case& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.reynolds, b.reynolds);
  EXPECT_EQ(a.mach, b.mach);
  EXPECT_EQ(a.angle_of_attack_deg, b.angle_of_attack_deg);
  EXPECT_EQ(a.allow_high_mach, b.allow_high_mach);
  EXPECT_EQ(a.body_force, b.body_force);
  EXPECT_EQ(a.initial_noise, b.initial_noise);
  EXPECT_EQ(a.initial_velocity, b.initial_velocity);
  EXPECT_EQ(a.geometry, b.geometry);
  EXPECT_EQ(a.naca_code, b.naca_code);
  EXPECT_EQ(a.selig_file, b.selig_file);
  EXPECT_EQ(a.chord_cells, b.chord_cells);
  EXPECT_EQ(a.size_chords, b.size_chords);
  EXPECT_EQ(a.body_position_chords, b.body_position_chords);
  EXPECT_EQ(a.stencil, b.stencil);
  EXPECT_EQ(a.collision, b.collision);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.trt_magic, b.trt_magic);
  EXPECT_EQ(a.les_model, b.les_model);
  EXPECT_EQ(a.les_constant, b.les_constant);
  EXPECT_EQ(a.tau_min, b.tau_min);
  EXPECT_EQ(a.inlet, b.inlet);
  EXPECT_EQ(a.outlet, b.outlet);
  EXPECT_EQ(a.lateral, b.lateral);
  EXPECT_EQ(a.wall, b.wall);
  EXPECT_EQ(a.inlet_profile, b.inlet_profile);
  EXPECT_EQ(a.wall_model_probe, b.wall_model_probe);
  EXPECT_EQ(a.convective_times, b.convective_times);
  EXPECT_EQ(a.average_last, b.average_last);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.output_every, b.output_every);
  EXPECT_EQ(a.fields, b.fields);
  EXPECT_EQ(a.formats, b.formats);
  EXPECT_EQ(a.forces_every, b.forces_every);
  EXPECT_EQ(a.checkpoint_every, b.checkpoint_every);
  ASSERT_EQ(a.refinement_boxes.size(), b.refinement_boxes.size());
  for (std::size_t i = 0; i < a.refinement_boxes.size(); ++i) {
    EXPECT_EQ(a.refinement_boxes[i].from, b.refinement_boxes[i].from);
    EXPECT_EQ(a.refinement_boxes[i].to, b.refinement_boxes[i].to);
  }
}

// External flow unless told otherwise: a characteristic outlet, far-field sides with a sponge in front of them
// and of the outlet, and the inflow ramp of one convective time.
TEST(CaseLoad, BoundariesDefaultToTheFarField) {
  TempDir dir;
  std::string text = kSketch;
  const std::string line = "boundaries: {inlet: velocity, outlet: pressure, lateral: slip, wall: interpolated}";
  ASSERT_NE(text.find(line), std::string::npos);
  text.replace(text.find(line), line.size(), "boundaries: {inlet: velocity}");
  const Case c = load_case(dir.write("far.yaml", text));
  EXPECT_EQ(c.outlet, FaceBC::Pressure);
  EXPECT_TRUE(c.characteristic_outlet);
  EXPECT_EQ(c.lateral, FaceBC::FarField);
  EXPECT_EQ(c.span, FaceBC::FarField);
  const LatticeUnits u = lattice_units(c);
  const PhysicsParams p = physics_params(c, u);
  EXPECT_TRUE(p.characteristic_outlet);
  EXPECT_GT(p.outlet_k, 0.0);
  EXPECT_EQ(p.faces[2], FaceBC::FarField);
  EXPECT_EQ(p.sponge_faces, 0b1110);  // outlet (face 1) and the two y faces; a 2D run's z faces are periodic
  EXPECT_DOUBLE_EQ(p.sponge_cells, 0.5 * u.length_cells);
  EXPECT_EQ(p.ramp_steps, u.steps_per_convective_time);
  // A fixed-density outlet and slip sides have no sponge.
  const Case d = load_case(dir.write("closed.yaml", kSketch));
  EXPECT_EQ(physics_params(d, lattice_units(d)).sponge_faces, 0);
}

TEST(CaseLoad, DesignSketchFillsEveryField) {
  TempDir dir;
  const auto file = dir.write("sketch.yaml", kSketch);
  const Case c = load_case(file);
  EXPECT_EQ(c.source_file, file);
  EXPECT_EQ(c.name, "naca0012_re1000_aoa5");
  EXPECT_EQ(c.description, "NACA 0012, Re=1000, 5 degrees");
  EXPECT_EQ(c.reynolds, 1000);
  EXPECT_EQ(c.mach, 0.1);
  EXPECT_EQ(c.angle_of_attack_deg, 5);
  EXPECT_EQ(c.geometry, GeometryType::Naca4);
  EXPECT_EQ(c.naca_code, "0012");
  EXPECT_EQ(c.chord_cells, 160);
  EXPECT_EQ(c.size_chords[0], 12);
  EXPECT_EQ(c.size_chords[1], 6);
  EXPECT_DOUBLE_EQ(c.size_chords[2], 1.0 / 160);  // a 2D run is one cell thick
  EXPECT_EQ(c.body_position_chords[0], 3);
  EXPECT_EQ(c.body_position_chords[1], 3);
  EXPECT_EQ(c.stencil, Stencil::D2Q9);
  EXPECT_EQ(c.collision, Collision::TRT);
  EXPECT_EQ(c.precision, Precision::FP32);
  EXPECT_EQ(c.kernel, KernelVariant::Auto);
  EXPECT_EQ(c.les_model, "none");
  EXPECT_EQ(c.inlet, FaceBC::Velocity);
  EXPECT_EQ(c.outlet, FaceBC::Pressure);
  EXPECT_FALSE(c.characteristic_outlet);  // outlet: pressure
  EXPECT_EQ(c.outlet_relaxation, 1.0);
  EXPECT_EQ(c.lateral, FaceBC::Slip);
  EXPECT_EQ(c.span, FaceBC::Slip);
  EXPECT_EQ(c.sponge_width_chords, 0.5);
  EXPECT_EQ(c.sponge_strength, 0.05);
  EXPECT_EQ(c.ramp_convective_times, 1.0);
  EXPECT_EQ(c.wall, WallModel::Interpolated);
  EXPECT_EQ(c.convective_times, 20);
  EXPECT_EQ(c.average_last, 5);
  EXPECT_EQ(c.output_every, 500);
  EXPECT_EQ(c.fields, (std::vector<std::string>{"velocity", "pressure", "vorticity", "mask"}));
  EXPECT_EQ(c.formats, (std::vector<std::string>{"hdf5", "vtk"}));
  EXPECT_EQ(c.forces_every, 10);
  EXPECT_EQ(c.checkpoint_every, 0);
}

TEST(CaseLoad, OptionalSectionsTakeDefaults) {
  TempDir dir;
  const auto file = dir.write("minimal_case.yaml",
                              "schema_version: 1\n"
                              "physics: {reynolds: 200, mach: 0.05}\n"
                              "geometry: {type: naca4, code: \"2412\"}\n");
  const Case c = load_case(file);
  const Case d;                       // the header's defaults are the documented ones
  EXPECT_EQ(c.name, "minimal_case");  // from the file name
  EXPECT_EQ(c.description, "");
  EXPECT_EQ(c.naca_code, "2412");
  EXPECT_EQ(c.chord_cells, 160);
  EXPECT_EQ(c.angle_of_attack_deg, 0);
  EXPECT_FALSE(c.allow_high_mach);
  EXPECT_EQ(c.body_force, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(c.size_chords[0], 12);
  EXPECT_EQ(c.size_chords[1], 6);
  EXPECT_EQ(c.stencil, Stencil::D2Q9);
  EXPECT_EQ(c.collision, Collision::TRT);
  EXPECT_EQ(c.precision, Precision::FP32);
  EXPECT_EQ(c.kernel, KernelVariant::Auto);
  EXPECT_EQ(c.trt_magic, 0.1875);
  EXPECT_EQ(c.tau_min, 0.505);
  EXPECT_EQ(c.les_model, "none");
  EXPECT_EQ(c.les_constant, 0.17);
  EXPECT_EQ(c.inlet_profile, InletProfile::Uniform);
  EXPECT_EQ(c.wall, WallModel::Interpolated);
  EXPECT_EQ(c.convective_times, 20);
  EXPECT_EQ(c.average_last, 5);
  EXPECT_EQ(c.steps, 0);
  EXPECT_EQ(c.output_every, 500);
  EXPECT_EQ(c.fields, d.fields);
  EXPECT_EQ(c.formats, d.formats);
  EXPECT_EQ(c.forces_every, 10);
  EXPECT_EQ(c.checkpoint_every, kCheckpointAuto);  // left out: a tenth of the run
  EXPECT_EQ(checkpoint_interval(c, 2000), 200);
  EXPECT_EQ(checkpoint_interval(c, 2001), 201);
  EXPECT_EQ(checkpoint_interval(c, 5), 1);
  EXPECT_EQ(c.watchdog_every, 100);
  EXPECT_EQ(c.watchdog_max_speed, 0.4);
}

TEST(CaseLoad, BlockStyleThreeDimensionalCylinderInADuct) {
  TempDir dir;
  const auto file = dir.write("cyl3d.yaml", R"(# Flow past a cylinder spanning a duct (Schäfer-Turek 3D-1Z style)
schema_version: 1
case:
  name: cyl3d.re20
  description: 'cylinder in a duct: Re=20'
physics:
  reynolds: 20
  mach: 0.05
  body_force: [0, 0, 0]
geometry:
  type: cylinder
  diameter_cells: 20
domain:
  size_chords: [25, 4.1, 4.1]
  body_position_chords: [5, 2, 2.05]
lattice:
  stencil: D3Q19
  collision: bgk
  precision: fp64
  kernel: tiled
  tau_min: 0.51
  les:
    model: none
    constant: 0.1
boundaries:
  inlet: velocity
  outlet: pressure
  lateral: wall
  wall: halfway
  inlet_profile: parabolic
time:
  convective_times: 8
  average_last: 2
  steps: 1e3
output:
  every: 0
  fields: []
  formats: [hdf5]
forces: {every: 1}
checkpoint: {every: 5000}
)");
  const Case c = load_case(file);
  EXPECT_EQ(c.name, "cyl3d.re20");
  EXPECT_EQ(c.description, "cylinder in a duct: Re=20");
  EXPECT_EQ(c.geometry, GeometryType::Cylinder);
  EXPECT_EQ(c.chord_cells, 20);  // diameter_cells is stored as the reference length
  EXPECT_EQ(c.stencil, Stencil::D3Q19);
  EXPECT_EQ(c.size_chords, (std::array<double, 3>{25, 4.1, 4.1}));
  EXPECT_EQ(c.body_position_chords, (std::array<double, 3>{5, 2, 2.05}));
  EXPECT_EQ(c.collision, Collision::BGK);
  EXPECT_EQ(c.precision, Precision::FP64);
  EXPECT_EQ(c.kernel, KernelVariant::Tiled);
  EXPECT_EQ(c.tau_min, 0.51);
  EXPECT_EQ(c.les_model, "none");
  EXPECT_EQ(c.les_constant, 0.1);
  EXPECT_EQ(c.lateral, FaceBC::Wall);
  EXPECT_EQ(c.wall, WallModel::HalfwayBounceBack);
  EXPECT_EQ(c.inlet_profile, InletProfile::Parabolic);
  EXPECT_EQ(c.steps, 1000);  // 1e3 is a whole number
  EXPECT_EQ(c.output_every, 0);
  EXPECT_TRUE(c.fields.empty());
  EXPECT_EQ(c.formats, std::vector<std::string>{"hdf5"});
  EXPECT_EQ(c.forces_every, 1);
  EXPECT_EQ(c.checkpoint_every, 5000);
}

TEST(CaseLoad, PeriodicChannelWithoutBody) {
  TempDir dir;
  const auto file = dir.write("poiseuille.yaml", R"(schema_version: 1
physics: {reynolds: 10, mach: 0.05, body_force: [1.0e-6, 0]}
geometry: {type: none}
domain: {size_chords: [0.25, 1]}
boundaries: {inlet: periodic, outlet: periodic, lateral: wall}
)");
  const Case c = load_case(file);
  EXPECT_EQ(c.geometry, GeometryType::None);
  EXPECT_EQ(c.chord_cells, 32);  // reference_cells default
  EXPECT_EQ(c.body_force, (std::array<double, 3>{1e-6, 0, 0}));
  EXPECT_EQ(c.inlet, FaceBC::Periodic);
  EXPECT_EQ(c.outlet, FaceBC::Periodic);
  EXPECT_EQ(c.lateral, FaceBC::Wall);
}

TEST(CaseLoad, SeligFileIsResolvedFromTheCaseFolder) {
  TempDir dir;
  dir.write("airfoils/e387.dat", "E387\n1.0 0.0\n0.5 0.05\n0.0 0.0\n0.5 -0.03\n1.0 0.0\n");
  const auto file = dir.write("cases/e387.yaml", R"(schema_version: 1
physics: {reynolds: 2000, mach: 0.1, angle_of_attack_deg: -2.5}
geometry: {type: selig, file: ../airfoils/e387.dat, chord_cells: 128}
)");
  const Case c = load_case(file);
  EXPECT_EQ(c.geometry, GeometryType::Selig);
  EXPECT_TRUE(c.selig_file.is_absolute());
  EXPECT_EQ(c.selig_file, (dir.path() / "airfoils/e387.dat").lexically_normal());
  EXPECT_EQ(c.chord_cells, 128);
  EXPECT_EQ(c.angle_of_attack_deg, -2.5);
}

TEST(CaseLoad, DefaultNameIsTheFileStemMadeSafe) {
  TempDir dir;
  const auto file = dir.write("my case (v2).yaml",
                              "schema_version: 1\nphysics: {reynolds: 100, mach: 0.1}\n"
                              "geometry: {type: cylinder, diameter_cells: 16}\n");
  EXPECT_EQ(load_case(file).name, "my_case__v2_");
}

TEST(CaseLoad, DefaultAveragingWindowShrinksToAShortRun) {
  TempDir dir;
  const auto file = dir.write("short.yaml", case_test::sketch_with(8, "time: {convective_times: 3}"));
  const Case c = load_case(file);
  EXPECT_EQ(c.convective_times, 3);
  EXPECT_EQ(c.average_last, 3);
}

TEST(CaseLoad, HighMachAllowedWhenAskedFor) {
  TempDir dir;
  const auto file =
      dir.write("fast.yaml", case_test::sketch_with(3, "physics: {reynolds: 1000, mach: 0.5, allow_high_mach: true}"));
  const Case c = load_case(file);
  EXPECT_EQ(c.mach, 0.5);
  EXPECT_TRUE(c.allow_high_mach);
}

TEST(CaseLoad, YamlTextLoadsBackToTheSameCase) {
  TempDir dir;
  const auto file = dir.write("sketch.yaml", kSketch);
  const Case a = load_case(file, {"flow.angle_of_attack_deg=8", "domain.size_chords=[14, 7]",
                                  "refinement.boxes=[[-1, -0.5, 2, 0.5], [-0.5, -0.25, 1, 0.25]]"});
  ASSERT_EQ(a.refinement_boxes.size(), 2u);
  EXPECT_TRUE(Contains(a.yaml_text, "refinement:"));
  EXPECT_TRUE(Contains(a.yaml_text, "code: \"0012\""));  // quoted, so YAML 1.1 readers do not see octal 10
  EXPECT_TRUE(Contains(a.yaml_text, "angle_of_attack_deg: 8"));
  EXPECT_TRUE(Contains(a.yaml_text, "# overrides: --set flow.angle_of_attack_deg=8 --set domain.size_chords=[14, 7] "
                                    "--set refinement.boxes=[[-1, -0.5, 2, 0.5], [-0.5, -0.25, 1, 0.25]]"));
  EXPECT_TRUE(Contains(a.yaml_text, "# source: " + file.string()));
  // Stored under another name, as in a run folder: the name must not change to the new file's stem.
  const auto copy = dir.write("run/case.yaml", a.yaml_text);
  Case b = load_case(copy);
  expect_same_case(a, b);
  EXPECT_EQ(b.angle_of_attack_deg, 8);
  EXPECT_EQ(b.size_chords[0], 14);
}

TEST(CaseLoad, YamlTextFillsDefaultNameAndAbsoluteAirfoilPath) {
  TempDir dir;
  dir.write("e387.dat", "E387\n1.0 0.0\n0.0 0.0\n1.0 0.0\n");
  const auto file = dir.write("e387_case.yaml",
                              "schema_version: 1\nphysics: {reynolds: 500, mach: 0.1}\n"
                              "geometry: {type: selig, file: e387.dat, chord_cells: 64}\n");
  const Case a = load_case(file);
  const auto copy = dir.write("elsewhere/deeper/case.yaml", a.yaml_text);
  const Case b = load_case(copy);
  expect_same_case(a, b);
  EXPECT_EQ(b.name, "e387_case");
  EXPECT_EQ(b.selig_file, (dir.path() / "e387.dat").lexically_normal());
}

TEST(CaseLoad, YamlTextKeepsSchemaOrderAndQuotesText) {
  TempDir dir;
  const auto file = dir.write("order.yaml",
                              "geometry: {type: naca4, code: \"0012\"}\n"
                              "physics: {mach: 0.1, reynolds: 1000}\n"
                              "case: {description: yes}\n"
                              "schema_version: 1\n");
  const Case c = load_case(file);
  EXPECT_EQ(c.description, "yes");
  const std::string& t = c.yaml_text;
  EXPECT_LT(t.find("schema_version"), t.find("case:"));
  EXPECT_LT(t.find("case:"), t.find("physics:"));
  EXPECT_LT(t.find("physics:"), t.find("geometry:"));
  EXPECT_LT(t.find("reynolds"), t.find("mach"));
  EXPECT_TRUE(Contains(t, "description: \"yes\""));  // a YAML 1.1 reader would otherwise see the boolean true
}

}  // namespace
}  // namespace aerolbm
