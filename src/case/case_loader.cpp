#include <fstream>
#include <sstream>
#include <system_error>

#include "src/case/loader_steps.hpp"
#include "src/case/overrides.hpp"

namespace aerolbm {
namespace {

namespace fs = std::filesystem;

// Read ourselves rather than through YAML::LoadFile, which reports every failure as "bad file" and so cannot
// tell a typo in the path from a permissions problem.
std::string read_case_text(const fs::path& file) {
  const std::string label = file.string();
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (!fs::exists(st)) {
    throw CaseError(InputProblem{
        label, 0, "", "an existing case file", "no such file",
        "Check the path (relative paths start from the current folder, " + fs::current_path(ec).string() + ")."});
  }
  if (fs::is_directory(st)) {
    throw CaseError(InputProblem{label, 0, "", "a readable case file", "a folder",
                                 "Name the .yaml file inside it, e.g. " + (file / "case.yaml").string() + "."});
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream buf;
  if (in) buf << in.rdbuf();
  if (!in || in.bad()) {
    throw CaseError(InputProblem{label, 0, "", "a readable case file", "a file that cannot be read",
                                 "Check its permissions (chmod a+r " + label + ")."});
  }
  return buf.str();
}

YAML::Node parse_case_text(const std::string& text, const std::string& label) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const std::string column = e.mark.is_null() ? "" : " (column " + std::to_string(e.mark.column + 1) + ")";
    throw CaseError(InputProblem{label, line, "", "valid YAML", "a syntax error: " + e.msg + column,
                                 "Check indentation (spaces, not tabs), unclosed brackets or quotes, and a "
                                 "space after each ':' on this line or the one before."});
  }
}

// A newer schema means keys we would misread; stop before guessing at them.
void check_schema_version(const SectionReader& root) {
  Diagnostics& d = root.diag();
  const std::string expected = "schema_version: " + std::to_string(kCaseSchemaVersion);
  if (!root.has("schema_version")) {
    d.fail("schema_version", root.section_mark(), expected, "nothing (the key is missing)",
           "Add 'schema_version: 1' as the first line of the case file.");
  }
  const YAML::Node v = root.get("schema_version");
  if (!v.IsScalar() || is_quoted(v) || v.Scalar() != std::to_string(kCaseSchemaVersion)) {
    d.fail("schema_version", v.Mark(), expected, describe_value(v),
           "This aerolbm reads schema version 1 only; write 'schema_version: 1' and use the keys in "
           "the case file reference in docs/case_file.md.");
  }
}

void check_keys_everywhere(const SectionReader& r, const KeySpec& spec) {
  r.check_keys();
  for (const KeySpec& k : spec.keys)
    if (k.kind == ValueKind::Mapping) check_keys_everywhere(r.sub(k.name), k);
}

}  // namespace

SectionReader root_reader(Diagnostics& diag, const YAML::Node& root) {
  return SectionReader(diag, root, "", YAML::Mark::null_mark(), case_schema());
}

Case load_case(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  return load_case_text(read_case_text(file), file.string(), file, overrides);
}

Case load_case_text(const std::string& text, const std::string& label, const std::filesystem::path& file,
                    const std::vector<std::string>& overrides) {
  YAML::Node root = parse_case_text(text, label);
  if (!root.IsMap()) {
    throw CaseError(InputProblem{label, root.IsNull() ? 0 : root.Mark().line + 1, "",
                                 "a mapping of sections (schema_version, case, physics, geometry, ...)",
                                 root.IsNull() ? "an empty document" : describe_value(root),
                                 "Start from a file in cases/ or the example in docs/case_file.md."});
  }

  Diagnostics diag(label);
  for (const std::string& text : overrides) apply_override(root, parse_override(text), diag);

  const SectionReader top = root_reader(diag, root);
  check_schema_version(top);
  check_keys_everywhere(top, case_schema());

  Case c;
  c.source_file = file;
  read_sections(top, file, c);
  diag.throw_if_errors();
  check_consistency(top, c);
  diag.throw_if_errors();

  c.yaml_text = emit_case_yaml(root, c, overrides);
  return c;
}

}  // namespace aerolbm
