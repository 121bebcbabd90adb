#include "src/case/loader_steps.hpp"

namespace aerolbm {
namespace {

// Keys come out in schema order and text values always quoted, so the stored case reads back identically here
// and in YAML 1.1 readers (PyYAML would turn an unquoted 0012 into the octal number 10).
void emit_node(YAML::Emitter& e, const YAML::Node& n, const KeySpec* spec) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      e << (n.Style() == YAML::EmitterStyle::Flow ? YAML::Flow : YAML::Block) << YAML::BeginMap;
      std::vector<std::string> order = spec ? spec->key_names() : std::vector<std::string>{};
      for (auto it = n.begin(); it != n.end(); ++it)
        if (std::find(order.begin(), order.end(), it->first.Scalar()) == order.end())
          order.push_back(it->first.Scalar());
      for (const std::string& key : order) {
        const YAML::Node child = n[key];
        if (!child.IsDefined()) continue;
        e << YAML::Key << key << YAML::Value;
        emit_node(e, child, spec ? spec->find(key) : nullptr);
      }
      e << YAML::EndMap;
      break;
    }
    case YAML::NodeType::Sequence:
      e << (n.Style() == YAML::EmitterStyle::Block ? YAML::Block : YAML::Flow) << YAML::BeginSeq;
      for (std::size_t i = 0; i < n.size(); ++i) emit_node(e, n[i], spec);
      e << YAML::EndSeq;
      break;
    case YAML::NodeType::Scalar:
      if (is_quoted(n) || (spec && spec->kind == ValueKind::String))
        e << YAML::DoubleQuoted << n.Scalar();
      else
        e << n.Scalar();
      break;
    default:
      e << YAML::Null;
  }
}

YAML::Node quoted(const std::string& s) {
  YAML::Node n(s);
  n.SetTag("!");
  return n;
}

// Makes `parent[key]` a mapping (it may be missing or null) and returns a handle to it.
YAML::Node section(YAML::Node& parent, const std::string& key) {
  if (!parent[key].IsMap()) parent[key] = YAML::Node(YAML::NodeType::Map);
  return parent[key];
}

// Text for a '#' comment line: a line break inside an override ("--set 'a=[1,<newline>2]'") or a file name
// would end the comment and leave the rest as YAML, and the stored case would no longer load.
std::string comment_text(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    if (ch == '\n')
      out += "\\n";
    else if (ch == '\r')
      out += "\\r";
    else
      out += ch;
  }
  return out;
}

}  // namespace

std::string emit_case_yaml(const YAML::Node& root, const Case& c, const std::vector<std::string>& overrides) {
  // Fill in what depends on where the case was read from, so the copy in a run folder loads to the same Case:
  // the name defaulted from the file name, and the airfoil file relative to the original folder.
  YAML::Node tree = YAML::Clone(root);
  section(tree, "case")["name"] = quoted(c.name);
  if (c.geometry == GeometryType::Selig) section(tree, "geometry")["file"] = quoted(c.selig_file.string());
  if (c.geometry == GeometryType::Stl) section(tree, "geometry")["file"] = quoted(c.stl_file.string());
  if (c.geometry == GeometryType::Wing) {
    if (!c.wing_section.file.empty()) section(tree, "geometry")["section"] = quoted(c.wing_section.file.string());
    if (!c.wing_tip_section.file.empty())
      section(tree, "geometry")["tip_section"] = quoted(c.wing_tip_section.file.string());
  }

  YAML::Emitter e;
  e.SetIndent(2);
  emit_node(e, tree, &case_schema());
  std::string text = "# aerolbm case as run (schema_version " + std::to_string(kCaseSchemaVersion) + ")\n";
  text += "# source: " + comment_text(c.source_file.string()) + "\n";
  if (!overrides.empty()) {
    text += "# overrides:";
    for (const auto& o : overrides) text += " --set " + comment_text(o);
    text += "\n";
  }
  return text + e.c_str() + "\n";
}

}  // namespace aerolbm
