// --set overrides: applied before validation, checked like file values, blamed on the command line.
#include <gtest/gtest.h>

#include "src/case/case.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;
using case_test::kSketch;
using case_test::load_error;
using case_test::sketch_with;
using case_test::TempDir;

class CaseOverrides : public ::testing::Test {
 protected:
  TempDir dir;
  std::filesystem::path file = dir.write("sketch.yaml", kSketch);
};

TEST_F(CaseOverrides, ReplaceANumber) {
  const Case c = load_case(file, {"physics.mach=0.2"});
  EXPECT_EQ(c.mach, 0.2);
  EXPECT_EQ(c.reynolds, 1000);  // neighbours untouched
}

TEST_F(CaseOverrides, FlowIsAnAliasForPhysics) {
  EXPECT_EQ(load_case(file, {"flow.angle_of_attack_deg=8"}).angle_of_attack_deg, 8);
}

TEST_F(CaseOverrides, ValuesAreParsedAsYaml) {
  const Case c = load_case(
      file, {"domain.size_chords=[10,5]", "output.fields=[mask]", "physics.allow_high_mach=true", "physics.mach=0.4"});
  EXPECT_EQ(c.size_chords[0], 10);
  EXPECT_EQ(c.size_chords[1], 5);
  EXPECT_EQ(c.fields, std::vector<std::string>{"mask"});
  EXPECT_EQ(c.mach, 0.4);
}

TEST_F(CaseOverrides, NewKeysAndSectionsInTheSchemaAreCreated) {
  const auto minimal = dir.write("min.yaml",
                                 "schema_version: 1\nphysics: {reynolds: 100, mach: 0.1}\n"
                                 "geometry: {type: cylinder, diameter_cells: 20}\n");
  const Case c = load_case(minimal, {"lattice.les.model=none", "lattice.les.constant=0.12", "time.steps=250",
                                     "boundaries.inlet_profile=parabolic"});
  EXPECT_EQ(c.les_model, "none");
  EXPECT_EQ(c.les_constant, 0.12);
  EXPECT_EQ(c.steps, 250);
  EXPECT_EQ(c.inlet_profile, InletProfile::Parabolic);
}

TEST_F(CaseOverrides, TextKeysTakeTheCharactersAsTyped) {
  // The shell has already removed any quotes, so 0012 must stay "0012" rather than become a number.
  EXPECT_EQ(load_case(file, {"geometry.code=0012"}).naca_code, "0012");
  EXPECT_EQ(load_case(file, {"geometry.code=2412"}).naca_code, "2412");
  EXPECT_EQ(load_case(file, {"geometry.code=\"4415\""}).naca_code, "4415");
  EXPECT_EQ(load_case(file, {"case.description=sweep point 3: alpha=8"}).description, "sweep point 3: alpha=8");
}

// Found by fuzzing (tests/fuzz/regressions/case_file/override_with_newline.bin): the stored case lists the
// overrides in a '#' comment, and a line break in one ended the comment, so RUN/case.yaml did not load again.
TEST_F(CaseOverrides, AnOverrideWithALineBreakKeepsTheStoredCaseLoadable) {
  const Case c = load_case(file, {"domain.size_chords=[10,\n 5]"});
  EXPECT_EQ(c.size_chords[0], 10);
  const auto stored = dir.write("as_run.yaml", c.yaml_text);
  const Case again = load_case(stored);
  EXPECT_EQ(again.size_chords[0], 10);
  EXPECT_EQ(again.size_chords[1], 5);
  EXPECT_NE(c.yaml_text.find("--set domain.size_chords=[10,\\n 5]"), std::string::npos) << c.yaml_text;
}

TEST_F(CaseOverrides, LaterOverridesWin) {
  EXPECT_EQ(load_case(file, {"physics.mach=0.2", "flow.mach=0.15"}).mach, 0.15);
}

TEST_F(CaseOverrides, AnOverrideCanFixTheFile) {
  const auto fast = dir.write("fast.yaml", sketch_with(3, "physics: {reynolds: 1000, mach: 0.45}"));
  EXPECT_EQ(load_case(fast, {"physics.mach=0.1"}).mach, 0.1);
}

TEST_F(CaseOverrides, WithoutEqualsSign) {
  EXPECT_EQ(load_error(file, {"physics.mach"}),
            "command line (--set physics.mach): physics.mach: expected key.path=value, got no '='. Write it as --set "
            "physics.mach=VALUE.");
}

