// Problems with the file itself and with its structure: unreadable input, YAML syntax, unknown or misplaced keys,
// values of the wrong type. Each message must name the file, the line, the key path and what to do.
#include <gtest/gtest.h>
#include <unistd.h>

#include "src/case/case.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;
using case_test::load_error;
using case_test::sketch_with;
using case_test::TempDir;

TEST(CaseErrors, MissingFileSaysSo) {
  TempDir dir;
  const auto file = dir.path() / "no_such_case.yaml";
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ": expected an existing case file, got no such file."));
  EXPECT_TRUE(Contains(msg, "Check the path"));
}

TEST(CaseErrors, FolderInsteadOfFileIsUnreadable) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "cases");
  const std::string msg = load_error(dir.path() / "cases");
  EXPECT_TRUE(Contains(msg, "expected a readable case file, got a folder."));
  EXPECT_TRUE(Contains(msg, "Name the .yaml file inside it"));
}

TEST(CaseErrors, FileWithoutReadPermissionIsUnreadable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every file; permissions cannot make one unreadable";
  TempDir dir;
  const auto file = dir.write("locked.yaml", case_test::kSketch);
  std::filesystem::permissions(file, std::filesystem::perms::none);
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ": expected a readable case file, got a file that cannot be read."));
  EXPECT_TRUE(Contains(msg, "chmod a+r"));
}

TEST(CaseErrors, SyntaxErrorGivesTheLine) {
  TempDir dir;
  const auto file = dir.write("bad.yaml", "schema_version: 1\nphysics:\n  reynolds: 1000\n   mach: 0.1\n");
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":4: expected valid YAML, got a syntax error: "));
  EXPECT_TRUE(Contains(msg, "Check indentation"));
}

TEST(CaseErrors, SyntaxErrorInAFlowMappingGivesTheLine) {
  TempDir dir;
  const auto file =
      dir.write("bad.yaml", sketch_with(5, "domain: {size_chords: [12, 6]], body_position_chords: [3, 3]}"));
  EXPECT_TRUE(Contains(load_error(file), file.string() + ":5: expected valid YAML"));
}

TEST(CaseErrors, EmptyFileIsNotACase) {
  TempDir dir;
  const auto file = dir.write("empty.yaml", "# nothing here yet\n");
  EXPECT_TRUE(Contains(load_error(file), "got an empty document"));
}

TEST(CaseErrors, TopLevelListIsNotACase) {
  TempDir dir;
  const auto file = dir.write("list.yaml", "- physics\n- geometry\n");
  EXPECT_TRUE(Contains(load_error(file), file.string() + ":1: expected a mapping of sections"));
}

TEST(CaseErrors, SchemaVersionIsRequired) {
  TempDir dir;
  const auto file = dir.write("nover.yaml", sketch_with(1, "# schema_version forgotten"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":2: schema_version: expected schema_version: 1, got nothing"));
  EXPECT_TRUE(Contains(msg, "Add 'schema_version: 1'"));
}

TEST(CaseErrors, OtherSchemaVersionsAreRefused) {
  TempDir dir;
  const auto file = dir.write("v2.yaml", sketch_with(1, "schema_version: 2"));
  EXPECT_TRUE(Contains(load_error(file), file.string() + ":1: schema_version: expected schema_version: 1, got 2."));
}

