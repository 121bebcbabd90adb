// Values of the right type that break a rule: ranges, enumerations, NACA codes, airfoil files, list lengths for
// the stencil, and the rules that tie several keys together (periodic pairs, body inside the domain, τ).
#include <gtest/gtest.h>

#include "src/case/case.hpp"
#include "src/case/make_body.hpp"
#include "src/case/units.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;
using case_test::load_error;
using case_test::sketch_with;
using case_test::TempDir;

// Loads the sketch with one line replaced and returns the error message.
std::string sketch_error(int line, const std::string& replacement, std::string* file_out = nullptr) {
  static int n = 0;
  TempDir dir;
  const auto file = dir.write("rule" + std::to_string(n++) + ".yaml", sketch_with(line, replacement));
  if (file_out) *file_out = file.string();
  return load_error(file);
}

TEST(CaseRules, MachAboveLimitNamesTheFlag) {
  std::string file;
  const std::string msg = sketch_error(3, "physics: {reynolds: 1000, mach: 0.45}", &file);
  EXPECT_EQ(msg, file +
                     ":3: physics.mach: expected a number in (0, 0.3], got 0.45. Lower the Mach number "
                     "(compressibility errors grow as Ma^2), or set physics.allow_high_mach: true.");
}

TEST(CaseRules, MachNeverAboveSevenTenths) {
  const std::string msg = sketch_error(3, "physics: {reynolds: 1000, mach: 0.8, allow_high_mach: true}");
  EXPECT_TRUE(Contains(msg, ":3: physics.mach: expected a number in (0, 0.7], got 0.8."));
}

TEST(CaseRules, OutOfRangeValuesGiveTheRange) {
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: 0, mach: 0.1}"),
                       ":3: physics.reynolds: expected a number in (0, 1e7], got 0."));
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: 2e7, mach: 0.1}"),
                       ":3: physics.reynolds: expected a number in (0, 1e7], got 2e7."));
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: 1000, mach: 0.1, angle_of_attack_deg: 95}"),
                       ":3: physics.angle_of_attack_deg: expected a number in [-90, 90], got 95."));
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: 1000, mach: 0.1, body_force: [0.02, 0]}"),
                       ":3: physics.body_force[0]: expected a number in (-0.01, 0.01), got 0.02."));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"0012\", chord_cells: 4}"),
                       ":4: geometry.chord_cells: expected a number in [8, 100000], got 4."));
  EXPECT_TRUE(Contains(sketch_error(6, "lattice: {trt_magic: 0}"),
                       ":6: lattice.trt_magic: expected a number in (0, 1], got 0."));
  EXPECT_TRUE(Contains(sketch_error(6, "lattice: {tau_min: 0.5}"),
                       ":6: lattice.tau_min: expected a number in (0.5, 2], got 0.5."));
  EXPECT_TRUE(Contains(sketch_error(6, "lattice: {les: {model: smagorinsky, constant: 0.6}}"),
                       ":6: lattice.les.constant: expected a number in (0, 0.5], got 0.6."));
  EXPECT_TRUE(Contains(sketch_error(8, "time: {convective_times: 0}"),
                       ":8: time.convective_times: expected a number > 0, got 0."));
  EXPECT_TRUE(Contains(sketch_error(8, "time: {steps: -5}"), ":8: time.steps: expected a whole number >= 0, got -5."));
  EXPECT_TRUE(Contains(sketch_error(11, "checkpoint: {every: -1}"),
                       ":11: checkpoint.every: expected a whole number >= 0, got -1."));
  EXPECT_TRUE(Contains(sketch_error(5, "domain: {size_chords: [12, -6], body_position_chords: [3, 3]}"),
                       ":5: domain.size_chords[1]: expected a number > 0, got -6."));
}

