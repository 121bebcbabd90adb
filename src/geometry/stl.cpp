#include "src/geometry/stl.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

#include "src/geometry/geometry_error.hpp"

namespace aerolbm {

static_assert(std::endian::native == std::endian::little, "the binary STL reader assumes a little-endian host");

namespace {

constexpr std::size_t kHeader = 80, kCountEnd = 84, kRecord = 50;
// Up to this share of zero-area triangles is dropped (exporters leave a few slivers); more means a broken export.
constexpr double kMaxDegenerateShare = 0.10;
constexpr std::string_view kRepair =
    "repair the mesh (fill holes, remove duplicate or internal faces, make the normals consistent: e.g. MeshLab, "
    "or Blender's 3D-Print toolbox) and export it again";

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(7);
  s << v;
  return s.str();
}

std::string fmt(const Vec3& p) { return "(" + fmt(p[0]) + ", " + fmt(p[1]) + ", " + fmt(p[2]) + ")"; }

bool starts_with_solid(const std::string& bytes) {
  std::size_t i = 0;
  while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
  if (bytes.size() - i < 5) return false;
  for (std::size_t k = 0; k < 5; ++k)
    if (std::tolower(static_cast<unsigned char>(bytes[i + k])) != "solid"[k]) return false;
  return i + 5 == bytes.size() || std::isspace(static_cast<unsigned char>(bytes[i + 5]));
}

// ASCII STL is plain text: a NUL or another control byte (other than whitespace) means binary data.
bool looks_like_text(const std::string& bytes) {
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v') return false;
    if (c == 0x7f) return false;
  }
  return true;
}

struct Token {
  std::string_view text;
  int line = 0;
};

// Whitespace-separated tokens with their line numbers.
class Tokens {
 public:
  explicit Tokens(const std::string& s) : s_(s) {}

  // The next token, or an empty one (line of the end of file) at the end.
  Token next() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) {
      if (s_[pos_] == '\n') ++line_;
      ++pos_;
    }
    const std::size_t start = pos_;
    while (pos_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return {std::string_view(s_).substr(start, pos_ - start), line_};
  }
  // Skips the rest of the current line (a solid's name may contain spaces).
  void skip_line() {
    while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
  }

 private:
  const std::string& s_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

bool keyword_is(std::string_view tok, std::string_view kw) {
  if (tok.size() != kw.size()) return false;
  for (std::size_t i = 0; i < kw.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(tok[i])) != kw[i]) return false;
  return true;
}

std::string shown(std::string_view tok) {
  if (tok.empty()) return "the end of the file";
  std::string s(tok.substr(0, 40));
  for (char& c : s)
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  return "\"" + s + (tok.size() > 40 ? "…" : "") + "\"";
}

// strtod over the whole token; nan/inf parse (the caller says they are not finite).
bool parse_number(std::string_view tok, double& v) {
  if (tok.empty() || tok.size() > 64) return false;
  const std::string t(tok);
  char* end = nullptr;
  v = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size();  // out of range: ±inf, refused as not finite
}

class AsciiReader {
 public:
  AsciiReader(const std::string& bytes, const std::string& name) : tok_(bytes), name_(name) {}

  std::vector<Triangle> read() {
    std::vector<Triangle> out;
    Token t = tok_.next();
    if (!keyword_is(t.text, "solid")) fail(t, "expected \"solid\" to start an ASCII STL, found " + shown(t.text));
    tok_.skip_line();
    for (;;) {
      t = tok_.next();
      if (keyword_is(t.text, "endsolid")) {
        tok_.skip_line();
        t = tok_.next();
        if (t.text.empty()) return out;
        // Some exporters write several solids into one file.
        if (keyword_is(t.text, "solid")) {
          tok_.skip_line();
          continue;
        }
        fail(t, "expected the end of the file or another \"solid\" after \"endsolid\", found " + shown(t.text));
      }
      if (t.text.empty()) fail(t, "the file ends without \"endsolid\": it looks truncated; export it again");
      if (!keyword_is(t.text, "facet"))
        fail(t, "expected \"facet\" or \"endsolid\", found " + shown(t.text));
      expect("normal");
      for (int k = 0; k < 3; ++k) number("facet normal", /*finite=*/false);
      expect("outer");
      expect("loop");
      Triangle tri{};
      for (Vec3& v : tri) {
        expect("vertex");
        for (double& x : v) x = number("vertex", /*finite=*/true);
      }
      const Token e = tok_.next();
      if (!keyword_is(e.text, "endloop"))
        fail(e, "expected \"endloop\" after three vertices, found " + shown(e.text) +
                    (keyword_is(e.text, "vertex") ? " (only triangles are allowed: split larger facets)" : ""));
      expect("endfacet");
      out.push_back(tri);
    }
  }

