// InputError, the base of every bad-input error (src/util/input_error.hpp): the message and, for problems reported
// in parts (the case loader's), the parts.
#include <gtest/gtest.h>

#include <string>

#include "src/case/case.hpp"
#include "src/util/input_error.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

TEST(InputError, AProblemKeepsItsPartsAndItsMessage) {
  const InputProblem p{"cases/x.yaml", 3, "physics.mach", "a number in (0, 0.3]", "0.45", "Lower it."};
  const CaseError e(p);
  EXPECT_STREQ(e.what(), "cases/x.yaml:3: physics.mach: expected a number in (0, 0.3], got 0.45. Lower it.");
  ASSERT_EQ(e.problems().size(), 1u);
  EXPECT_EQ(e.problems()[0].line, 3);
  EXPECT_EQ(InputProblem({"f.yaml", 0, "", "valid YAML", "a folder", ""}).text(),
            "f.yaml: expected valid YAML, got a folder.");
  EXPECT_TRUE(CaseError("whole message").problems().empty());
}

TEST(InputError, TheCaseLoaderReportsEveryProblemInParts) {
  case_test::TempDir dir;
  const auto file = dir.write("two.yaml", case_test::sketch_with(3, "physics: {reynolds: -1, mach: fast}"));
  try {
    load_case(file);
    FAIL() << "loaded a case with two bad values";
  } catch (const InputError& e) {
    ASSERT_EQ(e.problems().size(), 2u);
    EXPECT_EQ(e.problems()[0].key, "physics.reynolds");
    EXPECT_EQ(e.problems()[1].key, "physics.mach");
    std::string joined;
    for (const InputProblem& p : e.problems()) {
      EXPECT_EQ(p.source, file.string());
      EXPECT_EQ(p.line, 3);
      joined += (joined.empty() ? "" : "\n") + p.text();
    }
    EXPECT_EQ(joined, e.what());
  }
}

}  // namespace
}  // namespace aerolbm
