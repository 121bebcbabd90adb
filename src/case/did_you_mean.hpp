#pragma once
// Spelling suggestions for unknown keys and enum values.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aerolbm {

// Edit distance where swapping two neighbouring letters counts as one edit ("mahc" -> "mach" is 1), compared
// case-insensitively: typos, not capitalisation, are what we want to measure.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo (or a known synonym such as
// "aoa" for "angle_of_attack_deg"). Ties go to the earlier candidate, so list candidates in schema order.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

// " Did you mean 'x'?" or "" (with the leading space so callers can append it unconditionally).
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace aerolbm