 private:
  [[noreturn]] void fail(const Token& t, const std::string& what) const {
    throw GeometryError(name_ + ":" + std::to_string(t.line) + ": " + what +
                    (t.text.empty() || what.find("truncated") != std::string::npos
                         ? std::string()
                         : "; an ASCII STL facet reads \"facet normal nx ny nz / outer loop / vertex x y z (three "
                           "times) / endloop / endfacet\""));
  }
  void expect(std::string_view kw) {
    const Token t = tok_.next();
    if (t.text.empty()) fail(t, "the file ends inside a facet (expected \"" + std::string(kw) +
                                    "\"): it looks truncated; export it again");
    if (!keyword_is(t.text, kw)) fail(t, "expected \"" + std::string(kw) + "\", found " + shown(t.text));
  }
  double number(const char* what, bool finite) {
    const Token t = tok_.next();
    double v = 0;
    if (t.text.empty()) fail(t, std::string("the file ends inside a facet (expected a ") + what +
                                    " coordinate): it looks truncated; export it again");
    if (!parse_number(t.text, v)) fail(t, std::string("expected a number (") + what + " coordinate), found " +
                                              shown(t.text));
    if (!finite) return v;
    if (!std::isfinite(v) || std::abs(v) > std::numeric_limits<float>::max())
      throw GeometryError(name_ + ":" + std::to_string(t.line) + ": vertex coordinate " + shown(t.text) +
                      " is not a finite 32-bit number; the exporter wrote invalid data: " + std::string(kRepair));
    // Rounded to float as binary STL stores coordinates, so both encodings of one mesh read the same.
    // (through volatile: a plain double → float → double round trip has been seen optimised away by GCC 12).
    volatile float f = static_cast<float>(v);
    return f;
  }

  Tokens tok_;
  const std::string& name_;
};

std::vector<Triangle> read_binary(const std::string& bytes, const std::string& name) {
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + kHeader, 4);
  std::vector<Triangle> out;
  out.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const char* rec = bytes.data() + kCountEnd + kRecord * std::size_t{i};
    float f[9];
    std::memcpy(f, rec + 12, sizeof f);  // after the 3-float normal; the 2-byte attribute follows
    Triangle tri{};
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < 3; ++k) {
        const float x = f[3 * v + k];
        if (!std::isfinite(x))
          throw GeometryError(name + ": triangle " + std::to_string(i + 1) + " of " + std::to_string(n) +
                          " (byte offset " + std::to_string(kCountEnd + kRecord * std::size_t{i}) + ") has a " +
                          (std::isnan(x) ? "NaN" : "infinite") +
                          " vertex coordinate; the exporter wrote invalid data: " + std::string(kRepair));
        tri[v][k] = x;
      }
    out.push_back(tri);
  }
  return out;
}

}  // namespace

bool is_degenerate(const Triangle& t) {
  const auto sub = [](const Vec3& a, const Vec3& b) { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  const auto dot = [](const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
  const Vec3 u = sub(t[1], t[0]), v = sub(t[2], t[0]), w = sub(t[2], t[1]);
  const Vec3 c = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const double longest2 = std::max({dot(u, u), dot(v, v), dot(w, w)});
  return !(std::sqrt(dot(c, c)) > 1e-12 * longest2);
}

std::string check_closed(const std::vector<Triangle>& triangles) {
  // Weld vertices by exact coordinates (−0 and +0 are the same point).
  struct Ref {
    Vec3 p;
    std::uint32_t slot;
  };
  std::vector<Ref> refs;
  refs.reserve(3 * triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (std::uint32_t k = 0; k < 3; ++k) {
      const Vec3& p = triangles[t][k];
      refs.push_back({{p[0] + 0.0, p[1] + 0.0, p[2] + 0.0}, static_cast<std::uint32_t>(3 * t + k)});
    }
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return a.p < b.p; });
  std::vector<std::uint32_t> id(refs.size());
  std::vector<Vec3> where;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (i == 0 || refs[i].p != refs[i - 1].p) where.push_back(refs[i].p);
    id[refs[i].slot] = static_cast<std::uint32_t>(where.size() - 1);
  }

  // Each edge once per triangle that uses it, keyed by its lower vertex id; forward = runs low → high.
  struct Edge {
    std::uint32_t lo, hi;
    bool forward;
  };
  std::vector<Edge> edges;
  edges.reserve(refs.size());
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t a = id[3 * t + k], b = id[3 * t + (k + 1) % 3];
      if (a != b) edges.push_back({std::min(a, b), std::max(a, b), a < b});
    }
  std::sort(edges.begin(), edges.end(),
            [](const Edge& x, const Edge& y) { return std::tie(x.lo, x.hi) < std::tie(y.lo, y.hi); });

  std::size_t open = 0, shared = 0, flipped = 0;
  std::string example;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i, fwd = 0;
    while (j < edges.size() && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) fwd += edges[j++].forward;
    const std::size_t count = j - i;
    const char* kind = nullptr;
    if (count == 1) ++open, kind = "is used by only one triangle (a hole or a gap)";
    else if (count > 2) ++shared, kind = "is shared by more than two triangles";
    else if (fwd != 1) ++flipped, kind = "joins two triangles of opposite orientation (flipped normals)";
    if (kind && example.empty())
      example = "e.g. the edge from " + fmt(where[edges[i].lo]) + " to " + fmt(where[edges[i].hi]) + " " + kind;
    i = j;
  }
  if (open + shared + flipped == 0) return {};
  return "the mesh is not a closed, consistently oriented surface: " + std::to_string(open) +
         " open edges (used by one triangle), " + std::to_string(shared) +
         " edges shared by more than two triangles, " + std::to_string(flipped) +
         " edges between inconsistently oriented triangles; " + example +
         ". Inside and outside are undefined for such a surface: " + std::string(kRepair);
}

