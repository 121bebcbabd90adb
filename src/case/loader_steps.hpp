#pragma once
// The stages of load_case() (case_loader.cpp), each in its own file. Internal to src/case.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/case/case.hpp"
#include "src/case/diagnostics.hpp"
#include "src/case/section_reader.hpp"

namespace aerolbm {

// A reader for the whole document; root.sub("physics") gives a section.
SectionReader root_reader(Diagnostics& diag, const YAML::Node& root);

// case_sections.cpp: every section except geometry, value by value (types, ranges, enums, list lengths).
void read_sections(const SectionReader& root, const std::filesystem::path& case_file, Case& c);

// geometry_section.cpp: type-dependent keys, NACA code rules, Selig file resolution.
void read_geometry(const SectionReader& root, const std::filesystem::path& case_file, Case& c);

// consistency.cpp: rules that involve several keys (periodic pairs, body inside the domain, grid size, τ).
// Runs only on a case whose individual values are all valid.
// refinement.boxes (refinement_section.cpp): read after the domain; checked with the other sections' values.
void read_refinement(const SectionReader& r, Case& c);
void check_refinement(const SectionReader& root, const Case& c);

void check_consistency(const SectionReader& root, const Case& c);

// case_text.cpp: the case as run, for RUN/case.yaml.
std::string emit_case_yaml(const YAML::Node& root, const Case& c, const std::vector<std::string>& overrides);

}  // namespace aerolbm
