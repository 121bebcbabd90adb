#pragma once
// The one way to name the values of an enum: a table of {value, name} rows beside the enum, read both ways. The
// names are the words of the case file and the command line, which messages, logs and output files repeat.
// Plain C++17 (the .cu files include it through kernels/physics/params.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aerolbm {

// One row of an enum's name table.
template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value` in `table` ("?" if the table lacks it), and the value of `name` (nullopt if none has it).
template <class E, std::size_t N>
constexpr const char* enum_name(const EnumName<E> (&table)[N], E value) {
  for (const auto& row : table)
    if (row.value == value) return row.name;
  return "?";
}
template <class E, std::size_t N>
std::optional<E> enum_from_name(const EnumName<E> (&table)[N], std::string_view name) {
  for (const auto& row : table)
    if (name == row.name) return row.value;
  return std::nullopt;
}
// Every name of the table, in its order (the allowed words of a case-file key, a command-line option's choices).
template <class E, std::size_t N>
std::vector<std::string> enum_names(const EnumName<E> (&table)[N]) {
  std::vector<std::string> out;
  for (const auto& row : table) out.emplace_back(row.name);
  return out;
}

}  // namespace aerolbm
