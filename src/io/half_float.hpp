#pragma once
// IEEE 754 binary16 ("half") values for 16-bit field output (output.precision: fp16): conversion from float with
// round-to-nearest-even, by the F16C instructions where the processor has them, else by the same rounding in
// plain C++ (bit for bit the same results, NaN payloads included).
#include <cstddef>
#include <cstdint>

namespace aerolbm {

// One value: the bits of the nearest half (ties to even; overflow to ±infinity; NaN stays NaN).
std::uint16_t float_to_half(float f);

// n values; uses F16C when present.
void floats_to_halves(const float* in, std::uint16_t* out, std::size_t n);

// The exact float of a half (every half is a float).
float half_to_float(std::uint16_t h);

// Whether floats_to_halves uses the F16C instructions on this machine.
bool half_conversion_in_hardware();

}  // namespace aerolbm
