#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>

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
      {"wing",
       GeometryType::Wing,
       "chord_cells",
       32,
       {"section", "tip_section", "chord_cells", "span", "taper", "tip_chord", "sweep_deg", "dihedral_deg",
        "twist_deg", "half"}},
      {"stl", GeometryType::Stl, "reference_cells", 32,
       {"file", "reference_cells", "units_per_reference", "pivot", "reference_area"}},
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

// A file named by `key`, resolved relative to the case file and checked to be a readable regular file.
std::optional<fs::path> resolve_file(const SectionReader& g, const std::string& key, const fs::path& case_file,
                                     const std::string& what, const std::string& value) {
  if (value.empty()) {
    g.problem(key, "the path of a " + what, "nothing", "Give the file's path.");
    return std::nullopt;
  }
  // Relative to the case file, so a case and its data move together and run from any working directory.
  const fs::path folder = fs::absolute(case_file).parent_path();
  const fs::path resolved = (fs::path(value).is_absolute() ? fs::path(value) : folder / value).lexically_normal();
  std::error_code ec;
  const fs::file_status st = fs::status(resolved, ec);
  const std::string where = "'" + resolved.string() + "'";
  if (!fs::exists(st)) {
    g.problem(key, "an existing " + what, "no file at " + where,
              "Check the name; relative paths start from the case file's folder (" + folder.string() +
                  "), or give an absolute path.");
    return std::nullopt;
  }
  if (fs::is_directory(st)) {
    g.problem(key, "a " + what, "the folder " + where, "Name the file inside it.");
    return std::nullopt;
  }
  if (!fs::is_regular_file(st)) {
    g.problem(key, "a " + what + " (a regular file)", where + ", which is not a regular file", "Name a regular file.");
    return std::nullopt;
  }
  if (!std::ifstream(resolved).good()) {
    g.problem(key, "a readable " + what, where + ", which cannot be opened", "Check its permissions (chmod a+r).");
    return std::nullopt;
  }
  return resolved;
}

void read_selig_file(const SectionReader& g, const fs::path& case_file, Case& c) {
  if (!g.has("file")) {
    g.missing("file", "the path of a Selig .dat airfoil file", "Add e.g. 'file: airfoils/e387.dat'.");
    return;
  }
  const auto text = g.text("file");
  if (!text) return;
  if (auto f = resolve_file(g, "file", case_file, "Selig .dat file", *text)) c.selig_file = *f;
}

// A wing section: a quoted NACA code of 4 or 5 digits, or the path of a Selig .dat file.
std::optional<SectionSource> read_section_source(const SectionReader& g, const std::string& key,
                                                 const fs::path& case_file) {
  const std::string expected =
      "a NACA code in quotes (4 digits such as \"0012\" or \"2412\", 5 digits such as \"23012\") or the path "
      "of a Selig .dat file";
  const YAML::Node v = g.get(key);
  if (!v.IsScalar()) {
    g.problem(key, expected, describe_value(v), "Give one quoted code or one file path.");
    return std::nullopt;
  }
  const std::string s = v.Scalar();
  if (all_digits(s)) {
    if (!is_quoted(v)) {
      const std::string padded = s.size() < 4 ? std::string(4 - s.size(), '0') + s : s;
      g.problem(key, expected, "the number " + s,
                "YAML reads unquoted digits as a number and drops leading zeros; quote it: " + key + ": \"" +
                    padded + "\".");
      return std::nullopt;
    }
    if (s.size() == 4) {
      const int camber = s[0] - '0', position = s[1] - '0', thickness = std::stoi(s.substr(2));
      if (thickness < 1 || thickness > 40 || (camber == 0) != (position == 0)) {
        g.problem(key, "a real NACA 4-digit section: thickness 01-40, camber and camber position both zero or both "
                       "non-zero", describe_value(v), "E.g. \"0012\" (symmetric) or \"2412\" (cambered).");
        return std::nullopt;
      }
      return SectionSource{s, {}};
    }
    if (s.size() == 5) {
      const int lift = s[0] - '0', position = s[1] - '0', reflex = s[2] - '0', thickness = std::stoi(s.substr(3));
      if (lift == 0 || position < 1 || position > 5 || reflex != 0 || thickness < 1 || thickness > 40) {
        g.problem(key,
                  "a standard NACA 5-digit section: 1st digit 1-9 (design lift / 0.15), 2nd 1-5 (camber position "
                  "/ 0.05), 3rd 0 (reflexed mean lines are not supported), thickness 01-40",
                  describe_value(v), "E.g. \"23012\"; or give the section as a Selig .dat file.");
        return std::nullopt;
      }
      return SectionSource{s, {}};
    }
    g.problem(key, expected, describe_value(v), "A NACA code has 4 or 5 digits.");
    return std::nullopt;
  }
  if (auto f = resolve_file(g, key, case_file, "Selig .dat file", s)) return SectionSource{{}, *f};
  return std::nullopt;
}