// Re = 1e5 on 160 cells per chord gives τ ≈ 0.5003: refused as unstable without a turbulence model, accepted with
// Smagorinsky (the eddy viscosity raises τ where the flow is sheared).
TEST(CaseRules, SmagorinskyAdmitsHighReynoldsNumbers) {
  TempDir dir;
  const std::string high_re = "physics: {reynolds: 1e5, mach: 0.1, angle_of_attack_deg: 5}";
  std::string no_les = sketch_with(3, high_re);
  EXPECT_TRUE(Contains(load_error(dir.write("a.yaml", no_les)), "physics.reynolds: expected a relaxation time"));
  std::string les = no_les;
  const std::string off = "les: {model: none}";
  les.replace(les.find(off), off.size(), "les: {model: smagorinsky, constant: 0.16}");
  const Case c = load_case(dir.write("b.yaml", les));
  EXPECT_EQ(c.les_model, "smagorinsky");
  EXPECT_DOUBLE_EQ(c.les_constant, 0.16);
}

// The same τ ≈ 0.5003 is accepted with the entropic collision, without LES; the refusal names it as a way out.
TEST(CaseRules, EntropicCollisionAdmitsHighReynoldsNumbers) {
  TempDir dir;
  std::string no_les = sketch_with(3, "physics: {reynolds: 1e5, mach: 0.1, angle_of_attack_deg: 5}");
  EXPECT_TRUE(Contains(load_error(dir.write("a.yaml", no_les)), "or the entropic collision (lattice.collision: kbc)"));
  const std::string trt = "collision: trt";
  ASSERT_NE(no_les.find(trt), std::string::npos);
  no_les.replace(no_les.find(trt), trt.size(), "collision: kbc");
  const Case c = load_case(dir.write("b.yaml", no_les));
  EXPECT_EQ(c.collision, Collision::KBC);
  EXPECT_EQ(c.les_model, "none");
  // Below the hard floor the refusal names that floor, not lattice.tau_min, and does not offer the collision the
  // file already has.
  std::string too_high = no_les;
  const std::string re = "reynolds: 1e5, mach: 0.1";
  ASSERT_NE(too_high.find(re), std::string::npos);
  too_high.replace(too_high.find(re), re.size(), "reynolds: 1e7, mach: 0.02");
  const std::string e = load_error(dir.write("c.yaml", too_high));
  EXPECT_TRUE(Contains(e, "expected a relaxation time τ > 0.500001 (the floor of the entropic collision")) << e;
  EXPECT_TRUE(Contains(e, "physics.reynolds <= ")) << e;
  EXPECT_FALSE(Contains(e, "lattice.collision: kbc")) << e;
}

// WALE: its own default constant (Nicoud & Ducros' C_w) unless the file sets one; admitted at high Reynolds numbers as
// Smagorinsky is; refused with the aa and tiled kernels, which have no WALE path, naming the key and the way out.
TEST(CaseRules, WaleTakesItsConstantAndThePullKernel) {
  TempDir dir;
  std::string wale = sketch_with(3, "physics: {reynolds: 1e5, mach: 0.1, angle_of_attack_deg: 5}");
  const std::string off = "les: {model: none}";
  ASSERT_NE(wale.find(off), std::string::npos);
  wale.replace(wale.find(off), off.size(), "les: {model: wale}");
  const Case c = load_case(dir.write("a.yaml", wale));
  EXPECT_EQ(c.les_model, "wale");
  EXPECT_DOUBLE_EQ(c.les_constant, kWaleConstant);
  std::string set = wale;
  set.replace(set.find("les: {model: wale}"), 18, "les: {model: wale, constant: 0.3}");
  EXPECT_DOUBLE_EQ(load_case(dir.write("b.yaml", set)).les_constant, 0.3);
  std::string aa = wale;
  ASSERT_NE(aa.find("kernel: auto"), std::string::npos);
  aa.replace(aa.find("kernel: auto"), 12, "kernel: aa");
  const std::string msg = load_error(dir.write("c.yaml", aa));
  EXPECT_TRUE(Contains(msg, "lattice.kernel: expected pull or auto with lattice.les.model: wale, got aa."))
      << msg;
}

