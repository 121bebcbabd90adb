#include "src/geometry/selig.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "src/geometry/geometry_error.hpp"

namespace aerolbm {

namespace {

constexpr std::size_t kMinPoints = 10;
// Published airfoil files hold tens to a few hundred points; the self-intersection check is quadratic (20,000
// points take seconds), so a file far beyond any real airfoil is refused rather than hanging the loader.
constexpr std::size_t kMaxPoints = 20000;
constexpr double kXLow = -0.01, kXHigh = 1.01;
constexpr double kChordTolerance = 0.01;
// A blunt trailing edge leaves a gap of well under 1% of chord in real sections; a gap of 2% means the file
// stops part-way (or is in the wrong order).
constexpr double kMaxTrailingEdgeGap = 0.02;

std::vector<std::string> split_ws(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string tok; in >> tok;) out.push_back(tok);
  return out;
}

// strtod, but the whole token must be a finite number ("1.0abc", "nan" and "inf" are not coordinates).
bool parse_number(const std::string& tok, double& v) {
  errno = 0;
  char* end = nullptr;
  v = std::strtod(tok.c_str(), &end);
  return end == tok.c_str() + tok.size() && errno == 0 && std::isfinite(v);
}

bool parse_pair(const std::vector<std::string>& toks, Point2& p) {
  return toks.size() == 2 && parse_number(toks[0], p[0]) && parse_number(toks[1], p[1]);
}

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

struct Numbered {
  Point2 p;
  int line;
};

}  // namespace

std::vector<Point2> read_selig(const std::filesystem::path& file) {
  const std::string name = file.string();
  const auto error = [&](int line, const std::string& what) {
    return GeometryError(name + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what);
  };

  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw error(0, "airfoil coordinate file (geometry.file) does not exist or is not a regular file; check the "
                   "path (a relative path is taken from the case file's folder)");
  std::ifstream in(file);
  if (!in) throw error(0, std::string("cannot open the airfoil coordinate file (geometry.file): ") +
                              std::strerror(errno) + "; check its permissions");

  std::vector<Numbered> pts;
  std::string line;
  int lineno = 0, last_data_line = 0;
  bool saw_second = false;
  while (std::getline(in, line)) {
    ++lineno;
    if (lineno == 1) continue;  // the section's name
    const auto toks = split_ws(line);
    if (toks.empty()) continue;
    Point2 p{};
    if (!parse_pair(toks, p))
      throw error(lineno, "expected two numbers \"x y\", found \"" + line +
                              "\"; a Selig file is a name line followed only by coordinate pairs");
    if (!saw_second) {
      saw_second = true;
      // Lednicer files open with the point counts of each surface ("61. 61."), then list both surfaces from
      // the leading edge: reading them as Selig would splice the surfaces into a wrong shape.
      if (p[0] >= 2 && p[1] >= 2 && p[0] == std::floor(p[0]) && p[1] == std::floor(p[1]))
        throw error(lineno, "this looks like a Lednicer-format file (point counts \"" + line +
                                "\"); aerolbm reads the Selig format: convert it to one list running from the "
                                "trailing edge over the upper surface to the leading edge and back along the "
                                "lower surface, without the count line");
    }
    if (p[0] < kXLow || p[0] > kXHigh)
      throw error(lineno, "x = " + fmt(p[0]) + " is outside [" + fmt(kXLow) + ", " + fmt(kXHigh) +
                              "]: coordinates must be normalised to chord 1 (leading edge at x = 0, trailing "
                              "edge at x = 1); divide every coordinate by the chord");
    last_data_line = lineno;
    // Many published files repeat a point (often the leading edge); a zero-length edge carries no geometry.
    if (!pts.empty() && pts.back().p == p) continue;
    pts.push_back({p, lineno});
  }
  if (in.bad()) throw error(lineno, "read error; check the file is intact");
  // The trailing edge is usually listed at both ends; the polygon closes itself.
  if (pts.size() > 1 && pts.back().p == pts.front().p) pts.pop_back();

  if (pts.size() < kMinPoints)
    throw error(std::max(lineno, 1), "only " + std::to_string(pts.size()) + " distinct points; need at least " +
                                         std::to_string(kMinPoints) +
                                         " to describe an airfoil (the file may be truncated)");

  if (pts.size() > kMaxPoints)
    throw error(lineno, std::to_string(pts.size()) + " distinct points; at most " + std::to_string(kMaxPoints) +
                            " are accepted (published airfoils have tens to a few hundred): resample the outline");

  const Numbered& first = pts.front();
  const Numbered& last = pts.back();
  const double gap = std::hypot(last.p[0] - first.p[0], last.p[1] - first.p[1]);
  if (gap > kMaxTrailingEdgeGap)
    throw error(last_data_line,
                "the outline ends at (" + fmt(last.p[0]) + ", " + fmt(last.p[1]) + "), " + fmt(gap) +
                    " chords from where it starts on line " + std::to_string(first.line) +
                    "; a Selig outline starts and ends at the trailing edge (upper surface TE→LE, then lower "
                    "LE→TE): the file looks truncated or out of order");

  const auto [lo, hi] = std::minmax_element(pts.begin(), pts.end(),
                                            [](const Numbered& a, const Numbered& b) { return a.p[0] < b.p[0]; });
  const double x0 = lo->p[0], chord = hi->p[0] - x0;
  if (std::abs(chord - 1.0) > kChordTolerance)
    throw error(hi->line, "the chord (x from " + fmt(x0) + " on line " + std::to_string(lo->line) + " to " +
                              fmt(hi->p[0]) + " here) is " + fmt(chord) +
                              ", not 1 within 1%; rescale the coordinates so that x runs from 0 to 1");

  std::vector<Point2> out;
  out.reserve(pts.size());
  // Small deviations (rounded files, a leading edge at x = -0.002) are normalised rather than refused.
  for (const Numbered& n : pts) out.push_back({(n.p[0] - x0) / chord, n.p[1] / chord});

  if (std::abs(signed_area(out)) < 1e-6)
    throw error(last_data_line, "the outline encloses no area; check that both surfaces are listed");
  if (const auto hit = find_self_intersection(out)) {
    const std::size_t n = out.size();
    const auto edge = [&](std::size_t i) {
      return "lines " + std::to_string(pts[i].line) + "–" + std::to_string(pts[(i + 1) % n].line);
    };
    throw error(pts[hit->first].line, "the outline crosses itself (the segment between " + edge(hit->first) +
                                          " meets the segment between " + edge(hit->second) +
                                          "); check the point order: upper surface from the trailing edge to "
                                          "the leading edge, then the lower surface back to the trailing edge");
  }
  return out;
}

}  // namespace aerolbm
