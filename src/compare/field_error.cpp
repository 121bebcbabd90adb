#include "src/compare/field_error.hpp"

#include <cmath>

namespace aerolbm {

FieldError field_error(const std::vector<float>& a, const std::vector<float>& b, int components,
                       const std::vector<std::uint8_t>& valid, std::vector<float>* diff) {
  FieldError e;
  const std::int64_t n = std::int64_t(a.size()) / components;
  if (diff) diff->assign(a.size(), 0.0f);
  double num = 0, den = 0;
  for (std::int64_t p = 0; p < n; ++p) {
    if (!valid.empty() && !valid[p]) continue;
    double d2 = 0, a2 = 0;
    for (int k = 0; k < components; ++k) {
      const double x = a[p * components + k], y = b[p * components + k];
      d2 += (y - x) * (y - x);
      a2 += x * x;
      if (diff) (*diff)[p * components + k] = float(y - x);
    }
    num += d2;
    den += a2;
    ++e.points;
    // A NaN difference must win, or a diverged run would compare as "max error 0".
    const double d = std::sqrt(d2);
    if (d > e.max_abs || (std::isnan(d) && !std::isnan(e.max_abs))) {
      e.max_abs = d;
      e.max_at = p;
    }
    e.ref_max = std::max(e.ref_max, std::sqrt(a2));
  }
  e.ref_zero = den == 0;
  e.rel_l2 = e.ref_zero ? std::sqrt(num) : std::sqrt(num / den);
  return e;
}

}  // namespace aerolbm
