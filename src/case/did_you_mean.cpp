#include "src/case/did_you_mean.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace aerolbm {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string lowered(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), lower);
  return out;
}

// Names people reach for from other solvers or papers; edit distance alone cannot connect "aoa" to the real key.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kSynonyms{{
    {"re", "reynolds"},
    {"reynolds_number", "reynolds"},
    {"ma", "mach"},
    {"mach_number", "mach"},
    {"aoa", "angle_of_attack_deg"},
    {"alpha", "angle_of_attack_deg"},
    {"angle_of_attack", "angle_of_attack_deg"},
    {"flow", "physics"},
    {"naca", "code"},
    {"resolution", "chord_cells"},
    {"lbm", "lattice"},
    {"bc", "boundaries"},
}};

}  // namespace

std::size_t edit_distance(std::string_view a_in, std::string_view b_in) {
  const std::string a = lowered(a_in), b = lowered(b_in);
  const std::size_t n = a.size(), m = b.size();
  // Three rows suffice for the optimal-string-alignment variant (transpositions look back two rows).
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty() || candidates.empty()) return std::nullopt;
  const std::string w = lowered(word);
  for (const auto& [alias, target] : kSynonyms) {
    if (w == alias && std::find(candidates.begin(), candidates.end(), target) != candidates.end())
      return std::string(target);
  }
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    // Allow roughly one edit per three letters, at least one and at most three: "stencl" finds "stencil" but
    // "type" does not turn into "time".
    const std::size_t limit = std::clamp<std::size_t>(std::min(w.size(), c.size()) / 3, 1, 3);
    if (d <= limit && (!best || d < best_distance)) {
      best = c;
      best_distance = d;
    }
  }
  if (best) return best;
  // A clipped, extended or re-inflected name ("angle_of_attack" for "angle_of_attack_deg", "boundary" for
  // "boundaries"): a long shared start says more than the edit count of the ends.
  for (const auto& c : candidates) {
    const std::string lc = lowered(c);
    const std::size_t shorter = std::min(w.size(), lc.size());
    std::size_t common = 0;
    while (common < shorter && w[common] == lc[common]) ++common;
    if (w.size() >= 4 && (common == shorter || (common >= 4 && 4 * common >= 3 * shorter))) return c;
  }
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto m = closest_match(word, candidates);
  return m ? " Did you mean '" + *m + "'?" : std::string();
}

}  // namespace aerolbm