TEST_F(CaseOverrides, UnknownKeySuggestsTheClosest) {
  const std::string msg = load_error(file, {"physics.mahc=0.2"});
  EXPECT_TRUE(Contains(msg,
                       "command line (--set physics.mahc=0.2): physics.mahc: expected one of the keys of "
                       "'physics' ("));
  EXPECT_TRUE(Contains(msg, "got unknown key 'mahc'. Did you mean 'mach'?"));
}

TEST_F(CaseOverrides, UnknownSectionSuggestsTheClosest) {
  const std::string msg = load_error(file, {"lattcie.stencil=D3Q19"});
  EXPECT_TRUE(Contains(msg, "command line (--set lattcie.stencil=D3Q19): lattcie: expected one of the sections "));
  EXPECT_TRUE(Contains(msg, "Did you mean 'lattice'?"));
}

TEST_F(CaseOverrides, UnknownKeyBehindTheAliasUsesTheRealSectionName) {
  EXPECT_TRUE(Contains(load_error(file, {"flow.reynold=10"}),
                       "command line (--set flow.reynold=10): physics.reynold: expected one of the keys of 'physics'"));
}

TEST_F(CaseOverrides, PathBeyondAValue) {
  EXPECT_TRUE(Contains(load_error(file, {"physics.mach.max=1"}),
                       "command line (--set physics.mach.max=1): physics.mach.max: expected a path that ends at "
                       "'physics.mach'"));
}

TEST_F(CaseOverrides, EmptyPathPart) {
  EXPECT_TRUE(Contains(load_error(file, {"physics..mach=1"}), "got an empty name. Remove the extra dot."));
}

TEST_F(CaseOverrides, UnparsableValue) {
  const std::string msg = load_error(file, {"domain.size_chords=[10, 5"});
  EXPECT_TRUE(Contains(msg,
                       "command line (--set domain.size_chords=[10, 5): domain.size_chords: expected a YAML "
                       "value after '=', got '[10, 5'"));
  EXPECT_TRUE(Contains(msg, "Quote the whole argument for the shell"));
}

TEST_F(CaseOverrides, BadValueIsBlamedOnTheCommandLine) {
  EXPECT_EQ(load_error(file, {"physics.mach=0.45"}),
            "command line (--set physics.mach=0.45): physics.mach: expected a number in (0, 0.3], got 0.45. Lower "
            "the Mach number (compressibility errors grow as Ma^2), or set physics.allow_high_mach: true.");
  EXPECT_TRUE(Contains(load_error(file, {"domain.size_chords=[10,-5]"}),
                       "command line (--set domain.size_chords=[10,-5]): domain.size_chords[1]: expected a number > 0, "
                       "got -5."));
  EXPECT_TRUE(Contains(load_error(file, {"lattice.stencil=D3Q91"}),
                       "command line (--set lattice.stencil=D3Q91): lattice.stencil: expected one of D2Q9, D3Q19 or "
                       "D3Q27, got 'D3Q91'."));
}

TEST_F(CaseOverrides, ProblemsLeftInTheFileStillPointAtTheFile) {
  const auto typo = dir.write("typo.yaml", sketch_with(10, "forces: {every: 0}"));
  const std::string msg = load_error(typo, {"physics.mach=0.2"});
  EXPECT_TRUE(Contains(msg, typo.string() + ":10: forces.every: expected a whole number >= 1, got 0."));
}

TEST_F(CaseOverrides, MissingKeyInASectionCreatedOnTheCommandLine) {
  const auto nogeo = dir.write("nogeo.yaml", "schema_version: 1\nphysics: {reynolds: 100, mach: 0.1}\n");
  EXPECT_TRUE(Contains(load_error(nogeo, {"geometry.type=naca4"}),
                       "command line (--set geometry.type=naca4): geometry.code: expected a 4-digit NACA code"));
}

TEST_F(CaseOverrides, OutputPrecisionIsFp32UnlessSetToFp16) {
  EXPECT_EQ(load_case(file).output_precision, "fp32");
  EXPECT_EQ(load_case(file, {"output.precision=fp16"}).output_precision, "fp16");
  const std::string msg = load_error(file, {"output.precision=half"});
  EXPECT_TRUE(Contains(msg, "command line (--set output.precision=half): output.precision: expected one of fp32 or "
                            "fp16, got 'half'."))
      << msg;
}

}  // namespace
}  // namespace aerolbm
