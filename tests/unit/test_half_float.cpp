// Float → IEEE binary16 conversion for output.precision: fp16: round to nearest even, overflow to infinity,
// subnormals, NaN kept; the F16C path and the plain C++ path give the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "src/io/half_float.hpp"

namespace aerolbm {
namespace {

float bits_to_float(std::uint32_t x) {
  float f;
  std::memcpy(&f, &x, sizeof(f));
  return f;
}

TEST(HalfFloat, KnownValues) {
  EXPECT_EQ(float_to_half(0.0f), 0x0000);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);                        // the largest half
  EXPECT_EQ(float_to_half(65519.99f), 0x7bff);                       // just below the midpoint to infinity
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);                        // the midpoint rounds to even: infinity
  EXPECT_EQ(float_to_half(1e6f), 0x7c00);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -14)), 0x0400);           // the smallest normal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);           // the smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);           // half of it: a tie, to even (zero)
  EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);           // above the tie
  EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 0x0002);           // 1.5 ulp: tie to even (2)
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);    // tie between 1 and 1+2^-10: to even
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(3.0f, -11)), 0x3c02);    // tie between 1+2^-10 and 1+2^-9: to even
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(HalfFloat, EveryHalfRoundTrips) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half_to_float(std::uint16_t(h));
    if (std::isnan(f)) {
      EXPECT_EQ(float_to_half(f) & 0x7e00, 0x7e00) << h;  // NaN stays NaN, made quiet
      continue;
    }
    EXPECT_EQ(float_to_half(f), h) << h;
  }
}

TEST(HalfFloat, NearestOfTheTwoNeighbours) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> val(-70000.0f, 70000.0f);
  for (int i = 0; i < 200000; ++i) {
    const float x = i % 2 ? val(rng) : val(rng) * 1e-6f;
    const float h = half_to_float(float_to_half(x));
    if (std::isinf(h)) {
      EXPECT_GE(std::abs(x), 65520.0f);
      continue;
    }
    // No half lies strictly closer: the neighbours one step up and down in magnitude are at least as far.
    const std::uint16_t b = float_to_half(x);
    for (int d : {-1, 1}) {
      const std::uint16_t n = std::uint16_t((b & 0x7fff) + d) | (b & 0x8000);
      if ((n & 0x7fff) >= 0x7c00 || (b & 0x7fff) + d < 0) continue;
      EXPECT_LE(std::abs(double(h) - x), std::abs(double(half_to_float(n)) - x)) << x;
    }
  }
}

TEST(HalfFloat, HardwareAndSoftwareAgreeOnEveryKindOfValue) {
  std::mt19937 rng(11);
  std::vector<float> in;
  for (int i = 0; i < 1 << 20; ++i) in.push_back(bits_to_float(std::uint32_t(rng())));  // NaNs, subnormals, all
  for (std::uint32_t e = 0x30000000; e < 0x48000000; e += 0x1000) in.push_back(bits_to_float(e));  // ties
  std::vector<std::uint16_t> fast(in.size());
  floats_to_halves(in.data(), fast.data(), in.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < in.size(); ++i) differ += fast[i] != float_to_half(in[i]);
  EXPECT_EQ(differ, 0u) << "F16C in use: " << half_conversion_in_hardware();
  std::printf("float -> half: F16C %s on this machine, %zu values agree\n",
              half_conversion_in_hardware() ? "used" : "absent (plain C++ only)", in.size());
}

}  // namespace
}  // namespace aerolbm
