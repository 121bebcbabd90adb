#pragma once
// Error of one field of run B against run A (the reference) over the points valid in both.
#include <cstdint>
#include <optional>
#include <vector>

namespace aerolbm {

struct FieldError {
  std::int64_t points = 0;          // points compared
  double rel_l2 = 0;                // ||b − a||₂ / ||a||₂ (vectors: Euclidean over all components)
  double max_abs = 0;               // max over points of |b − a| (vectors: length of the difference)
  std::int64_t max_at = -1;         // point index of max_abs
  double ref_max = 0;               // max over points of |a|, to read max_abs against
  bool ref_zero = false;            // ||a||₂ = 0: rel_l2 is then ||b − a||₂ itself
};

// a, b: `components` values per point; valid: empty (all points) or 1 per point to compare. The difference
// b − a is returned in `diff` when given (0 at points not compared).
FieldError field_error(const std::vector<float>& a, const std::vector<float>& b, int components,
                       const std::vector<std::uint8_t>& valid, std::vector<float>* diff = nullptr);

}  // namespace aerolbm
