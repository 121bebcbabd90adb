#include "src/io/json.hpp"

#include <cmath>
#include <stdexcept>

#include "src/io/atomic_file.hpp"
#include "src/io/number_format.hpp"

namespace aerolbm {

Json& Json::push_back(Json value) {
  if (is_null()) v_ = Array{};
  auto* arr = std::get_if<Array>(&v_);
  if (!arr) throw std::logic_error("Json::push_back on a value that is not an array");
  arr->push_back(std::move(value));
  return arr->back();
}

Json& Json::operator[](const std::string& key) {
  if (is_null()) v_ = Object{};
  auto* obj = std::get_if<Object>(&v_);
  if (!obj) throw std::logic_error("Json member '" + key + "' requested on a value that is not an object");
  for (auto& [k, v] : *obj)
    if (k == key) return v;
  obj->emplace_back(key, Json());
  return obj->back().second;
}

const Json* Json::find(const std::string& key) const {
  const auto* obj = std::get_if<Object>(&v_);
  if (!obj) return nullptr;
  for (const auto& [k, v] : *obj)
    if (k == key) return &v;
  return nullptr;
}

std::string json_quote(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

namespace {
void newline(std::string& out, int indent, int level) {
  if (indent <= 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent) * static_cast<std::size_t>(level), ' ');
}
}  // namespace

void Json::dump_to(std::string& out, int indent, int level) const {
  switch (type()) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += std::get<bool>(v_) ? "true" : "false"; break;
    case Type::Double: {
      const double d = std::get<double>(v_);
      out += std::isfinite(d) ? format_double(d) : "null";
      break;
    }
    case Type::Int: out += format_int(std::get<std::int64_t>(v_)); break;
    case Type::String: out += json_quote(std::get<std::string>(v_)); break;
    case Type::Array: {
      const auto& arr = std::get<Array>(v_);
      if (arr.empty()) {
        out += "[]";
        break;
      }
      out += '[';
      for (std::size_t i = 0; i < arr.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, level + 1);
        arr[i].dump_to(out, indent, level + 1);
      }
      newline(out, indent, level);
      out += ']';
      break;
    }
    case Type::Object: {
      const auto& obj = std::get<Object>(v_);
      if (obj.empty()) {
        out += "{}";
        break;
      }
      out += '{';
      for (std::size_t i = 0; i < obj.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, level + 1);
        out += json_quote(obj[i].first);
        out += indent > 0 ? ": " : ":";
        obj[i].second.dump_to(out, indent, level + 1);
      }
      newline(out, indent, level);
      out += '}';
      break;
    }
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void write_json_atomically(const std::filesystem::path& path, const Json& value) {
  write_file_atomically(path, value.dump(2) + "\n");
}

}  // namespace aerolbm