// boundaries.wall: wall_model (interpolated bounce-back plus the wall function) loads, and, like WALE, asks for
// the pull kernel.
TEST(CaseRules, WallModelTakesThePullKernel) {
  TempDir dir;
  const auto file = dir.write("w.yaml", sketch_with(3, "physics: {reynolds: 1e6, mach: 0.1, angle_of_attack_deg: 5}"));
  const Case c = load_case(file, {"boundaries.wall=wall_model", "lattice.collision=kbc"});
  EXPECT_EQ(c.wall, WallModel::WallFunction);
  const std::string msg = load_error(file, {"boundaries.wall=wall_model", "lattice.collision=kbc", "lattice.kernel=aa"});
  EXPECT_TRUE(Contains(msg, "lattice.kernel: expected pull or auto with boundaries.wall: wall_model, got aa.")) << msg;
}

// A wall-model face's probe (boundaries.wall_model_probe) is a cell centre in the wall's half of the channel.
TEST(CaseRules, WallModelProbeIsACellCentreNearTheWall) {
  TempDir dir;
  const auto file = dir.write("p.yaml", sketch_with(7, "boundaries: {inlet: velocity, outlet: pressure, lateral: wall_model}"));
  EXPECT_DOUBLE_EQ(load_case(file).wall_model_probe, 1.5);
  EXPECT_DOUBLE_EQ(load_case(file, {"boundaries.wall_model_probe=3.5"}).wall_model_probe, 3.5);
  const std::string between = load_error(file, {"boundaries.wall_model_probe=2.7"});
  EXPECT_TRUE(Contains(between, "boundaries.wall_model_probe: expected a cell centre's distance from the wall: 1.5, "
                                "2.5, 3.5, ..., got 2.7.")) << between;
  const std::string wall_row = load_error(file, {"boundaries.wall_model_probe=0.5"});
  EXPECT_TRUE(Contains(wall_row, "boundaries.wall_model_probe: expected a number in [1.5, 64.5], got 0.5.")) << wall_row;
  // geometry.chord_cells 16: 6 chords = 96 cells between the walls, so the probe stays below 48.
  const std::string far = load_error(file, {"geometry.chord_cells=16", "boundaries.wall_model_probe=50.5"});
  EXPECT_TRUE(Contains(far, "boundaries.wall_model_probe: expected less than half the 96 cells between the walls, "
                            "got 50.5.")) << far;
}

TEST(CaseRules, NonFiniteNumbersAreRefused) {
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: .inf, mach: 0.1}"),
                       ":3: physics.reynolds: expected a finite number in (0, 1e7], got .inf."));
}

TEST(CaseRules, BadEnumListsTheAllowedValues) {
  const std::string msg = sketch_error(6, "lattice: {stencil: D2Q8, collision: mrt, precision: FP32}");
  EXPECT_TRUE(Contains(msg,
                       ":6: lattice.stencil: expected one of D2Q9, D3Q19 or D3Q27, got 'D2Q8'. "
                       "Did you mean 'D2Q9'?"));
  EXPECT_TRUE(Contains(msg, ":6: lattice.collision: expected one of bgk, trt or kbc, got 'mrt'."));
  EXPECT_TRUE(Contains(msg,
                       ":6: lattice.precision: expected one of fp32, fp64 or fp16s, got 'FP32'. "
                       "Did you mean 'fp32'?"));
  EXPECT_TRUE(Contains(sketch_error(7, "boundaries: {lateral: free}"),
                       ":7: boundaries.lateral: expected one of farfield, slip, wall, periodic or wall_model, got 'free'."));
  // The far field's numbers: where in the file, which key, the range, what to do.
  const std::string sponge = sketch_error(7, "boundaries: {sponge: {strength: 0.8}}");
  EXPECT_TRUE(Contains(sponge, ":7: boundaries.sponge.strength")) << sponge;
  EXPECT_TRUE(Contains(sponge, "0.02-0.1 absorbs")) << sponge;
  EXPECT_TRUE(Contains(sketch_error(7, "boundaries: {sponge: {width_chords: -1}}"), ":7: boundaries.sponge.width_chords"));
  EXPECT_TRUE(Contains(sketch_error(7, "boundaries: {outlet_relaxation: 20}"), ":7: boundaries.outlet_relaxation"));
  EXPECT_TRUE(Contains(sketch_error(8, "time: {ramp_convective_times: -2}"), ":8: time.ramp_convective_times"));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca5, code: \"23012\"}"),
                       ":4: geometry.type: expected one of naca4, selig, cylinder, wing, stl or none, got 'naca5'. "
                       "Did you mean 'naca4'?"));
}

