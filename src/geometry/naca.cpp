#include "src/geometry/naca.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "src/geometry/geometry_error.hpp"

namespace aerolbm {

Naca4Params parse_naca4(const std::string& code) {
  const auto bad = [&](const std::string& why) {
    return GeometryError("geometry.code: \"" + code + "\" " + why +
                     "; expected a NACA 4-digit code such as \"0012\" or \"2412\" (quote it in YAML so leading "
                     "zeros survive)");
  };
  if (code.size() != 4) throw bad("does not have 4 characters");
  for (char ch : code)
    if (ch < '0' || ch > '9') throw bad("contains a character that is not a digit");
  const int m = code[0] - '0', p = code[1] - '0', t = (code[2] - '0') * 10 + (code[3] - '0');
  if (t == 0) throw bad("has zero thickness");
  if (m > 0 && p == 0) throw bad("has camber but no camber position (second digit 0)");
  return {m / 100.0, p / 10.0, t / 100.0};
}

double naca4_half_thickness(double t, double x) {
  if (!(x >= 0.0 && x <= 1.0)) throw std::domain_error("naca4_half_thickness: x outside [0, 1]");
  // The textbook polynomial 0.2969√x − 0.1260x − 0.3516x² + 0.2843x³ − 0.1036x⁴ vanishes at x = 1 only in exact
  // arithmetic (in doubles it leaves ≈ −6e-17, a negative thickness). With s = √x it factors exactly as
  // s·(1 − s)·R(s), and that form is 0 at both ends by construction. The unit test checks it against the
  // textbook form.
  const double s = std::sqrt(x);
  const double r =
      0.2969 + s * (0.1709 + s * (0.1709 + s * (-0.1807 + s * (-0.1807 + s * (0.1036 + s * 0.1036)))));
  return 5.0 * t * s * (1.0 - s) * r;
}

double naca4_camber(double m, double p, double x) {
  if (m == 0.0 || p == 0.0) return 0.0;
  // Factored so that y_c is exactly 0 at both ends of the chord (the closed trailing edge lands on y = 0).
  if (x < p) return m / (p * p) * x * (2.0 * p - x);
  return m / ((1.0 - p) * (1.0 - p)) * (1.0 - x) * (1.0 + x - 2.0 * p);
}

double naca4_camber_slope(double m, double p, double x) {
  if (m == 0.0 || p == 0.0) return 0.0;
  if (x < p) return 2.0 * m / (p * p) * (p - x);
  return 2.0 * m / ((1.0 - p) * (1.0 - p)) * (p - x);
}

namespace {

// The outline of thickness t laid off perpendicular to a camber line given as (y_c, slope) of x.
template <class Camber>
std::vector<Point2> outline_from(double t, int n_per_side, const Camber& camber) {
  if (n_per_side < 4) throw std::invalid_argument("naca outline: n_per_side must be at least 4");
  const auto n = static_cast<std::size_t>(n_per_side);
  std::vector<Point2> upper(n + 1), lower(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    // Cosine spacing clusters points at both edges, where curvature (leading edge) and the closing angle
    // (trailing edge) need them. The ends are set exactly so the TE and LE points are exact.
    const double x = i == 0 ? 0.0 : i == n ? 1.0
                                           : 0.5 * (1.0 - std::cos(std::numbers::pi * double(i) / double(n)));
    const double yt = naca4_half_thickness(t, x);
    const auto [yc, slope] = camber(x);
    const double theta = std::atan(slope);
    const double sn = std::sin(theta), cs = std::cos(theta);
    upper[i] = {x - yt * sn, yc + yt * cs};
    lower[i] = {x + yt * sn, yc - yt * cs};
  }
  std::vector<Point2> out;
  out.reserve(2 * n);
  for (std::size_t i = n + 1; i-- > 0;) out.push_back(upper[i]);  // TE → LE (includes both)
  for (std::size_t i = 1; i < n; ++i) out.push_back(lower[i]);     // after LE → before TE
  return out;
}

}  // namespace

std::vector<Point2> naca4_outline(const std::string& code, int n_per_side) {
  const Naca4Params f = parse_naca4(code);
  return outline_from(f.t, n_per_side, [&](double x) {
    return std::pair{naca4_camber(f.m, f.p, x), naca4_camber_slope(f.m, f.p, x)};
  });
}

Naca5Params parse_naca5(const std::string& code) {
  const auto bad = [&](const std::string& why) {
    return GeometryError("geometry.code: \"" + code + "\" " + why +
                     "; expected a NACA 5-digit code such as \"23012\" (design lift 0.15 x 1st digit, camber "
                     "position 2nd digit / 20, 3rd digit 0, thickness in the last two; quote it in YAML)");
  };
  if (code.size() != 5) throw bad("does not have 5 characters");
  for (char ch : code)
    if (ch < '0' || ch > '9') throw bad("contains a character that is not a digit");
  const int l = code[0] - '0', p = code[1] - '0', s = code[2] - '0', t = (code[3] - '0') * 10 + (code[4] - '0');
  if (l == 0) throw bad("has no design lift (first digit 0); a symmetric section is the 4-digit \"00" +
                        code.substr(3) + "\"");
  if (p < 1 || p > 5) throw bad("has a camber position digit outside 1-5 (the standard mean lines 210-250)");
  if (s != 0) throw bad("asks for a reflexed mean line (third digit 1), which is not supported");
  if (t < 1 || t > 40) throw bad("has a thickness outside 01-40 percent");
  // The published constants of the mean lines 210, 220, 230, 240, 250 (Abbott & von Doenhoff), for a design
  // lift coefficient of 0.3; k1 scales linearly with it.
  static constexpr double r[5] = {0.0580, 0.1260, 0.2025, 0.2900, 0.3910};
  static constexpr double k1[5] = {361.400, 51.640, 15.957, 6.643, 3.230};
  const double cl = 0.15 * l;
  return {r[p - 1], k1[p - 1] * cl / 0.3, t / 100.0, cl};
}

double naca5_camber(const Naca5Params& f, double x) {
  const double r = f.r;
  if (x < r) return f.k1 / 6.0 * x * (x * x - 3.0 * r * x + r * r * (3.0 - r));
  return f.k1 / 6.0 * r * r * r * (1.0 - x);
}

double naca5_camber_slope(const Naca5Params& f, double x) {
  const double r = f.r;
  if (x < r) return f.k1 / 6.0 * (3.0 * x * x - 6.0 * r * x + r * r * (3.0 - r));
  return -f.k1 / 6.0 * r * r * r;
}

std::vector<Point2> naca_outline(const std::string& code, int n_per_side) {
  if (code.size() == 4) return naca4_outline(code, n_per_side);
  if (code.size() != 5)
    throw GeometryError("geometry.code: \"" + code + "\" is neither a 4-digit (\"2412\") nor a 5-digit (\"23012\") "
                    "NACA code; quote it in YAML so leading zeros survive");
  const Naca5Params f = parse_naca5(code);
  return outline_from(f.t, n_per_side,
                      [&](double x) { return std::pair{naca5_camber(f, x), naca5_camber_slope(f, x)}; });
}

double naca_thickness(const std::string& code) {
  if (code.size() == 4) return parse_naca4(code).t;
  return parse_naca5(code).t;
}

}  // namespace aerolbm
