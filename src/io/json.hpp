#pragma once
// A tiny JSON value for summary.json. Objects keep insertion order so the file reads in the order the run
// produced it (case, backend, grid, ..., results), which a generic map would lose.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace aerolbm {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;
  enum class Type { Null, Bool, Double, Int, String, Array, Object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : v_(b) {}
  // Every integer type goes to int64 and every floating type to double; without these templates `size_t` or
  // `float` would be ambiguous and `const char*` would silently become a bool.
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Json(T i) : v_(static_cast<std::int64_t>(i)) {}
  template <std::floating_point T>
  Json(T d) : v_(static_cast<double>(d)) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string_view s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(Array a) : v_(std::move(a)) {}
  Json(Object o) : v_(std::move(o)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }

  Type type() const { return static_cast<Type>(v_.index()); }
  bool is_null() const { return type() == Type::Null; }

  // Appends to an array (a null value becomes an empty array first). Throws std::logic_error otherwise.
  Json& push_back(Json value);
  // Object member access: an existing key keeps its position, a new key goes last (a null value becomes an
  // empty object first). Throws std::logic_error on other types.
  Json& operator[](const std::string& key);
  Json& set(const std::string& key, Json value) {
    (*this)[key] = std::move(value);
    return *this;
  }
  // Null when absent or when this is not an object.
  const Json* find(const std::string& key) const;

  // indent > 0: pretty-printed with that many spaces per level; indent <= 0: one line.
  // Non-finite doubles are written as null, since JSON has no NaN/Inf and Python's json would write invalid
  // tokens that other readers reject.
  std::string dump(int indent = 2) const;

  const Array& as_array() const { return std::get<Array>(v_); }
  const Object& as_object() const { return std::get<Object>(v_); }

 private:
  void dump_to(std::string& out, int indent, int level) const;
  std::variant<std::nullptr_t, bool, double, std::int64_t, std::string, Array, Object> v_{nullptr};
};

// Quotes and escapes a string as JSON (", \, control characters); UTF-8 passes through unchanged.
std::string json_quote(std::string_view s);

// dump(2) plus a final newline, written through write_file_atomically.
void write_json_atomically(const std::filesystem::path& path, const Json& value);

}  // namespace aerolbm