void read_wing(const SectionReader& g, const fs::path& case_file, Case& c) {
  if (!g.has("section"))
    g.missing("section", "the wing's airfoil: a quoted NACA code such as \"0012\" or \"23012\", or a Selig .dat file",
              "Add e.g. 'section: \"0012\"'.");
  else if (auto s = read_section_source(g, "section", case_file))
    c.wing_section = *s;
  if (g.has("tip_section"))
    if (auto s = read_section_source(g, "tip_section", case_file)) c.wing_tip_section = *s;
  if (auto v = g.number("span", {0, 100, true, false},
                        "The span is the full tip-to-tip span in root chords (the aspect ratio of a rectangular "
                        "wing); a half wing models half of it."))
    c.wing_span = *v;
  const Range chord_range{0, 10, true, false};
  if (g.has("taper") && g.has("tip_chord")) {
    g.problem("tip_chord", "either taper or tip_chord", "both", "Keep one: taper is tip chord / root chord.");
  } else if (auto v = g.number("taper", chord_range, "The taper ratio is tip chord / root chord, e.g. 0.5.")) {
    c.wing_tip_chord = *v;
  } else if (auto w = g.number("tip_chord", chord_range, "The tip chord is in root chords, e.g. 0.5.")) {
    c.wing_tip_chord = *w;
  }
  if (auto v = g.number("sweep_deg", {-80, 80, true, true}, "Leading-edge sweep in degrees, within ±80."))
    c.wing_sweep_deg = *v;
  if (auto v = g.number("dihedral_deg", {-80, 80, true, true}, "Dihedral in degrees, within ±80."))
    c.wing_dihedral_deg = *v;
  if (auto v = g.number("twist_deg", {-45, 45}, "Geometric twist at the tip in degrees (nose up positive; washout "
                                                 "is negative), within ±45."))
    c.wing_twist_deg = *v;
  if (auto v = g.boolean("half")) c.wing_half = *v;
}

void read_stl_geometry(const SectionReader& g, const fs::path& case_file, Case& c) {
  if (!g.has("file")) {
    g.missing("file", "the path of an STL file (binary or ASCII)", "Add e.g. 'file: data/body.stl'.");
  } else if (const auto text = g.text("file")) {
    if (auto f = resolve_file(g, "file", case_file, "STL file", *text)) c.stl_file = *f;
  }
  if (auto v = g.number("units_per_reference", {0, 1e9, true, false},
                        "Model units per reference length, e.g. 0.2 for a file in metres whose reference length "
                        "is 0.2 m."))
    c.stl_units_per_reference = *v;
  if (auto v = g.numbers("pivot", {-1e9, 1e9}, "The pivot is a point in the file's units.", "[0, 0, 0]")) {
    if (v->size() != 3)
      g.problem("pivot", "3 numbers (x, y, z in the file's units)", std::to_string(v->size()) + " numbers",
                "Give the point of the model that lands at domain.body_position_chords, e.g. [0, 0, 0].");
    else
      c.stl_pivot = {(*v)[0], (*v)[1], (*v)[2]};
  }
  if (auto v = g.number("reference_area", {0, 1e6, true, false},
                        "The reference area is in reference lengths squared (e.g. the planform area of a wing)."))
    c.stl_reference_area = *v;
}

}  // namespace

void read_geometry(const SectionReader& root, const std::filesystem::path& case_file, Case& c) {
  const SectionReader g = root.sub("geometry");
  if (g.absent()) {
    root.diag().error("geometry", g.section_mark(), "a 'geometry' section with a type (naca4, selig, cylinder, wing, stl or none)",
                      "nothing (the section is missing)",
                      "Add e.g. 'geometry: {type: naca4, code: \"0012\", chord_cells: 160}'.");
    return;
  }
  if (!g.present()) return;  // not a mapping: check_keys() has said so
  if (!g.has("type")) {
    g.missing("type", "one of naca4, selig, cylinder, wing, stl or none", "Add e.g. 'type: naca4'.");
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
  if (rule.geometry == GeometryType::Wing) read_wing(g, case_file, c);
  if (rule.geometry == GeometryType::Stl) read_stl_geometry(g, case_file, c);
  if (is_3d_body(rule.geometry) && dimensions(c.stencil) == 2)
    g.problem("type", "a 2D body (naca4, selig, cylinder or none) for lattice.stencil D2Q9", *type,
              std::string("A ") + *type + " is a 3D body: set lattice.stencil: D3Q19 (or D3Q27) and give "
              "domain.size_chords and body_position_chords three entries.");
}

}  // namespace aerolbm
