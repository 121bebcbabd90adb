#pragma once
// Command-line overrides: "--set physics.mach=0.2" replaces (or adds) one value in the parsed case tree before
// validation, so an override is checked exactly like the same value written in the file.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "src/case/diagnostics.hpp"

namespace aerolbm {

struct Override {
  std::string label;  // "--set flow.mach=0.2", as the user typed it (messages quote this)
  std::string path;   // canonical dotted path, "physics.mach"
  YAML::Node value;
};

// Splits "key.path=value", resolves the "flow." alias, checks the path against the schema and parses the value as
// YAML (so "[10, 5]" is a list). Throws CaseError naming the override on any problem.
Override parse_override(const std::string& text);

// Writes the value into `root` (a mapping), creating missing sections, and tells `diag` that errors under this
// path come from the command line.
void apply_override(YAML::Node& root, const Override& o, Diagnostics& diag);

}  // namespace aerolbm