TEST(CaseErrors, UnknownKeySuggestsTheClosestKey) {
  TempDir dir;
  const auto file = dir.write("typo.yaml", sketch_with(3, "physics: {reynolds: 1000, mahc: 0.1}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":3: physics.mahc: expected one of the keys of 'physics' ("));
  EXPECT_TRUE(Contains(msg, "got unknown key 'mahc'. Did you mean 'mach'?"));
}

TEST(CaseErrors, UnknownKeyInABlockMappingPointsAtItsOwnLine) {
  TempDir dir;
  const auto file = dir.write("block.yaml", R"(schema_version: 1
physics:
  reynolds: 1000
  mach: 0.1
geometry:
  type: naca4
  code: "0012"
  chord_celss: 120
)");
  EXPECT_TRUE(Contains(load_error(file), file.string() + ":8: geometry.chord_celss: "));
  EXPECT_TRUE(Contains(load_error(file), "Did you mean 'chord_cells'?"));
}

TEST(CaseErrors, UnknownNestedKeySuggestsTheClosestKey) {
  TempDir dir;
  const auto file = dir.write("les.yaml", sketch_with(6, "lattice: {les: {model: smagorinsky, constnat: 0.1}}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":6: lattice.les.constnat: "));
  EXPECT_TRUE(Contains(msg, "Did you mean 'constant'?"));
}

TEST(CaseErrors, UnknownSectionSuggestsTheClosestSection) {
  TempDir dir;
  const auto file = dir.write("sect.yaml", sketch_with(7, "boundary: {inlet: velocity}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":7: boundary: expected one of the sections "));
  EXPECT_TRUE(Contains(msg, "got unknown section 'boundary'. Did you mean 'boundaries'?"));
}

TEST(CaseErrors, FlowSectionNamePointsToPhysics) {
  TempDir dir;
  const auto file = dir.write("flow.yaml", sketch_with(3, "flow: {reynolds: 1000, mach: 0.1}"));
  EXPECT_TRUE(Contains(load_error(file), "got unknown section 'flow'. Did you mean 'physics'?"));
}

TEST(CaseErrors, KeyInTheWrongSectionNamesItsHome) {
  TempDir dir;
  const auto file = dir.write("wrong.yaml", sketch_with(3, "physics: {reynolds: 1000, mach: 0.1, stencil: D2Q9}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":3: physics.stencil: "));
  EXPECT_TRUE(Contains(msg, "'stencil' belongs in section 'lattice'; move it there."));
}

TEST(CaseErrors, UnknownKeyWithNothingCloseSaysWhereToLook) {
  TempDir dir;
  const auto file = dir.write("far.yaml", sketch_with(10, "forces: {every: 10, lift_slope: 1}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":10: forces.lift_slope: "));
  EXPECT_TRUE(Contains(msg, "check the spelling against the case file reference in docs/case_file.md"));
  EXPECT_EQ(msg.find("Did you mean"), std::string::npos);
}

TEST(CaseErrors, DuplicateKeysAreRefused) {
  TempDir dir;
  const auto file = dir.write("dup.yaml",
                              "schema_version: 1\ngeometry: {type: naca4, code: \"0012\"}\nphysics:\n"
                              "  mach: 0.1\n  mach: 0.2\n  reynolds: 1000\n");
  const std::string msg = load_error(file);
  EXPECT_TRUE(
      Contains(msg, file.string() + ":5: physics.mach: expected each key once, got 'mach' again (first on line 4)."));
}

TEST(CaseErrors, StringWhereNumberExpected) {
  TempDir dir;
  const auto file = dir.write("str.yaml", sketch_with(3, "physics: {reynolds: 1000, mach: fast}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":3: physics.mach: expected a number in (0, 0.3], got 'fast'."));
  EXPECT_TRUE(Contains(msg, "Write a plain number"));
}

TEST(CaseErrors, QuotedNumberIsText) {
  TempDir dir;
  const auto file = dir.write("quoted.yaml", sketch_with(3, "physics: {reynolds: \"1000\", mach: 0.1}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, ":3: physics.reynolds: expected a number in (0, 1e7], got the quoted string \"1000\"."));
  EXPECT_TRUE(Contains(msg, "Remove the quotes"));
}

TEST(CaseErrors, ScalarWhereListExpected) {
  TempDir dir;
  const auto file = dir.write("scalar.yaml", sketch_with(5, "domain: {size_chords: 12, body_position_chords: [3, 3]}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(
      Contains(msg, file.string() + ":5: domain.size_chords: expected a list of numbers like [12, 6], got 12."));
  EXPECT_TRUE(Contains(msg, "Put the numbers in square brackets"));
}

TEST(CaseErrors, ScalarWhereListOfNamesExpected) {
  TempDir dir;
  const auto file = dir.write("fields.yaml", sketch_with(9, "output: {fields: vorticity}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":9: output.fields: expected a list drawn from velocity, pressure, "));
  EXPECT_TRUE(Contains(msg, "Write it as a list, e.g. fields: [vorticity]."));
}

TEST(CaseErrors, ListWhereNumberExpected) {
  TempDir dir;
  const auto file = dir.write("list.yaml", sketch_with(3, "physics: {reynolds: [1000], mach: 0.1}"));
  EXPECT_TRUE(Contains(load_error(file), ":3: physics.reynolds: expected a number in (0, 1e7], got the list [1000]."));
}

TEST(CaseErrors, NonIntegerWhereIntegerExpected) {
  TempDir dir;
  const auto file = dir.write("int.yaml", sketch_with(10, "forces: {every: 10.5}"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":10: forces.every: expected a whole number >= 1, got 10.5."));
}

TEST(CaseErrors, NonBooleanWhereBooleanExpected) {
  TempDir dir;
  const auto file =
      dir.write("bool.yaml", sketch_with(3, "physics: {reynolds: 1000, mach: 0.1, allow_high_mach: maybe}"));
  EXPECT_TRUE(Contains(load_error(file), ":3: physics.allow_high_mach: expected true or false, got 'maybe'."));
}

TEST(CaseErrors, SectionThatIsNotAMapping) {
  TempDir dir;
  const auto file = dir.write("sec.yaml", sketch_with(10, "forces: 10"));
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":10: forces: expected a mapping of keys (every, reference_area, moment_point), got 10."));
}

TEST(CaseErrors, EmptyValueIsNothing) {
  TempDir dir;
  const auto file = dir.write("empty.yaml", sketch_with(3, "physics: {reynolds: 1000, mach: }"));
  EXPECT_TRUE(Contains(load_error(file), ":3: physics.mach: expected a number in (0, 0.3], got nothing."));
}

TEST(CaseErrors, EveryProblemIsReportedAtOnce) {
  TempDir dir;
  std::string text = sketch_with(3, "physics: {reynolds: -1, mach: 0.1}");
  text += "output_every: 5\n";  // line 12
  const auto file = dir.write("many.yaml", text);
  const std::string msg = load_error(file);
  EXPECT_TRUE(Contains(msg, file.string() + ":3: physics.reynolds: expected a number in (0, 1e7], got -1."));
  EXPECT_TRUE(Contains(msg, file.string() + ":12: output_every: "));
  EXPECT_TRUE(Contains(msg, "got unknown section 'output_every'. Did you mean 'output'?"));
}

}  // namespace
}  // namespace aerolbm
