#pragma once
// Numbers in text outputs are read back by Python, ParaView and spreadsheets, so they must not depend on the
// process locale (printf would write "0,5" after a setlocale) and must round-trip.
#include <charconv>
#include <cstdint>
#include <string>

namespace aerolbm {

// Shortest text that reads back to exactly the same double ("0.1", "1e+20", "nan", "inf").
inline std::string format_double(double value) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

// Same as printf("%.<digits>g") in the C locale.
inline std::string format_double(double value, int digits) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, digits);
  return std::string(buf, res.ptr);
}

inline std::string format_int(std::int64_t value) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

}  // namespace aerolbm
