#include "src/case/scalars.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <string>

namespace aerolbm {
namespace {

std::string lowered(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  return out;
}

}  // namespace

std::optional<double> parse_yaml_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const std::string low = lowered(text);
  if (low == ".inf")
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (low == ".nan") return std::numeric_limits<double>::quiet_NaN();
  // from_chars would also take "inf", "nan" and hex-float forms; YAML numbers start with a digit or a dot.
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '.'))
    return std::nullopt;
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  return negative ? -v : v;
}

std::optional<bool> parse_yaml_bool(std::string_view text) {
  static constexpr std::array<std::string_view, 3> yes{"true", "yes", "on"};
  static constexpr std::array<std::string_view, 3> no{"false", "no", "off"};
  const std::string low = lowered(text);
  if (std::find(yes.begin(), yes.end(), low) != yes.end()) return true;
  if (std::find(no.begin(), no.end(), low) != no.end()) return false;
  return std::nullopt;
}

}  // namespace aerolbm
