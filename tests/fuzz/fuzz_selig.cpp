// Fuzz target: the Selig .dat airfoil reader (src/geometry/selig.cpp). The fuzzer's bytes are the file.
// Promise under test: read_selig returns an outline it vouches for, or throws GeometryError with a message; it never
// crashes, hangs, leaks or throws anything else. A returned outline is then placed as a PolygonBody, as a case
// with geometry.type selig would be.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "src/geometry/geometry_error.hpp"
#include "src/geometry/polygon_body.hpp"
#include "src/geometry/selig.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace aerolbm;

std::string describe_outline(const std::vector<Point2>& pts) {
  std::string s = std::to_string(pts.size()) + " points:";
  for (const Point2& p : pts) s += " (" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ")";
  return s;
}

// What the header promises about an accepted file: at least 10 distinct points, finite, chord units with the
// leading edge at x = 0 and chord 1, some area.
void check_outline(const std::vector<Point2>& pts) {
  if (pts.size() < 10) fuzz::fail("read_selig accepted fewer than 10 points", describe_outline(pts));
  double xmin = pts[0][0], xmax = pts[0][0];
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point2& p = pts[i];
    if (!std::isfinite(p[0]) || !std::isfinite(p[1])) fuzz::fail("non-finite coordinate", describe_outline(pts));
    xmin = std::min(xmin, p[0]);
    xmax = std::max(xmax, p[0]);
  }
  if (std::abs(xmin) > 1e-12 || std::abs(xmax - 1) > 1e-12)
    fuzz::fail("outline not normalised to x in [0, 1]", describe_outline(pts));
  if (!(std::abs(signed_area(pts)) >= 1e-6)) fuzz::fail("outline without area accepted", describe_outline(pts));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file = fuzz::scratch_dir() / "airfoil.dat";
  fuzz::write_file(file, {reinterpret_cast<const char*>(data), size});

  std::vector<Point2> pts;
  try {
    pts = read_selig(file);
  } catch (const GeometryError& e) {
    // Messages start with the file (and line) so that the user knows where to look.
    if (std::strncmp(e.what(), file.c_str(), std::strlen(file.c_str())) != 0)
      fuzz::fail("GeometryError message does not start with the file name", e.what());
    return 0;
  }
  check_outline(pts);

  SectionPlacement placement;
  placement.scale = 64;
  placement.angle_of_attack_deg = 4;
  placement.pivot_lattice = {32, 32};
  const PolygonBody body(pts, placement);
  const auto box = body.bounds();
  // A point well outside the box is outside the body; a segment from there into the box must not crash.
  const Vec3 far = {box[1][0] + 10, box[1][1] + 10, 0};
  if (body.inside(far)) fuzz::fail("a point outside the bounding box is inside the body", describe_outline(pts));
  const Vec3 centre = {0.5 * (box[0][0] + box[1][0]), 0.5 * (box[0][1] + box[1][1]), 0};
  if (const auto t = body.intersect(far, centre); t && !(*t >= 0 && *t <= 1))
    fuzz::fail("intersect returned t outside [0, 1]", std::to_string(*t));
  return 0;
}
