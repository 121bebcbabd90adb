#include "src/io/half_float.hpp"

#include <immintrin.h>

#include <cstring>

namespace aerolbm {

std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u)  // infinity, or NaN: keep the top of the payload and make it quiet, as F16C does
    return std::uint16_t(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0u));
  if (a >= 0x47800000u) return std::uint16_t(sign | 0x7c00u);  // ≥ 65536: beyond the largest half, infinity
  if (a < 0x38800000u) {                                        // below 2^-14: a subnormal half or zero
    if (a < 0x33000000u) return std::uint16_t(sign);             // below 2^-25: rounds to zero
    const std::uint32_t e = a >> 23;
    const std::uint32_t m = (a & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - e;  // 14 … 24
    std::uint32_t h = m >> shift;
    const std::uint32_t rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (h & 1u))) ++h;  // may carry into the smallest normal: still right
    return std::uint16_t(sign | h);
  }
  std::uint32_t h = (a - 0x38000000u) >> 13;  // rebias the exponent (127 − 15), keep 10 mantissa bits
  const std::uint32_t rest = a & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry may reach infinity: right too
  return std::uint16_t(sign | h);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  std::uint32_t x;
  if (e == 0x1fu) {
    x = sign | 0x7f800000u | (m << 13);
  } else if (e != 0) {
    x = sign | ((e + 112u) << 23) | (m << 13);
  } else if (m == 0) {
    x = sign;
  } else {  // subnormal: normalise
    int shift = 0;
    std::uint32_t mm = m;
    while (!(mm & 0x400u)) {
      mm <<= 1;
      ++shift;
    }
    x = sign | (std::uint32_t(113 - shift) << 23) | ((mm & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &x, sizeof(f));
  return f;
}

namespace {

__attribute__((target("avx,f16c"))) void convert_f16c(const float* in, std::uint16_t* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(in + i);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) out[i] = float_to_half(in[i]);
}

bool has_f16c() {
  static const bool yes = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
  return yes;
}

}  // namespace

bool half_conversion_in_hardware() { return has_f16c(); }

void floats_to_halves(const float* in, std::uint16_t* out, std::size_t n) {
  if (has_f16c()) {
    convert_f16c(in, out, n);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = float_to_half(in[i]);
}

}  // namespace aerolbm
