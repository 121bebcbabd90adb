// The wall function (kernels/physics/wall_function.hpp): its exponential and logarithm against the C library's,
// and the friction velocity against Spalding's law run forward, the viscous sublayer and the log law.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/physics/wall_function.hpp"

namespace aerolbm {
namespace {

TEST(WallFunction, ExpAndLogMatchTheLibraryToRounding) {
  for (double x = -60; x <= 60; x += 0.0137) {
    EXPECT_NEAR(deterministic_exp<double>(x) / std::exp(x), 1.0, 1e-15) << x;
    EXPECT_NEAR(double(deterministic_exp<float>(float(x))) / std::exp(double(float(x))), 1.0, 1.2e-7) << x;
  }
  for (double x = 1e-8; x < 1e12; x *= 1.37) {
    EXPECT_NEAR(deterministic_log<double>(x), std::log(x), 1e-15 * std::max(1.0, std::fabs(std::log(x)))) << x;
  }
  EXPECT_EQ(deterministic_log<double>(1.0), 0.0);
}

// Spalding's law run forward: pick u⁺, get y⁺ from the formula, and the Re_y = u⁺ y⁺ of that point; the inversion
// must give u⁺ back (double to 1e-12, float to 1e-5) from the viscous sublayer (u⁺ 0.5) to y⁺ ~ 10⁶ (u⁺ 37).
TEST(WallFunction, InvertsSpaldingsLaw) {
  for (double up = 0.5; up <= 37; up += 0.25) {
    const double yp = spalding_y_plus<double>(up);
    EXPECT_NEAR(spalding_u_plus<double>(up * yp), up, 1e-12 * up) << "u+ " << up << " y+ " << yp;
    EXPECT_NEAR(double(spalding_u_plus<float>(float(up * yp))), up, 1e-5 * up) << "u+ " << up;
  }
}

// Its two limits: u⁺ = y⁺ in the viscous sublayer (y⁺ < 1: within 0.3 %), u⁺ = ln(y⁺)/κ + B in the log region
// (y⁺ from 200 to 10⁵: within 0.5 %; at 100 0.9 %, the buffer layer); and u_τ = U/u⁺ dimensionally (U = 0.05, y = 2, ν = 10⁻⁵: Re_y = 10⁴).
TEST(WallFunction, SublayerAndLogLawLimits) {
  for (double yp = 0.05; yp < 1; yp += 0.05) {
    const double up = spalding_u_plus<double>(yp * yp);  // on u⁺ = y⁺, Re_y = y⁺²
    EXPECT_NEAR(up / yp, 1.0, 3e-3) << yp;
  }
  for (double yp = 200; yp < 1e5; yp *= 1.5) {
    const double log_law = std::log(yp) / kKarman + kLogLawB;
    const double up = spalding_u_plus<double>(yp * log_law);
    EXPECT_NEAR(up / log_law, 1.0, 5e-3) << yp;
  }
  const double ut = friction_velocity<double>(0.05, 2.0, 1e-5);
  const double up = 0.05 / ut, yp = 2.0 * ut / 1e-5;
  EXPECT_NEAR(spalding_y_plus<double>(up), yp, 1e-9 * yp);
  EXPECT_EQ(friction_velocity<double>(0.0, 2.0, 1e-5), 0.0);
}

}  // namespace
}  // namespace aerolbm
