#pragma once
// Problem reports for case files: where a value came from (file:line or a --set), and one message format for all
// of them (InputProblem, src/util/input_error.hpp): "<where>: <key.path>: expected <what>, got <what>. <what to
// do>". Problems found while reading keys are collected so a user sees all of them in one go; structural ones
// (syntax, missing file) are thrown at once.
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/util/input_error.hpp"

namespace aerolbm {

class Diagnostics {
 public:
  explicit Diagnostics(std::string file_label) : file_(std::move(file_label)) {}

  // Values under `path` (a dotted key, "" for the whole file) now come from this --set, e.g.
  // "--set physics.mach=0.45"; later errors about them point at the command line, not the file.
  void note_override(std::string path, std::string set_text);

  // The problem at `path`, located: in "cases/x.yaml" at line 12 (none when the mark is null), or on
  // "command line (--set physics.mach=0.45)" when a --set gave the value.
  InputProblem problem(std::string_view path, const YAML::Mark& mark, std::string_view expected, std::string_view got,
                       std::string_view hint) const;

  void error(std::string_view path, const YAML::Mark& mark, std::string_view expected, std::string_view got,
             std::string_view hint);
  [[noreturn]] void fail(std::string_view path, const YAML::Mark& mark, std::string_view expected, std::string_view got,
                         std::string_view hint) const;

  bool ok() const { return errors_.empty(); }
  std::size_t error_count() const { return errors_.size(); }
  // Throws CaseError with every collected message, one per line, if there are any.
  void throw_if_errors() const;
  const std::string& file_label() const { return file_; }

 private:
  std::string file_;
  std::vector<std::pair<std::string, std::string>> overrides_;  // path -> --set text, latest last
  std::vector<InputProblem> errors_;
};

// What a user wrote, for the "got ..." part: 0.45, 'fast', the quoted string "0.1", the list [1, 2], nothing.
std::string describe_value(const YAML::Node& node);

// Shortest text that reads back as the same double (0.45, 1e+07), and a rounded form for computed values.
std::string format_number(double v);
std::string format_significant(double v, int digits = 4);

// Scalars the user quoted are strings even when they look like numbers ("0012").
inline bool is_quoted(const YAML::Node& node) { return node.IsScalar() && node.Tag() == "!"; }

}  // namespace aerolbm