StlMesh read_stl(const std::filesystem::path& file) {
  const std::string name = file.string();
  const auto error = [&](const std::string& what) { return GeometryError(name + ": " + what); };

  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw error("STL file (geometry.file) does not exist or is not a regular file; check the path (a relative "
                "path is taken from the case file's folder)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw error(std::string("cannot open the STL file (geometry.file): ") + std::strerror(errno) +
                       "; check its permissions");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw error("read error; check the file is intact");

  StlMesh mesh;
  std::uint64_t declared = 0;
  if (bytes.size() >= kCountEnd) {
    std::uint32_t n = 0;
    std::memcpy(&n, bytes.data() + kHeader, 4);
    declared = n;
  }
  const std::uint64_t expected = kCountEnd + kRecord * declared;
  const bool size_fits = bytes.size() >= kCountEnd && bytes.size() == expected;
  if (!size_fits && starts_with_solid(bytes) && looks_like_text(bytes)) {
    mesh.triangles = AsciiReader(bytes, name).read();
  } else if (bytes.size() < kCountEnd) {
    throw error("the file has " + std::to_string(bytes.size()) +
                " bytes: too short for a binary STL (80-byte header and a 4-byte triangle count) and it does not "
                "start with \"solid\" as an ASCII STL does; check that this is an STL file");
  } else if (!size_fits) {
    const std::string counts = "the binary STL header declares " + std::to_string(declared) +
                               " triangles, which take " + std::to_string(expected) + " bytes, but the file has " +
                               std::to_string(bytes.size());
    if (bytes.size() < expected)
      throw error(counts + ": it is cut short (an interrupted copy or export?); export it again");
    throw error(counts + " (" + std::to_string(bytes.size() - expected) +
                " bytes beyond the last triangle): the count or the file is damaged; export it again");
  } else {
    mesh.binary = true;
    mesh.triangles = read_binary(bytes, name);
  }

  if (mesh.triangles.empty())
    throw error("the STL file contains no triangles; export the body again (as a solid, not an empty selection)");

  const std::vector<Triangle> all = mesh.triangles;
  const std::size_t total = all.size();
  std::erase_if(mesh.triangles, is_degenerate);
  mesh.dropped_degenerate = total - mesh.triangles.size();
  if (mesh.triangles.empty())
    throw error("all " + std::to_string(total) +
                " triangles have zero area (coincident or collinear vertices); the mesh has no surface: check the "
                "export units and precision, or " + std::string(kRepair));
  if (mesh.dropped_degenerate > kMaxDegenerateShare * static_cast<double>(total))
    throw error(std::to_string(mesh.dropped_degenerate) + " of " + std::to_string(total) +
                " triangles have zero area (coincident or collinear vertices), more than 10%: the export is "
                "broken or too coarse in precision; " + std::string(kRepair));
  // Closedness is judged on the file as written (a zero-area sliver still closes a T-junction); the slivers, which
  // no ray can cross, are left out of the returned triangles.
  if (const std::string open = check_closed(all); !open.empty()) throw error(open);
  return mesh;
}

}  // namespace aerolbm
