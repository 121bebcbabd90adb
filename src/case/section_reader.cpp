#include "src/case/section_reader.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "src/case/did_you_mean.hpp"
#include "src/case/scalars.hpp"

namespace aerolbm {
namespace {

// yaml-cpp's own lookup returns the first of duplicate keys and throws on scalars; scanning ourselves keeps
// lookups consistent with check_keys() and safe on any node.
std::pair<YAML::Node, YAML::Node> find_entry(const YAML::Node& map, std::string_view key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return {it->first, it->second};
  }
  return {YAML::Node(YAML::NodeType::Undefined), YAML::Node(YAML::NodeType::Undefined)};
}

std::string join_path(const std::string& section, std::string_view key) {
  return section.empty() ? std::string(key) : section + "." + std::string(key);
}

}  // namespace

bool Range::contains(double v) const {
  const bool above = lo_open ? v > lo : v >= lo;
  const bool below = hi_open ? v < hi : v <= hi;
  return above && below;
}

std::string Range::text() const {
  const bool lo_inf = std::isinf(lo), hi_inf = std::isinf(hi);
  if (lo_inf && hi_inf) return "";
  if (hi_inf) return std::string(lo_open ? "> " : ">= ") + format_number(lo);
  if (lo_inf) return std::string(hi_open ? "< " : "<= ") + format_number(hi);
  return "in " + std::string(lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) +
         (hi_open ? ")" : "]");
}

SectionReader::SectionReader(Diagnostics& diag, YAML::Node node, std::string path, YAML::Mark key_mark,
                             const KeySpec& spec)
    : diag_(&diag),
      node_(node),
      path_(std::move(path)),
      key_mark_(key_mark),
      spec_(&spec),
      is_map_(node.IsDefined() && node.IsMap()) {}

bool SectionReader::has(std::string_view key) const { return get(key).IsDefined(); }

std::vector<std::string> SectionReader::keys() const {
  std::vector<std::string> out;
  if (!is_map_) return out;
  for (auto it = node_.begin(); it != node_.end(); ++it)
    if (it->first.IsScalar()) out.push_back(it->first.Scalar());
  return out;
}

YAML::Node SectionReader::get(std::string_view key) const {
  if (!is_map_) return YAML::Node(YAML::NodeType::Undefined);
  return find_entry(node_, key).second;
}

std::string SectionReader::path(std::string_view key) const { return join_path(path_, key); }

YAML::Mark SectionReader::mark(std::string_view key) const {
  const YAML::Node v = get(key);
  return v.IsDefined() ? v.Mark() : section_mark();
}

YAML::Mark SectionReader::section_mark() const {
  if (!key_mark_.is_null()) return key_mark_;
  return node_.IsDefined() ? node_.Mark() : YAML::Mark::null_mark();
}

const KeySpec& SectionReader::child_spec(std::string_view key) const {
  const KeySpec* k = spec_->find(key);
  // Reaching this means the loader asks for a key the schema table lacks: a bug here, not bad input.
  if (!k) throw std::logic_error("case schema has no key '" + path(key) + "'");
  return *k;
}

void SectionReader::problem(std::string_view key, std::string_view expected, std::string_view got,
                            std::string_view hint) const {
  diag_->error(path(key), mark(key), expected, got, hint);
}

void SectionReader::missing(std::string_view key, std::string_view expected, std::string_view hint) const {
  diag_->error(path(key), section_mark(), expected, "nothing (the key is missing)", hint);
}

