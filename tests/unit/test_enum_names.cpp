// The enums' name tables (kernels/physics/params.hpp, read by kernels/physics/enum_names.hpp): every value has one
// name that reads back to it, unknown words are refused, and the case file takes each table's words to its values.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "kernels/physics/params.hpp"
#include "src/case/case.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

template <class E, std::size_t N>
void expect_round_trip(const EnumName<E> (&table)[N]) {
  std::set<std::string> names;
  for (const auto& row : table) {
    EXPECT_STREQ(enum_name(table, row.value), row.name);
    ASSERT_TRUE(enum_from_name(table, row.name).has_value()) << row.name;
    EXPECT_EQ(*enum_from_name(table, row.name), row.value) << row.name;
    EXPECT_TRUE(names.insert(row.name).second) << "two values named " << row.name;
  }
  const std::vector<std::string> words = enum_names(table);  // in table order (a schema's allowed words)
  ASSERT_EQ(words.size(), N);
  for (std::size_t k = 0; k < N; ++k) EXPECT_EQ(words[k], table[k].name);
}

TEST(EnumNames, EveryNameReadsBackToItsValue) {
  expect_round_trip(kStencilNames);
  expect_round_trip(kCollisionNames);
  expect_round_trip(kPrecisionNames);
  expect_round_trip(kWallModelNames);
  expect_round_trip(kInletProfileNames);
  expect_round_trip(kSideFaceNames);
  EXPECT_STREQ(stencil_name(Stencil::D3Q19), "D3Q19");
  EXPECT_STREQ(precision_name(Precision::FP16S), "fp16s");
  EXPECT_STREQ(collision_name(Collision::BGK), "bgk");
}

TEST(EnumNames, UnknownWordsAndValuesAreRefused) {
  EXPECT_FALSE(enum_from_name(kPrecisionNames, "fp16").has_value());
  EXPECT_FALSE(enum_from_name(kStencilNames, "d2q9").has_value());  // the case file's spelling exactly
  EXPECT_STREQ(enum_name(kStencilNames, static_cast<Stencil>(7)), "?");
}

TEST(EnumNames, TheCaseFileTakesEveryWordToItsValue) {
  case_test::TempDir dir;
  const auto file = dir.write("sketch.yaml", case_test::kSketch);
  for (const auto& row : kPrecisionNames)
    EXPECT_EQ(load_case(file, {std::string("lattice.precision=") + row.name}).precision, row.value) << row.name;
  for (const auto& row : kCollisionNames)
    EXPECT_EQ(load_case(file, {std::string("lattice.collision=") + row.name}).collision, row.value) << row.name;
  for (const auto& row : kWallModelNames)
    EXPECT_EQ(load_case(file, {std::string("boundaries.wall=") + row.name}).wall, row.value) << row.name;
  for (const auto& row : kInletProfileNames)
    EXPECT_EQ(load_case(file, {std::string("boundaries.inlet_profile=") + row.name}).inlet_profile, row.value)
        << row.name;
  for (const auto& row : kSideFaceNames) {
    if (row.value == FaceBC::Periodic) continue;  // a periodic side needs more of the case (consistency rules)
    const Case c = load_case(file, {std::string("boundaries.lateral=") + row.name});
    EXPECT_EQ(c.lateral, row.value) << row.name;
    EXPECT_EQ(c.span, row.value) << row.name;  // span follows lateral unless given
  }
}

}  // namespace
}  // namespace aerolbm
