// Fuzz target: the STL reader (src/geometry/stl.cpp). The fuzzer's bytes are the file, binary or ASCII.
// Promise under test: read_stl returns a mesh it vouches for (finite, non-degenerate triangles forming a closed,
// consistently oriented surface), or throws GeometryError with a message; it never crashes, hangs, leaks or throws
// anything else. An accepted mesh is then placed as an StlBody (scaled to 64 cells) and probed.
#include <algorithm>
#include <cmath>
#include <memory>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "src/geometry/geometry_error.hpp"
#include "src/geometry/stl.hpp"
#include "src/geometry/stl_body.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace aerolbm;

std::string describe(const std::vector<Triangle>& tris) {
  std::string s = std::to_string(tris.size()) + " triangles:";
  for (std::size_t i = 0; i < tris.size() && i < 20; ++i) {
    s += "\n ";
    for (const Vec3& p : tris[i])
      s += " (" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ")";
  }
  return s;
}

void check_mesh(const StlMesh& m) {
  if (m.triangles.empty()) fuzz::fail("read_stl accepted a mesh without triangles", "");
  for (const Triangle& t : m.triangles) {
    for (const Vec3& p : t)
      for (double x : p)
        if (!std::isfinite(x)) fuzz::fail("non-finite coordinate accepted", describe(m.triangles));
    if (is_degenerate(t)) fuzz::fail("degenerate triangle returned", describe(m.triangles));
  }
  if (m.dropped_degenerate * 10 > m.triangles.size() + m.dropped_degenerate)
    fuzz::fail("more than 10% degenerate triangles accepted", describe(m.triangles));
  // Dropping zero-area triangles keeps a mesh closed except across T-junction slivers; read_stl checked the
  // file as written, so only check that the returned mesh has no open edges when nothing was dropped.
  if (m.dropped_degenerate == 0)
    if (const std::string e = check_closed(m.triangles); !e.empty())
      fuzz::fail("an open mesh was accepted", e + "\n" + describe(m.triangles));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file = fuzz::scratch_dir() / "body.stl";
  fuzz::write_file(file, {reinterpret_cast<const char*>(data), size});

  StlMesh mesh;
  try {
    mesh = read_stl(file);
  } catch (const GeometryError& e) {
    if (std::strncmp(e.what(), file.c_str(), std::strlen(file.c_str())) != 0)
      fuzz::fail("GeometryError message does not start with the file name", e.what());
    return 0;
  }
  check_mesh(mesh);

  // Place it with its box's lower corner at (8, 8, 8) and its largest extent 64 cells, as a case would.
  Vec3 lo = mesh.triangles[0][0], hi = lo;
  for (const Triangle& t : mesh.triangles)
    for (const Vec3& p : t)
      for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  const double ext = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  if (!(ext > 0) || !std::isfinite(ext)) return 0;
  StlPlacement pl;
  pl.scale = 64 / ext;
  pl.angle_of_attack_deg = 7;
  pl.pivot_model = lo;
  pl.pivot_lattice = {8, 8, 8};
  std::unique_ptr<StlBody> body;
  try {
    body = std::make_unique<StlBody>(mesh.triangles, pl);
  } catch (const std::invalid_argument&) {
    return 0;  // scale or coordinates out of range: make_body's caller refuses such placements
  }
  const auto box = body->bounds();
  const Vec3 far = {box[1][0] + 10, box[1][1] + 10, box[1][2] + 10};
  if (body->inside(far)) fuzz::fail("a point outside the bounding box is inside the body", describe(mesh.triangles));
  const Vec3 centre = {0.5 * (box[0][0] + box[1][0]), 0.5 * (box[0][1] + box[1][1]), 0.5 * (box[0][2] + box[1][2])};
  if (const auto t = body->intersect(far, centre); t && !(*t >= 0 && *t <= 1))
    fuzz::fail("intersect returned t outside [0, 1]", std::to_string(*t));
  // A few points on a coarse lattice through the box; a segment that ends inside must cross the surface.
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 5; ++k) {
        const Vec3 p = {box[0][0] + (i + 0.37) * (box[1][0] - box[0][0]) / 5,
                        box[0][1] + (j + 0.41) * (box[1][1] - box[0][1]) / 5,
                        box[0][2] + (k + 0.43) * (box[1][2] - box[0][2]) / 5};
        if (body->inside(p) && !body->intersect(far, p))
          fuzz::fail("a segment from outside to an inside point crosses no triangle", describe(mesh.triangles));
      }
  return 0;
}