void SectionReader::check_keys() const {
  if (!node_.IsDefined() || node_.IsNull()) return;
  const std::vector<std::string> allowed = spec_->key_names();
  const bool root = path_.empty();
  if (!is_map_) {
    diag_->error(path_, node_.Mark(), "a mapping of keys (" + join_words(allowed, ", ") + ")", describe_value(node_),
                 "Write it as '" + path_ + ": {key: value, ...}' or one 'key: value' per indented line.");
    return;
  }
  std::map<std::string, YAML::Mark> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const YAML::Node k = it->first;  // a copy: iterator proxies are temporaries
    if (!k.IsScalar()) {
      diag_->error(path_, k.Mark(), "plain key names", describe_value(k), "Keys are single words such as 'mach'.");
      continue;
    }
    const std::string name = k.Scalar();
    const std::string kpath = join_path(path_, name);
    if (auto [first, inserted] = seen.emplace(name, k.Mark()); !inserted) {
      diag_->error(kpath, k.Mark(), "each key once",
                   "'" + name + "' again (first on line " + std::to_string(first->second.line + 1) + ")",
                   "Remove one of them; YAML would keep only one.");
      continue;
    }
    if (spec_->find(name)) continue;
    std::string hint = did_you_mean(name, allowed);
    if (hint.empty()) {
      const std::vector<std::string> homes = sections_with_key(name);
      if (!homes.empty())
        hint = "'" + name + "' belongs in section '" + homes.front() + "'; move it there.";
      else
        hint = "Remove it, or check the spelling against the case file reference in docs/case_file.md.";
    } else {
      hint.erase(0, 1);  // did_you_mean() leads with a space for appending
    }
    const std::string expected = root ? "one of the sections " + join_words(allowed, ", ")
                                      : "one of the keys of '" + path_ + "' (" + join_words(allowed, ", ") + ")";
    diag_->error(kpath, k.Mark(), expected, std::string(root ? "unknown section '" : "unknown key '") + name + "'",
                 hint);
  }
}

std::optional<double> SectionReader::element_number(const YAML::Node& v, const std::string& p, const Range& range,
                                                    std::string_view range_hint, std::string_view noun) const {
  const std::string expected = std::string(noun) + (range.text().empty() ? "" : " " + range.text());
  if (v.IsNull()) {
    diag_->error(p, v.Mark(), expected, "nothing", "Give a value, or delete the key to use the default.");
    return std::nullopt;
  }
  if (!v.IsScalar()) {
    diag_->error(p, v.Mark(), expected, describe_value(v), "Give a single number here.");
    return std::nullopt;
  }
  if (is_quoted(v)) {
    diag_->error(p, v.Mark(), expected, describe_value(v), "Remove the quotes; a quoted value is text.");
    return std::nullopt;
  }
  const std::optional<double> x = parse_yaml_number(v.Scalar());
  if (!x) {
    diag_->error(p, v.Mark(), expected, describe_value(v), "Write a plain number such as 0.1, 160 or 1e5.");
    return std::nullopt;
  }
  if (!std::isfinite(*x)) {
    const std::string finite = "a finite " + std::string(noun.substr(2));  // "a finite whole number >= 0"
    diag_->error(p, v.Mark(), finite + (range.text().empty() ? "" : " " + range.text()), describe_value(v), range_hint);
    return std::nullopt;
  }
  if (!range.contains(*x)) {
    diag_->error(p, v.Mark(), expected, describe_value(v), range_hint);
    return std::nullopt;
  }
  return x;
}

std::optional<double> SectionReader::number(std::string_view key, const Range& range,
                                            std::string_view range_hint) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  return element_number(v, path(key), range, range_hint);
}

std::optional<std::int64_t> SectionReader::integer(std::string_view key, const Range& range,
                                                   std::string_view range_hint) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  const std::optional<double> x = element_number(v, path(key), range, range_hint, "a whole number");
  if (!x) return std::nullopt;
  if (*x != std::floor(*x)) {
    diag_->error(path(key), v.Mark(), "a whole number " + range.text(), describe_value(v),
                 "Give a whole number (it counts steps).");
    return std::nullopt;
  }
  // Beyond 2^53 doubles skip integers; no count in a case file comes near that.
  if (std::abs(*x) > 9e15) {
    diag_->error(path(key), v.Mark(), "a whole number below 9e15", describe_value(v), range_hint);
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*x);
}

std::optional<bool> SectionReader::boolean(std::string_view key) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  const std::optional<bool> b = v.IsScalar() && !is_quoted(v) ? parse_yaml_bool(v.Scalar()) : std::nullopt;
  if (!b) problem(key, "true or false", describe_value(v), "Write true or false without quotes.");
  return b;
}

std::optional<std::string> SectionReader::text(std::string_view key) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  if (v.IsNull()) return std::string();
  if (!v.IsScalar()) {
    problem(key, "text", describe_value(v), "Give a single value; put it in quotes if it contains ':' or '#'.");
    return std::nullopt;
  }
  return v.Scalar();
}

