// Spelling suggestions: close typos find their key, unrelated words find nothing.
#include <gtest/gtest.h>

#include "src/case/did_you_mean.hpp"
#include "src/case/schema.hpp"

namespace aerolbm {
namespace {

TEST(CaseDidYouMean, EditDistanceCountsSwapsAsOneEdit) {
  EXPECT_EQ(edit_distance("mach", "mach"), 0u);
  EXPECT_EQ(edit_distance("mahc", "mach"), 1u);  // a swap, not two substitutions
  EXPECT_EQ(edit_distance("mch", "mach"), 1u);
  EXPECT_EQ(edit_distance("machh", "mach"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("D2Q9", "d2q9"), 0u);  // capitals are not typos
}

TEST(CaseDidYouMean, FindsTheKeyATypoWasMeantFor) {
  const std::vector<std::string> physics = find_key_spec("physics")->key_names();
  EXPECT_EQ(closest_match("reynold", physics), "reynolds");
  EXPECT_EQ(closest_match("Reynolds", physics), "reynolds");
  EXPECT_EQ(closest_match("angle_of_attack", physics), "angle_of_attack_deg");
  EXPECT_EQ(closest_match("bodyforce", physics), "body_force");
  EXPECT_EQ(closest_match("aoa", physics), "angle_of_attack_deg");  // a synonym, not a typo
  EXPECT_EQ(closest_match("Re", physics), "reynolds");
  const std::vector<std::string> sections = case_schema().key_names();
  EXPECT_EQ(closest_match("boundary", sections), "boundaries");
  EXPECT_EQ(closest_match("checkpoints", sections), "checkpoint");
  EXPECT_EQ(closest_match("flow", sections), "physics");
}

TEST(CaseDidYouMean, UnrelatedWordsGetNoSuggestion) {
  const std::vector<std::string> physics = find_key_spec("physics")->key_names();
  EXPECT_EQ(closest_match("temperature", physics), std::nullopt);
  EXPECT_EQ(closest_match("x", physics), std::nullopt);
  EXPECT_EQ(closest_match("", physics), std::nullopt);
  // Short words need a close match: "type" is one letter from nothing in the time section.
  EXPECT_EQ(closest_match("type", find_key_spec("time")->key_names()), std::nullopt);
  EXPECT_EQ(did_you_mean("temperature", physics), "");
  EXPECT_EQ(did_you_mean("mahc", physics), " Did you mean 'mach'?");
}

TEST(CaseDidYouMean, TiesGoToTheEarlierCandidate) { EXPECT_EQ(closest_match("cat", {"bat", "cab"}), "bat"); }

TEST(CaseDidYouMean, SchemaLookups) {
  ASSERT_NE(find_key_spec("lattice.les.model"), nullptr);
  EXPECT_EQ(find_key_spec("lattice.les.model")->choices, (std::vector<std::string>{"none", "smagorinsky", "wale"}));
  EXPECT_EQ(find_key_spec("lattice.les.nothing"), nullptr);
  EXPECT_EQ(find_key_spec("physics.mach.x"), nullptr);
  EXPECT_EQ(canonical_override_path("flow.mach"), "physics.mach");
  EXPECT_EQ(canonical_override_path("flowers.x"), "flowers.x");
  EXPECT_EQ(sections_with_key("stencil"), std::vector<std::string>{"lattice"});
  EXPECT_EQ(sections_with_key("every"),
            (std::vector<std::string>{"output", "output.averages", "forces", "checkpoint", "watchdog"}));
}

}  // namespace
}  // namespace aerolbm
