#pragma once
// A radix-2 complex FFT, enough for the force-history spectrum (src/solver/lift_spectrum.cpp): thousands of
// samples, once per run.
#include <complex>
#include <vector>

namespace aerolbm {

// In place, forward (X_j = Σ x_k e^{−2πi jk/n}), no scaling. Throws std::invalid_argument unless the size is a
// power of two (1 included).
void fft_in_place(std::vector<std::complex<double>>& x);

// The smallest power of two ≥ n (1 for n ≤ 1).
std::size_t next_power_of_two(std::size_t n);

}  // namespace aerolbm