std::optional<std::string> SectionReader::choice(std::string_view key) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  const std::vector<std::string>& allowed = child_spec(key).choices;
  const std::string expected = "one of " + join_words(allowed);
  if (!v.IsScalar()) {
    problem(key, expected, describe_value(v), "Give a single word.");
    return std::nullopt;
  }
  if (std::find(allowed.begin(), allowed.end(), v.Scalar()) != allowed.end()) return v.Scalar();
  const std::string suggestion = did_you_mean(v.Scalar(), allowed);
  problem(key, expected, describe_value(v),
          suggestion.empty() ? "Use one of the listed values (they are case-sensitive)." : suggestion.substr(1));
  return std::nullopt;
}

std::optional<std::vector<double>> SectionReader::numbers(std::string_view key, const Range& each,
                                                          std::string_view range_hint, std::string_view example) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  if (!v.IsSequence()) {
    problem(key, "a list of numbers like " + std::string(example), describe_value(v),
            "Put the numbers in square brackets, e.g. " + std::string(key) + ": " + std::string(example) + ".");
    return std::nullopt;
  }
  std::vector<double> out;
  bool good = true;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto x = element_number(v[i], path(key) + "[" + std::to_string(i) + "]", each, range_hint);
    good = good && x.has_value();
    out.push_back(x.value_or(0));
  }
  return good ? std::optional(out) : std::nullopt;
}

std::optional<std::vector<std::vector<double>>> SectionReader::number_lists(std::string_view key, const Range& each,
                                                                          std::string_view range_hint,
                                                                          std::string_view example) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  if (!v.IsSequence()) {
    problem(key, "a list of number lists like " + std::string(example), describe_value(v),
            "Write one list per entry, e.g. " + std::string(key) + ": " + std::string(example) + ".");
    return std::nullopt;
  }
  std::vector<std::vector<double>> out;
  bool good = true;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const YAML::Node e = v[i];
    const std::string p = path(key) + "[" + std::to_string(i) + "]";
    if (!e.IsSequence()) {
      diag_->error(p, e.Mark(), "a list of numbers", describe_value(e),
                   "Put the entry's numbers in square brackets, e.g. " + std::string(example) + ".");
      good = false;
      continue;
    }
    std::vector<double> row;
    for (std::size_t j = 0; j < e.size(); ++j) {
      const auto x = element_number(e[j], p + "[" + std::to_string(j) + "]", each, range_hint);
      good = good && x.has_value();
      row.push_back(x.value_or(0));
    }
    out.push_back(std::move(row));
  }
  return good ? std::optional(out) : std::nullopt;
}

std::optional<std::vector<std::string>> SectionReader::choice_list(std::string_view key) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) return std::nullopt;
  const std::vector<std::string>& allowed = child_spec(key).choices;
  const std::string expected = "a list drawn from " + join_words(allowed, ", ");
  if (!v.IsSequence()) {
    const std::string first = v.IsScalar() && !v.Scalar().empty() ? v.Scalar() : allowed.front();
    problem(key, expected, describe_value(v), "Write it as a list, e.g. " + std::string(key) + ": [" + first + "].");
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool good = true;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const YAML::Node e = v[i];
    const std::string p = path(key) + "[" + std::to_string(i) + "]";
    if (!e.IsScalar() || std::find(allowed.begin(), allowed.end(), e.Scalar()) == allowed.end()) {
      const std::string s = e.IsScalar() ? did_you_mean(e.Scalar(), allowed) : "";
      diag_->error(p, e.Mark(), "one of " + join_words(allowed), describe_value(e),
                   s.empty() ? "Use only the listed values." : s.substr(1));
      good = false;
    } else if (std::find(out.begin(), out.end(), e.Scalar()) != out.end()) {
      diag_->error(p, e.Mark(), "each entry at most once", "'" + e.Scalar() + "' a second time", "Remove the repeat.");
      good = false;
    } else {
      out.push_back(e.Scalar());
    }
  }
  return good ? std::optional(out) : std::nullopt;
}

SectionReader SectionReader::sub(std::string_view key) const {
  auto [k, v] = is_map_ ? find_entry(node_, key)
                        : std::pair{YAML::Node(YAML::NodeType::Undefined), YAML::Node(YAML::NodeType::Undefined)};
  return SectionReader(*diag_, v, path(key), k.IsDefined() ? k.Mark() : section_mark(), child_spec(key));
}

}  // namespace aerolbm
