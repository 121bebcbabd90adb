#pragma once
// Typed, located access to one mapping of the case file. Each getter returns nullopt when the key is absent or
// its value is wrong; in the second case it has already recorded a full message in Diagnostics, so callers just
// fall back to the default and carry on, and the user gets every problem in one report.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/physics/enum_names.hpp"
#include "src/case/diagnostics.hpp"
#include "src/case/schema.hpp"

namespace aerolbm {

// An interval of allowed numbers; open ends exclude the bound. Infinite bounds read as "> 0" or ">= 8".
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;
  bool contains(double v) const;
  std::string text() const;  // "in (0, 0.3]", "> 0", ">= 8"
};

class SectionReader {
 public:
  // `node` may be undefined or null (section left out): every key is then absent. `key_mark` is where the
  // section's own key sits ("physics:" line), the best line for "missing key" messages.
  SectionReader(Diagnostics& diag, YAML::Node node, std::string path, YAML::Mark key_mark, const KeySpec& spec);

  bool present() const { return is_map_; }
  // Left out of the file or written with nothing after the colon (as opposed to present but not a mapping).
  bool absent() const { return !node_.IsDefined() || node_.IsNull(); }
  bool has(std::string_view key) const;
  std::vector<std::string> keys() const;       // the keys written, in file order
  YAML::Node get(std::string_view key) const;  // undefined node when absent
  std::string path(std::string_view key) const;
  YAML::Mark mark(std::string_view key) const;  // the value's line, or the section's when the key is absent
  YAML::Mark section_mark() const;
  const std::string& section_path() const { return path_; }
  Diagnostics& diag() const { return *diag_; }

  // Reports a mapping where something else stands, non-text keys, duplicate keys and unknown keys (with
  // suggestions). Call once per section.
  void check_keys() const;

  std::optional<double> number(std::string_view key, const Range& range, std::string_view range_hint) const;
  std::optional<std::int64_t> integer(std::string_view key, const Range& range, std::string_view range_hint) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<std::string> text(std::string_view key) const;
  std::optional<std::string> choice(std::string_view key) const;  // allowed words come from the schema
  // The same, as the value the enum's name table gives the word (the schema takes its words from that table).
  template <class E, std::size_t N>
  std::optional<E> choice(std::string_view key, const EnumName<E> (&names)[N]) const {
    const std::optional<std::string> word = choice(key);
    return word ? enum_from_name(names, *word) : std::nullopt;
  }
  std::optional<std::vector<double>> numbers(std::string_view key, const Range& each, std::string_view range_hint,
                                             std::string_view example) const;
  // A list of number lists, e.g. [[0, 1], [2, 3]]; each inner list may have any length (the caller checks it).
  std::optional<std::vector<std::vector<double>>> number_lists(std::string_view key, const Range& each,
                                                               std::string_view range_hint,
                                                               std::string_view example) const;
  std::optional<std::vector<std::string>> choice_list(std::string_view key) const;
  SectionReader sub(std::string_view key) const;

  // "expected <what>, got nothing (the key is missing)" at the section's line.
  void missing(std::string_view key, std::string_view expected, std::string_view hint) const;
  void problem(std::string_view key, std::string_view expected, std::string_view got, std::string_view hint) const;

 private:
  std::optional<double> element_number(const YAML::Node& v, const std::string& path, const Range& range,
                                       std::string_view range_hint, std::string_view noun = "a number") const;
  const KeySpec& child_spec(std::string_view key) const;

  Diagnostics* diag_;
  YAML::Node node_;
  std::string path_;
  YAML::Mark key_mark_;
  const KeySpec* spec_;
  bool is_map_ = false;
};

}  // namespace aerolbm
