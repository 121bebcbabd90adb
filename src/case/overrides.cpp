#include "src/case/overrides.hpp"

#include "src/case/case.hpp"
#include "src/case/did_you_mean.hpp"
#include "src/case/schema.hpp"

namespace aerolbm {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<std::string> split_dots(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

[[noreturn]] void fail(const std::string& label, const std::string& path, const std::string& expected,
                       const std::string& got, const std::string& hint) {
  throw CaseError(InputProblem{"command line (" + label + ")", 0, path, expected, got, hint});
}

// Walks the schema along the path; every step must name a key that exists at that level.
const KeySpec& checked_spec(const std::string& label, const std::string& path) {
  const KeySpec* cur = &case_schema();
  std::string walked;
  for (const std::string& part : split_dots(path)) {
    if (cur->kind != ValueKind::Mapping) {
      fail(label, path, "a path that ends at '" + walked + "'", "more after it",
           "'" + walked + "' is a single value, not a section; write --set " + walked + "=VALUE.");
    }
    const std::string here = walked.empty() ? part : walked + "." + part;
    if (part.empty()) fail(label, path, "key names separated by single dots", "an empty name", "Remove the extra dot.");
    const KeySpec* next = cur->find(part);
    if (!next) {
      const std::vector<std::string> names = cur->key_names();
      const std::string s = did_you_mean(part, names);
      fail(label, here,
           walked.empty() ? "one of the sections " + join_words(names, ", ")
                          : "one of the keys of '" + walked + "' (" + join_words(names, ", ") + ")",
           "unknown key '" + part + "'",
           s.empty() ? "Check the spelling against the case file reference in docs/case_file.md." : s.substr(1));
    }
    cur = next;
    walked = here;
  }
  return *cur;
}

}  // namespace

Override parse_override(const std::string& text) {
  const std::string label = "--set " + text;
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) {
    const std::string key = trim(text);
    fail(label, canonical_override_path(key), "key.path=value", "no '='",
         "Write it as --set " + (key.empty() ? std::string("physics.mach") : key) + "=VALUE.");
  }
  const std::string raw_key = trim(text.substr(0, eq));
  const std::string value_text = trim(text.substr(eq + 1));
  if (raw_key.empty()) fail(label, "", "a dotted key path before '='", "nothing", "Write e.g. --set physics.mach=0.2.");

  Override o;
  o.label = label;
  o.path = canonical_override_path(raw_key);
  const KeySpec& spec = checked_spec(label, o.path);

  YAML::Node parsed;
  try {
    parsed = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    fail(label, o.path, "a YAML value after '='", "'" + value_text + "' (" + e.msg + ")",
         "Quote the whole argument for the shell, e.g. --set 'domain.size_chords=[10, 5]'.");
  }
  if (spec.kind == ValueKind::String) {
    // Text keys take the characters as typed: "--set geometry.code=0012" means the string "0012" (the shell has
    // already eaten any quotes the user wrote), and a quoted YAML value gives its content.
    o.value = YAML::Node(parsed.IsScalar() && is_quoted(parsed) ? parsed.Scalar() : value_text);
    o.value.SetTag("!");
  } else {
    o.value = parsed;
  }
  return o;
}

void apply_override(YAML::Node& root, const Override& o, Diagnostics& diag) {
  const std::vector<std::string> parts = split_dots(o.path);
  YAML::Node cur = root;  // a handle; reset() moves it without writing through it
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    walked = walked.empty() ? parts[i] : walked + "." + parts[i];
    YAML::Node child = cur[parts[i]];
    if (!child.IsDefined() || !child.IsMap()) {
      // A section the file left out (or wrote as a scalar) now exists only because of this --set, so problems
      // inside it, such as a missing required key, are reported against the command line.
      const bool was_empty = child.IsDefined() && child.IsNull();
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      if (!was_empty) diag.note_override(walked, o.label);
    }
    YAML::Node next = cur[parts[i]];
    cur.reset(next);
  }
  cur[parts.back()] = o.value;
  diag.note_override(o.path, o.label);
}

}  // namespace aerolbm
