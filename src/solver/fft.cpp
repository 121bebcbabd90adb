#include "src/solver/fft.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace aerolbm {

std::size_t next_power_of_two(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

void fft_in_place(std::vector<std::complex<double>>& x) {
  const std::size_t n = x.size();
  if (n == 0 || (n & (n - 1)) != 0)
    throw std::invalid_argument("fft_in_place: size " + std::to_string(n) + " is not a power of two");
  // Bit-reversal permutation, then butterflies of growing length.
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double angle = -2.0 * std::numbers::pi / double(len);
    for (std::size_t start = 0; start < n; start += len) {
      for (std::size_t k = 0; k < len / 2; ++k) {
        // The twiddle from cos/sin of each k (not a running product) keeps the round-off at a few ulps.
        const std::complex<double> w(std::cos(angle * double(k)), std::sin(angle * double(k)));
        const std::complex<double> a = x[start + k], b = x[start + k + len / 2] * w;
        x[start + k] = a + b;
        x[start + k + len / 2] = a - b;
      }
    }
  }
}

}  // namespace aerolbm