TEST(CaseRules, BadOrRepeatedListEntries) {
  EXPECT_TRUE(Contains(sketch_error(9, "output: {fields: [velocity, vorticty]}"),
                       ":9: output.fields[1]: expected one of velocity, pressure, density, vorticity, q_criterion or mask, got "
                       "'vorticty'. Did you mean 'vorticity'?"));
  EXPECT_TRUE(Contains(sketch_error(9, "output: {fields: [velocity, mask, velocity]}"),
                       ":9: output.fields[2]: expected each entry at most once, got 'velocity' a second time."));
  EXPECT_TRUE(Contains(sketch_error(9, "output: {formats: [hdf5, csv]}"),
                       ":9: output.formats[1]: expected one of hdf5 or vtk, got 'csv'."));
}

TEST(CaseRules, CaseNameMustBeSafeForFileNames) {
  EXPECT_TRUE(Contains(sketch_error(2, "case: {name: \"my case\"}"),
                       ":2: case.name: expected a name made of letters, digits, '_', '.' and '-', got the quoted "
                       "string \"my case\"."));
}

TEST(CaseRules, RequiredKeysAndSections) {
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: 1000}"),
                       ":3: physics.mach: expected a number in (0, 0.3], got nothing (the key is missing). Add "
                       "physics.mach"));
  EXPECT_TRUE(Contains(sketch_error(3, "# no physics"),
                       ":1: physics: expected a 'physics' section with at least reynolds and mach, got nothing"));
  EXPECT_TRUE(Contains(sketch_error(4, "# no geometry"), ":1: geometry: expected a 'geometry' section"));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {code: \"0012\"}"),
                       ":4: geometry.type: expected one of naca4, selig, cylinder, wing, stl or none, got nothing"));
}

TEST(CaseRules, NacaCodeWrittenAsNumberAsksForQuotes) {
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: 12}"),
                       ":4: geometry.code: expected a 4-digit NACA code in quotes such as \"0012\" or \"2412\", got "
                       "the number 12. YAML reads unquoted digits as a number and drops leading zeros; quote it: "
                       "code: \"0012\"."));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: 2412}"), "quote it: code: \"2412\"."));
}

TEST(CaseRules, NacaCodeDigitsFollowTheSeries) {
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"0050\"}"),
                       ":4: geometry.code: expected thickness digits (the last two) from 01 to 40"));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"0000\"}"), "from 01 to 40"));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"0412\"}"),
                       "both zero or both non-zero, got the quoted string \"0412\". Without camber the position "
                       "digit must be 0: use \"0012\"."));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"2012\"}"), "e.g. \"2412\"."));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"NACA0012\"}"),
                       "Write only the digits: code: \"0012\"."));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"123\"}"), "Give exactly four digits"));
}

TEST(CaseRules, KeysOfAnotherGeometryTypeAreRefused) {
  const std::string msg = sketch_error(4, "geometry: {type: cylinder, chord_cells: 40, code: \"0012\"}");
  EXPECT_TRUE(Contains(msg,
                       ":4: geometry.chord_cells: expected only the keys of a cylinder geometry (type, "
                       "diameter_cells), got 'chord_cells'. A cylinder's reference length is diameter_cells; "
                       "rename it."));
  EXPECT_TRUE(Contains(msg, "'code' belongs to geometry type naca4; remove it."));
}

TEST(CaseRules, MissingSeligFile) {
  TempDir dir;
  const auto file = dir.write("sel.yaml", sketch_with(4, "geometry: {type: selig, file: airfoils/nope.dat}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() +
                                ":4: geometry.file: expected an existing Selig .dat file, got no file "
                                "at '" +
                                (dir.path() / "airfoils/nope.dat").string() + "'."));
  EXPECT_TRUE(Contains(msg, "relative paths start from the case file's folder"));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: selig}"), ":4: geometry.file: expected the path of a Selig"));
}

