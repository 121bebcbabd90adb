#pragma once
// Reading YAML scalar text as numbers and booleans ourselves rather than through yaml-cpp's as<T>(), which
// silently accepts "12abc"-style leftovers on some versions and cannot tell us why a conversion failed.
#include <optional>
#include <string_view>

namespace aerolbm {

// Decimal or exponent notation, optional sign; ".inf"/".nan" (YAML spellings) come back as inf/nan so the caller
// can say "expected a finite number". Anything else (hex, trailing text, empty) is nullopt.
std::optional<double> parse_yaml_number(std::string_view text);

// true/false, yes/no, on/off in any capitalisation.
std::optional<bool> parse_yaml_bool(std::string_view text);

}  // namespace aerolbm
