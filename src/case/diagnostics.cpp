#include "src/case/diagnostics.hpp"

#include <charconv>
#include <cmath>

#include "src/case/case.hpp"
#include "src/case/scalars.hpp"

namespace aerolbm {
namespace {

// A wall of a hundred messages hides the first, which often causes the rest.
constexpr std::size_t kMaxReported = 20;

bool path_is_under(std::string_view path, std::string_view prefix) {
  if (prefix.empty()) return true;
  if (!path.starts_with(prefix)) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

std::string clipped(std::string s, std::size_t max_len = 60) {
  if (s.size() > max_len) s = s.substr(0, max_len - 3) + "...";
  return s;
}

std::string flow_text(const YAML::Node& node) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << node;
  return clipped(e.c_str());
}

// "1e+07" -> "1e7", "2.5e-05" -> "2.5e-5": how people write limits in a case file.
std::string tidy_exponent(std::string s) {
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + (negative ? "-" : "") + exponent;
}

}  // namespace

void Diagnostics::note_override(std::string path, std::string set_text) {
  overrides_.emplace_back(std::move(path), std::move(set_text));
}

InputProblem Diagnostics::problem(std::string_view path, const YAML::Mark& mark, std::string_view expected,
                                  std::string_view got, std::string_view hint) const {
  InputProblem p{file_, 0, std::string(path), std::string(expected), std::string(got), std::string(hint)};
  // The most specific --set wins: "--set domain.size_chords=[1,2]" explains an error at domain.size_chords[1].
  const std::pair<std::string, std::string>* best = nullptr;
  for (const auto& o : overrides_) {
    if (path_is_under(path, o.first) && (!best || o.first.size() >= best->first.size())) best = &o;
  }
  if (best) p.source = "command line (" + best->second + ")";
  else if (!mark.is_null()) p.line = mark.line + 1;
  return p;
}

void Diagnostics::error(std::string_view path, const YAML::Mark& mark, std::string_view expected, std::string_view got,
                        std::string_view hint) {
  errors_.push_back(problem(path, mark, expected, got, hint));
}

void Diagnostics::fail(std::string_view path, const YAML::Mark& mark, std::string_view expected, std::string_view got,
                       std::string_view hint) const {
  throw CaseError(problem(path, mark, expected, got, hint));
}

void Diagnostics::throw_if_errors() const {
  if (errors_.empty()) return;
  std::string text;
  for (std::size_t i = 0; i < errors_.size() && i < kMaxReported; ++i)
    text.append(i ? "\n" : "").append(errors_[i].text());
  if (errors_.size() > kMaxReported)
    text += "\n(" + std::to_string(errors_.size() - kMaxReported) + " more problems not shown; fix these first)";
  throw CaseError(errors_, text);
}

std::string describe_value(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) {
    if (node.size() == 0) return "an empty list";
    return "the list " + flow_text(node);
  }
  if (node.IsMap()) return "the mapping " + flow_text(node);
  const std::string& text = node.Scalar();
  if (is_quoted(node)) return "the quoted string \"" + clipped(text) + "\"";
  if (parse_yaml_number(text) || parse_yaml_bool(text)) return clipped(text);
  return "'" + clipped(text) + "'";
}

std::string format_number(double v) {
  // Whole numbers below a million in full (100000, not 1e5); larger ones and fractions as short as possible.
  if (v == std::floor(v) && std::abs(v) < 1e6) return std::to_string(static_cast<long long>(v));
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return tidy_exponent(std::string(buf, r.ptr));
}

std::string format_significant(double v, int digits) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  return tidy_exponent(std::string(buf, r.ptr));
}

}  // namespace aerolbm