TEST(CaseRules, SeligFileThatIsAFolder) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "airfoils");
  const auto file = dir.write("sel.yaml", sketch_with(4, "geometry: {type: selig, file: airfoils}"));
  EXPECT_TRUE(Contains(load_error(file), ":4: geometry.file: expected a Selig .dat file, got the folder"));
}

TEST(CaseRules, PeriodicMustPairInletAndOutlet) {
  EXPECT_TRUE(Contains(sketch_error(7, "boundaries: {inlet: periodic}"),
                       ":7: boundaries.inlet: expected boundaries.inlet and boundaries.outlet both periodic or "
                       "neither, got inlet: periodic with outlet: pressure."));
  EXPECT_TRUE(Contains(sketch_error(7, "boundaries: {outlet: periodic}"), ":7: boundaries.outlet: "));
}

TEST(CaseRules, VectorLengthsFollowTheStencil) {
  EXPECT_TRUE(Contains(sketch_error(5, "domain: {size_chords: [12, 6, 2], body_position_chords: [3, 3]}"),
                       ":5: domain.size_chords: expected 2 numbers (x, y) for lattice.stencil D2Q9, got 3 numbers. "
                       "Give 2 numbers (x, y), or choose a 3D stencil"));
  EXPECT_TRUE(Contains(sketch_error(6, "lattice: {stencil: D3Q27}"),
                       ":5: domain.size_chords: expected 3 numbers (x, y, z) for lattice.stencil D3Q27, got 2 "
                       "numbers."));
  EXPECT_TRUE(Contains(sketch_error(3, "physics: {reynolds: 1000, mach: 0.1, body_force: [0, 0, 0]}"),
                       ":3: physics.body_force: expected 2 numbers for lattice.stencil D2Q9, got 3 numbers."));
}

TEST(CaseRules, BodyMustSitInsideTheDomain) {
  EXPECT_TRUE(Contains(sketch_error(5, "domain: {size_chords: [12, 6], body_position_chords: [13, 3]}"),
                       ":5: domain.body_position_chords: expected a position inside the domain, 0 < x < 12 chords, "
                       "got x = 13."));
  // The pivot is inside but the leading edge (a quarter chord ahead) is not.
  EXPECT_TRUE(Contains(sketch_error(5, "domain: {size_chords: [12, 6], body_position_chords: [0.2, 3]}"),
                       ":5: domain.body_position_chords: expected a body inside the domain [0, 12] x [0, 6] chords"));
}

TEST(CaseRules, GridMustBeNeitherTinyNorHuge) {
  EXPECT_TRUE(Contains(sketch_error(5, "domain: {size_chords: [12, 0.01], body_position_chords: [3, 0.005]}"),
                       ":5: domain.size_chords: expected a grid of at least 4 cells per direction and at most 4e9 "
                       "cells in all, got 1920 x 2 = 3840 cells."));
  EXPECT_TRUE(Contains(sketch_error(4, "geometry: {type: naca4, code: \"0012\", chord_cells: 20000}"),
                       "got 240000 x 120000 = 2.88e10 cells."));
}

TEST(CaseRules, AveragingWindowFitsTheRun) {
  EXPECT_TRUE(Contains(sketch_error(8, "time: {convective_times: 4, average_last: 5}"),
                       ":8: time.average_last: expected at most time.convective_times = 4, got 5."));
}

TEST(CaseRules, UnstableTauSaysWhatToChange) {
  const std::string msg = sketch_error(3, "physics: {reynolds: 3000, mach: 0.05}");
  // L = 160, u = 0.05/sqrt(3): ν = 0.0015396, τ = 0.504619 <= 0.505.
  EXPECT_TRUE(Contains(msg,
                       ":3: physics.reynolds: expected a relaxation time τ > lattice.tau_min = 0.505, got "
                       "τ = 0.504619 (ν = 0.00154 in lattice units from Re = 3000, Ma = 0.05, L = 160 cells)."));
  EXPECT_TRUE(Contains(msg, "geometry.chord_cells >= 174"));
  EXPECT_TRUE(Contains(msg, "physics.mach >= 0.0542"));
  EXPECT_TRUE(Contains(msg, "physics.reynolds <= 2771"));
}

