#pragma once
// The case-file schema (version 1) as data: which keys exist where, what kind of value each takes and, for
// enumerations, the allowed words. Unknown-key checks, --set path checks, the emitter's quoting and the reference
// doc test all read this one table, so a key added here is known everywhere at once. Ranges and defaults live with
// the code that reads each key (case_sections.cpp) because several depend on other keys.
#include <string>
#include <string_view>
#include <vector>

namespace aerolbm {

inline constexpr int kCaseSchemaVersion = 1;

// NumberLists: a list of number lists (refinement.boxes).
enum class ValueKind { Number, Integer, Boolean, String, Choice, NumberList, NumberLists, ChoiceList, Mapping };

struct KeySpec {
  std::string name;
  ValueKind kind = ValueKind::Number;
  std::vector<std::string> choices;  // Choice / ChoiceList: the allowed words, in the order the docs list them
  std::vector<KeySpec> keys;         // Mapping: the keys allowed inside
  const KeySpec* find(std::string_view key) const;
  std::vector<std::string> key_names() const;
};

// The root mapping: schema_version plus one Mapping per section.
const KeySpec& case_schema();

// Spec for a dotted path such as "lattice.les.model"; nullptr if the schema has no such key.
const KeySpec* find_key_spec(std::string_view dotted_path);

// Every leaf key as a dotted path, in schema order (for the reference doc test).
std::vector<std::string> all_key_paths();

// Accepted spellings of a section on the command line: "flow.x" means "physics.x".
std::string canonical_override_path(std::string_view dotted_path);

// For a key found in the wrong place: the section(s) where it does belong, e.g. "stencil" -> {"lattice"}.
std::vector<std::string> sections_with_key(std::string_view key);

// "a, b or c" for messages.
std::string join_words(const std::vector<std::string>& words, std::string_view last_separator = " or ");

}  // namespace aerolbm
