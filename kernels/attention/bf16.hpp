#pragma once
// bfloat16 bit patterns on the host: conversion to and from float (round to nearest even, NaN kept NaN).
#include <cstdint>
#include <cstring>

namespace aerolbm::attention {

inline float bf16_to_float(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline std::uint16_t float_to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu)) return std::uint16_t((u >> 16) | 0x40u);  // NaN
  u += 0x7FFFu + ((u >> 16) & 1u);
  return std::uint16_t(u >> 16);
}

inline constexpr std::uint16_t kBf16NaN = 0x7FC0;

}  // namespace aerolbm::attention
