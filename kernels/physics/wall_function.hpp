#pragma once
// Wall function: the friction velocity u_τ of a turbulent boundary layer from the tangential speed U at a distance
// y from the wall (kinematic viscosity ν), by Spalding's law of the wall (Spalding 1961), which holds from the
// viscous sublayer through the buffer layer into the log region in one formula:
//   y⁺ = u⁺ + e^{−κB} (e^{κu⁺} − 1 − κu⁺ − (κu⁺)²/2 − (κu⁺)³/6),   u⁺ = U/u_τ,  y⁺ = y u_τ/ν,
// with κ = 0.41 and B = 5.2. With Re_y = U y/ν the two unknowns become one: y⁺ = Re_y/u⁺, so u⁺ solves
//   g(u⁺) = u⁺ · spalding_y_plus(u⁺) − Re_y = 0,
// which increases with u⁺ (both factors do), by Newton's method from the larger of the viscous-sublayer and the
// log-law guesses, a fixed number of steps (no data-dependent exit, so every backend runs the same operations).
// The wall model (the wall shear stress ρ u_τ² on the wall links) builds on this.
//
// The exponential and logarithm are written out here (deterministic_exp, deterministic_log: range reduction by
// powers of two, exact, then a series): the CPU's libm and CUDA's exp and log round differently, and CPU and GPU
// runs must agree to the bit.
#include <cmath>

#include "kernels/physics/hd.hpp"

namespace aerolbm {

inline constexpr double kKarman = 0.41;       // von Kármán's constant κ
inline constexpr double kLogLawB = 5.2;       // the log law's intercept B
inline constexpr int kWallFunctionNewton = 12;  // Newton steps of friction_velocity (converged to rounding well before)

// e^x by +, −, ×, / and an exact power-of-two scaling only: x = k ln 2 + r with |r| ≤ ½ ln 2 (ln 2 split in a part
// exact in the product with k and a remainder), e^r by its Taylor series to r¹³/13! (relative error below 2⁻⁵³
// for double, far below float's), then times 2^k. For |x| ≤ 80 (the wall function stays far inside).
template <class R>
AEROLBM_HD R deterministic_exp(R x) {
  const double ln2_hi = 0.693145751953125;            // 13 significant bits: k · ln2_hi is exact for |k| < 2^40
  const double ln2_lo = 1.42860682030941723212e-06;   // ln 2 − ln2_hi
  const double xd = double(x);
  const double k = std::floor(xd * 1.4426950408889634 + 0.5);
  const double r = (xd - k * ln2_hi) - k * ln2_lo;
  double term = 1, sum = 1;
  AEROLBM_UNROLL
  for (int n = 1; n <= 13; ++n) {
    term = term * r / double(n);
    sum = sum + term;
  }
  return R(std::ldexp(sum, int(k)));
}

// ln x (x > 0) by +, −, ×, / and an exact split into mantissa and exponent only: x = m 2^e with m in [√½, √2),
// ln m = 2 atanh(s), s = (m − 1)/(m + 1), |s| < 0.172, by its series to s²³ (relative error below 2⁻⁵³).
template <class R>
AEROLBM_HD R deterministic_log(R x) {
  int e = 0;
  double m = std::frexp(double(x), &e);  // m in [½, 1)
  if (m < 0.70710678118654752) {
    m = 2 * m;
    e = e - 1;
  }
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double term = s, sum = s;
  AEROLBM_UNROLL
  for (int n = 1; n <= 11; ++n) {
    term = term * s2;
    sum = sum + term / double(2 * n + 1);
  }
  return R(double(e) * 0.69314718055994531 + 2 * sum);
}

// Spalding's y⁺ for a given u⁺ (the header's formula).
template <class R>
AEROLBM_HD R spalding_y_plus(R u_plus) {
  const R ku = R(kKarman) * u_plus;
  const R e_kb = deterministic_exp<R>(R(-kKarman * kLogLawB));
  return u_plus + e_kb * (deterministic_exp<R>(ku) - R(1) - ku - ku * ku / R(2) - ku * ku * ku / R(6));
}

// d(y⁺)/d(u⁺) of spalding_y_plus.
template <class R>
AEROLBM_HD R spalding_slope(R u_plus) {
  const R ku = R(kKarman) * u_plus;
  const R e_kb = deterministic_exp<R>(R(-kKarman * kLogLawB));
  return R(1) + e_kb * R(kKarman) * (deterministic_exp<R>(ku) - R(1) - ku - ku * ku / R(2));
}

// u⁺ of a point at distance y from the wall where the tangential speed is U, for Re_y = U y / ν (≥ 0).
template <class R>
AEROLBM_HD R spalding_u_plus(R re_y) {
  if (!(re_y > R(0))) return R(0);
  // Start: the smaller of the viscous sublayer's u⁺ = √Re_y (never below the root: y⁺ = u⁺ ≤ spalding_y_plus(u⁺))
  // and the log law's, u⁺ = ln(Re_y/u⁺)/κ + B by two fixed-point steps from 20 (near the root wherever the log law
  // holds). g is increasing and convex, so Newton from the right decreases to the root, and from a point left of it
  // steps once past it and then decreases.
  R u_log = R(20);
  for (int it = 0; it < 2; ++it) {
    u_log = deterministic_log<R>(re_y / u_log) / R(kKarman) + R(kLogLawB);
    if (!(u_log > R(1))) u_log = R(1);  // low Re_y: the log law does not apply (the sublayer guess wins below)
  }
  R u = std::sqrt(re_y);
  if (u_log > R(1) && u_log < u) u = u_log;
  AEROLBM_UNROLL
  for (int it = 0; it < kWallFunctionNewton; ++it) {
    const R y = spalding_y_plus<R>(u);
    const R g = u * y - re_y;
    const R dg = y + u * spalding_slope<R>(u);
    u = u - g / dg;
    if (u > R(60)) u = R(60);  // e^{κu⁺} stays finite in float (no flow here has u⁺ near 60: y⁺ would be ~10¹⁰)
  }
  return u;
}

// The friction velocity u_τ for the tangential speed U (≥ 0) at distance y (> 0) from the wall, viscosity ν (> 0).
template <class R>
AEROLBM_HD R friction_velocity(R speed, R y, R nu) {
  const R u_plus = spalding_u_plus<R>(speed * y / nu);
  return u_plus > R(0) ? speed / u_plus : R(0);
}

}  // namespace aerolbm