TEST(CaseRules, StabilityAdviceIsEnough) {
  // Each suggested change on its own must give τ > tau_min.
  Case c;
  c.reynolds = 3000, c.mach = 0.05, c.chord_cells = 174;
  EXPECT_GT(lattice_units(c).tau, c.tau_min);
  c.chord_cells = 160, c.mach = 0.0542;
  EXPECT_GT(lattice_units(c).tau, c.tau_min);
  c.mach = 0.05, c.reynolds = 2771;
  EXPECT_GT(lattice_units(c).tau, c.tau_min);
}

// refinement.boxes: each entry a box of 2 × D numbers from the body's pivot, inside the domain and inside the box
// before it; what refined levels do not carry yet (other kernels, MPI) is refused.
// The sketch with `refinement: <refinement>` on line 12, and line `line` (1-11) replaced where one is given.
std::string refinement_error(const std::string& refinement, int line = 0, const std::string& replacement = "") {
  std::string text = sketch_with(11, "checkpoint: {every: 0}\nrefinement: " + refinement);
  if (line > 0) {
    std::size_t start = 0;
    for (int n = 1; n < line; ++n) start = text.find('\n', start) + 1;
    text.replace(start, text.find('\n', start) - start, replacement);
  }
  static int n = 0;
  TempDir dir;
  return load_error(dir.write("refined" + std::to_string(n++) + ".yaml", text));
}
// The same with refinement.boxes.
std::string refined_error(const std::string& boxes, int line = 0, const std::string& replacement = "") {
  return refinement_error("{boxes: " + boxes + "}", line, replacement);
}

TEST(CaseRules, RefinementBoxesFitTheDomainAndEachOther) {
  TempDir dir;
  const Case c = load_case(dir.write("ok.yaml", sketch_with(11, "checkpoint: {every: 0}\n"
                                                                "refinement: {boxes: [[-1, -0.8, 2.5, 0.8], [-0.4, -0.3, 1.2, 0.3]]}")));
  ASSERT_EQ(c.refinement_boxes.size(), 2u);
  EXPECT_DOUBLE_EQ(c.refinement_boxes[0].from[0], -1);
  EXPECT_DOUBLE_EQ(c.refinement_boxes[0].to[1], 0.8);
  EXPECT_DOUBLE_EQ(c.refinement_boxes[1].from[1], -0.3);
  EXPECT_DOUBLE_EQ(c.refinement_boxes[1].to[0], 1.2);
  EXPECT_TRUE(Contains(refined_error("[[-1, -0.5, 2]]"),
                       ":12: refinement.boxes[0]: expected 4 numbers: the box's low corner (x, y) then its high "
                       "corner, got 3 numbers."));
  EXPECT_TRUE(Contains(refined_error("[[1, -0.5, -1, 0.5]]"),
                       ":12: refinement.boxes[0]: expected a low corner below the high corner along every axis, got "
                       "from (1, -0.5) to (-1, 0.5), empty along x."));
  EXPECT_TRUE(Contains(refined_error("[[-4, -0.5, 2, 0.5]]"),
                       "refinement.boxes[0]: expected a box inside the domain: along x from -3 to 9 (the body's pivot "
                       "at 3 of 12 reference lengths), got from (-4, -0.5) to (2, 0.5)."));
  EXPECT_TRUE(Contains(refined_error("[[-1, -0.5, 2, 0.5], [-1.5, -0.2, 1, 0.2]]"),
                       "refinement.boxes[1]: expected a box inside the one before (level 1's, from (-1, -0.5) to "
                       "(2, 0.5)), got from (-1.5, -0.2) to (1, 0.2)."));
  EXPECT_TRUE(Contains(refined_error("3"), "refinement.boxes: expected a list of number lists like [[-1, -0.5, 2, 0.5]]"));
  EXPECT_TRUE(Contains(refined_error("[[-1, -0.5, 2, 0.5]]", 6,
                                     "lattice: {stencil: D2Q9, collision: trt, precision: fp32, kernel: aa}"),
                       "refinement.boxes: expected lattice.kernel pull or auto with refinement, got aa."));
  EXPECT_TRUE(Contains(refined_error("[[-1, -0.5, 2, 0.5]]", 5,
                                     "domain: {size_chords: [12.001, 6], body_position_chords: [3, 3]}"),
                       ":5: domain.size_chords: expected a whole number of cells along each axis with "
                               "refinement (size × reference cells), got 1920.16 cells along x."));
}

