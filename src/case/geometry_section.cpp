#include <algorithm>
#include <cctype>
#include <fstream>

#include "src/case/loader_steps.hpp"

namespace aerolbm {
namespace {

namespace fs = std::filesystem;

struct TypeRule {
  const char* type;
  GeometryType geometry;
  const char* length_key;  // the key that gives the reference length in cells
  double length_default;
  std::vector<std::string> keys;  // every key this type accepts besides "type"
};

const std::vector<TypeRule>& type_rules() {
  static const std::vector<TypeRule> rules{
      {"naca4", GeometryType::Naca4, "chord_cells", 160, {"code", "chord_cells"}},
      {"selig", GeometryType::Selig, "chord_cells", 160, {"file", "chord_cells"}},
      {"cylinder", GeometryType::Cylinder, "diameter_cells", 160, {"diameter_cells"}},
      {"none", GeometryType::None, "reference_cells", 32, {"reference_cells"}},
  };
  return rules;
}

std::string owners_of(const std::string& key) {
  std::vector<std::string> owners;
  for (const auto& r : type_rules())
    if (std::find(r.keys.begin(), r.keys.end(), key) != r.keys.end()) owners.push_back(r.type);
  return join_words(owners);
}

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
}

// NACA 4-digit: camber % (1st digit), camber position in tenths (2nd), thickness % (last two).
void read_naca_code(const SectionReader& g, Case& c) {
  if (!g.has("code")) {
    g.missing("code", "a 4-digit NACA code in quotes such as \"0012\"", "Add e.g. 'code: \"0012\"'.");
    return;
  }
  const YAML::Node v = g.get("code");
  const std::string expected = "a 4-digit NACA code in quotes such as \"0012\" or \"2412\"";
  if (!v.IsScalar()) {
    g.problem("code", expected, describe_value(v), "Give the four digits as one quoted value.");
    return;
  }
  const std::string s = v.Scalar();
  if (!is_quoted(v) && all_digits(s)) {
    // Unquoted digits are a YAML number: 0012 reads as 12 (or octal 10 in YAML 1.1 readers such as PyYAML).
    const std::string padded = s.size() < 4 ? std::string(4 - s.size(), '0') + s : s;
    g.problem("code", expected, "the number " + s,
              "YAML reads unquoted digits as a number and drops leading zeros; quote it: code: \"" + padded + "\".");
    return;
  }
  if (s.size() != 4 || !all_digits(s)) {
    std::string hint = "Give exactly four digits, e.g. \"0012\" (symmetric, 12% thick) or \"2412\".";
    std::string digits;
    for (char ch : s)
      if (std::isdigit(static_cast<unsigned char>(ch))) digits += ch;
    if (digits.size() == 4 && s.size() > 4) hint = "Write only the digits: code: \"" + digits + "\".";
    g.problem("code", expected, describe_value(v), hint);
    return;
  }
  const int camber = s[0] - '0', position = s[1] - '0', thickness = std::stoi(s.substr(2));
  if (thickness < 1 || thickness > 40) {
    g.problem("code", "thickness digits (the last two) from 01 to 40 percent of the chord", describe_value(v),
              "Use a thickness between \"0001\" and \"0040\"; 12 is the classic symmetric section.");
    return;
  }
  if ((camber == 0) != (position == 0)) {
    g.problem("code", "camber (1st digit) and camber position (2nd digit) both zero or both non-zero",
              describe_value(v),
              camber == 0 ? "Without camber the position digit must be 0: use \"00" + s.substr(2) + "\"."
                          : "A cambered section needs its camber position in tenths of the chord, e.g. \"" +
                                s.substr(0, 1) + "4" + s.substr(2) + "\".");
    return;
  }
  c.naca_code = s;
}

void read_selig_file(const SectionReader& g, const fs::path& case_file, Case& c) {
  if (!g.has("file")) {
    g.missing("file", "the path of a Selig .dat airfoil file", "Add e.g. 'file: airfoils/e387.dat'.");
    return;
  }
  const auto text = g.text("file");
  if (!text) return;
  if (text->empty()) {
    g.problem("file", "the path of a Selig .dat airfoil file", "nothing", "Give the file's path.");
    return;
  }
  // Relative to the case file, so a case and its airfoil move together and run from any working directory.
  const fs::path folder = fs::absolute(case_file).parent_path();
  const fs::path resolved = (fs::path(*text).is_absolute() ? fs::path(*text) : folder / *text).lexically_normal();
  std::error_code ec;
  const fs::file_status st = fs::status(resolved, ec);
  const std::string where = "'" + resolved.string() + "'";
  if (!fs::exists(st)) {
    g.problem("file", "an existing Selig .dat file", "no file at " + where,
              "Check the name; relative paths start from the case file's folder (" + folder.string() +
                  "), or give an absolute path.");
    return;
  }
  if (fs::is_directory(st)) {
    g.problem("file", "a Selig .dat file", "the folder " + where, "Name the .dat file inside it.");
    return;
  }
  if (!std::ifstream(resolved).good()) {
    g.problem("file", "a readable Selig .dat file", where + ", which cannot be opened",
              "Check its permissions (chmod a+r).");
    return;
  }
  c.selig_file = resolved;
}

}  // namespace

void read_geometry(const SectionReader& root, const std::filesystem::path& case_file, Case& c) {
  const SectionReader g = root.sub("geometry");
  if (g.absent()) {
    root.diag().error("geometry", g.section_mark(), "a 'geometry' section with a type (naca4, selig, cylinder or none)",
                      "nothing (the section is missing)",
                      "Add e.g. 'geometry: {type: naca4, code: \"0012\", chord_cells: 160}'.");
    return;
  }
  if (!g.present()) return;  // not a mapping: check_keys() has said so
  if (!g.has("type")) {
    g.missing("type", "one of naca4, selig, cylinder or none", "Add e.g. 'type: naca4'.");
    return;
  }
  const auto type = g.choice("type");
  if (!type) return;
  const TypeRule& rule =
      *std::find_if(type_rules().begin(), type_rules().end(), [&](const TypeRule& r) { return r.type == *type; });
  c.geometry = rule.geometry;

  for (const std::string& key : g.keys()) {
    if (key == "type" || std::find(rule.keys.begin(), rule.keys.end(), key) != rule.keys.end()) continue;
    if (!case_schema().find("geometry")->find(key)) continue;  // unknown: check_keys() reports it
    const bool is_length = key.ends_with("_cells");
    g.problem(key,
              std::string("only the keys of a ") + rule.type + " geometry (type, " + join_words(rule.keys, ", ") + ")",
              "'" + key + "'",
              is_length ? "A " + std::string(rule.type) + "'s reference length is " + rule.length_key + "; rename it."
                        : "'" + key + "' belongs to geometry type " + owners_of(key) + "; remove it.");
  }

  c.chord_cells = rule.length_default;
  if (auto l = g.number(rule.length_key, {8, 1e5},
                        "The reference length needs at least 8 cells to resolve anything and at most 100000; "
                        "100-400 cells is typical for an airfoil chord."))
    c.chord_cells = *l;

  if (rule.geometry == GeometryType::Naca4) read_naca_code(g, c);
  if (rule.geometry == GeometryType::Selig) read_selig_file(g, case_file, c);
}

}  // namespace aerolbm