// refinement.band: nested boxes around the body's bounding box, the finest `thickness` beyond it, each coarser one
// the next grown by thickness × 2^(levels − ℓ), inside the domain; refused beside refinement.boxes, without a body,
// without its keys, or too thin to keep four cells of the level below between the body and the finest box.
TEST(CaseRules, RefinementBandMakesNestedBoxesAroundTheBody) {
  TempDir dir;
  const Case c = load_case(dir.write("band.yaml", sketch_with(11, "checkpoint: {every: 0}\n"
                                                                  "refinement: {band: {levels: 2, thickness: 0.1}}")));
  ASSERT_EQ(c.refinement_boxes.size(), 2u);
  EXPECT_EQ(c.refinement_band_levels, 2);
  const auto body = make_body(c)->bounds();
  for (int a = 0; a < 2; ++a) {
    const double pivot = c.body_position_chords[std::size_t(a)];
    const double lo = body[0][a] / c.chord_cells - pivot, hi = body[1][a] / c.chord_cells - pivot;
    EXPECT_NEAR(c.refinement_boxes[1].from[std::size_t(a)], lo - 0.1, 1e-12) << a;
    EXPECT_NEAR(c.refinement_boxes[1].to[std::size_t(a)], hi + 0.1, 1e-12) << a;
    EXPECT_NEAR(c.refinement_boxes[0].from[std::size_t(a)], lo - 0.3, 1e-12) << a;
    EXPECT_NEAR(c.refinement_boxes[0].to[std::size_t(a)], hi + 0.3, 1e-12) << a;
  }
  // The chord along x (the section at 5°: a little less), the thickness along y.
  EXPECT_NEAR(c.refinement_boxes[1].to[0] - c.refinement_boxes[1].from[0], 1.0 + 0.2, 0.01);
  // A band that reaches a face ends there: level 1's box grown by 3 chords stops at the domain's low x face.
  const Case wide = load_case(dir.write("wide.yaml", sketch_with(11, "checkpoint: {every: 0}\n"
                                                                     "refinement: {band: {levels: 2, thickness: 1}}")));
  EXPECT_DOUBLE_EQ(wide.refinement_boxes[0].from[0], -3.0);  // the pivot at 3 of 12 reference lengths
  EXPECT_TRUE(Contains(refinement_error("{boxes: [[-1, -0.5, 2, 0.5]], band: {levels: 1, thickness: 0.1}}"),
                       "refinement.band: expected refinement.boxes or refinement.band, not both, got both."));
  EXPECT_TRUE(Contains(refinement_error("{band: {levels: 2}}"), "refinement.band.thickness: expected the band's thickness"));
  EXPECT_TRUE(Contains(refinement_error("{band: {levels: 7, thickness: 0.1}}"), "refinement.band.levels: expected"));
  // 0.01 × 160 × 2 = 3.2 cells.
  EXPECT_TRUE(Contains(refinement_error("{band: {levels: 2, thickness: 0.01}}"),
                       "refinement.band.thickness: expected at least four cells of the level below the finest "
                       "between the body and the finest box"));
  EXPECT_TRUE(Contains(refinement_error("{band: {levels: 1, thickness: 0.1}}", 4, "geometry: {type: none, reference_cells: 160}"),
                       "refinement.band: expected a body to refine around"));
}

}  // namespace
}  // namespace aerolbm
