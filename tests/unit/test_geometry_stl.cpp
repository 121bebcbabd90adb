// STL reader and StlBody: meshes made here (cube, tetrahedron, icosphere) are written as binary and ASCII STL;
// both read to the same triangles, inside/intersect agree with the analytic shapes, every bad file is refused
// with a message that says what is wrong.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>

#include "src/geometry/geometry_error.hpp"
#include "src/geometry/stl.hpp"
#include "src/geometry/stl_body.hpp"

namespace aerolbm {
namespace {

namespace fs = std::filesystem;

// ---- meshes --------------------------------------------------------------------------------------------------

// Unit cube [0,1]³, 12 outward triangles; faces split along alternating diagonals.
std::vector<Triangle> cube() {
  std::vector<Triangle> t;
  const auto quad = [&](Vec3 a, Vec3 b, Vec3 c, Vec3 d, bool other_diagonal) {  // a b c d counter-clockwise
    if (other_diagonal) {
      t.push_back({a, b, c});
      t.push_back({a, c, d});
    } else {
      t.push_back({a, b, d});
      t.push_back({b, c, d});
    }
  };
  quad({0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}, false);  // z = 0, normal −z
  quad({0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}, true);   // z = 1
  quad({0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}, false);  // y = 0
  quad({0, 1, 0}, {0, 1, 1}, {1, 1, 1}, {1, 1, 0}, true);   // y = 1
  quad({0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}, true);   // x = 0
  quad({1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}, false);  // x = 1
  return t;
}

const Vec3 kTet[4] = {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, 1.5}};
std::vector<Triangle> tetrahedron() {
  return {{kTet[0], kTet[2], kTet[1]}, {kTet[0], kTet[1], kTet[3]}, {kTet[0], kTet[3], kTet[2]},
          {kTet[1], kTet[2], kTet[3]}};
}

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 unit(Vec3 v) {
  const double n = std::sqrt(dot(v, v));
  return {v[0] / n, v[1] / n, v[2] / n};
}

// Unit icosphere: an icosahedron split `levels` times, midpoints pushed to the sphere (shared, so it is closed).
// Vertices are rounded to float first so that they survive the STL round trip unchanged.
std::vector<Triangle> icosphere(int levels) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  std::vector<Vec3> v = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
                         {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  // Through volatile: GCC 12 at -O2 was seen to drop a plain double → float → double round trip here.
  const auto f32 = [](double x) {
    volatile float f = static_cast<float>(x);
    return static_cast<double>(f);
  };
  const auto to_float = [&](Vec3 p) { return Vec3{f32(p[0]), f32(p[1]), f32(p[2])}; };
  for (Vec3& p : v) p = to_float(unit(p));
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    const auto m = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      if (auto it = mid.find(key); it != mid.end()) return it->second;
      v.push_back(to_float(unit({v[a][0] + v[b][0], v[a][1] + v[b][1], v[a][2] + v[b][2]})));
      return mid[key] = static_cast<int>(v.size() - 1);
    };
    std::vector<std::array<int, 3>> next;
    for (const auto& [a, b, c] : f) {
      const int ab = m(a, b), bc = m(b, c), ca = m(c, a);
      next.insert(next.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    f = std::move(next);
  }
  std::vector<Triangle> t;
  for (const auto& [a, b, c] : f) {
    Triangle tri = {v[a], v[b], v[c]};
    if (dot(cross(sub(tri[1], tri[0]), sub(tri[2], tri[0])), tri[0]) < 0) std::swap(tri[1], tri[2]);
    t.push_back(tri);
  }
  return t;
}

Triangle scaled(const Triangle& t, double s) {
  Triangle o = t;
  for (Vec3& p : o)
    for (double& x : p) x *= s;
  return o;
}

// ---- writers ---------------------------------------------------------------------------------------------------

std::string binary_stl(const std::vector<Triangle>& tris, const std::string& header = "aerolbm test") {
  std::string out(80, ' ');
  std::memcpy(out.data(), header.data(), std::min<std::size_t>(header.size(), 80));
  const auto u32 = static_cast<std::uint32_t>(tris.size());
  out.append(reinterpret_cast<const char*>(&u32), 4);
  for (const Triangle& t : tris) {
    const Vec3 n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    float f[12] = {float(n[0]), float(n[1]), float(n[2])};
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < 3; ++k) f[3 + 3 * v + k] = float(t[v][k]);
    out.append(reinterpret_cast<const char*>(f), sizeof f);
    out.append(2, '\0');
  }
  return out;
}

std::string ascii_stl(const std::vector<Triangle>& tris) {
  std::ostringstream s;
  s.precision(9);
  s << "solid test mesh\n";
  for (const Triangle& t : tris) {
    const Vec3 n = unit(cross(sub(t[1], t[0]), sub(t[2], t[0])));
    s << "  facet normal " << n[0] << ' ' << n[1] << ' ' << n[2] << "\n    outer loop\n";
    for (const Vec3& p : t) s << "      vertex " << float(p[0]) << ' ' << float(p[1]) << ' ' << float(p[2]) << '\n';
    s << "    endloop\n  endfacet\n";
  }
  s << "endsolid test mesh\n";
  return s.str();
}

class StlFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("aerolbm_stl_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  // The message read_stl throws for these bytes ("" if it accepts them).
  std::string error_for(const std::string& bytes, const std::string& name = "bad.stl") {
    try {
      read_stl(write(name, bytes));
    } catch (const GeometryError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

// ---- reading ---------------------------------------------------------------------------------------------------

TEST_F(StlFiles, BinaryAndAsciiReadToTheSameTriangles) {
  const std::vector<std::vector<Triangle>> meshes = {cube(), tetrahedron(), icosphere(2)};
  for (const auto& mesh : meshes) {
    const StlMesh b = read_stl(write("m.stl", binary_stl(mesh)));
    const StlMesh a = read_stl(write("m_ascii.stl", ascii_stl(mesh)));
    EXPECT_TRUE(b.binary);
    EXPECT_FALSE(a.binary);
    ASSERT_EQ(b.triangles.size(), mesh.size());
    EXPECT_EQ(a.triangles, b.triangles);
    for (std::size_t i = 0; i < mesh.size(); ++i)
      for (int v = 0; v < 3; ++v)
        for (int k = 0; k < 3; ++k)
          ASSERT_EQ(b.triangles[i][v][k], mesh[i][v][k]) << std::hexfloat << b.triangles[i][v][k] << " " << mesh[i][v][k] << " " << i << ' ' << v << ' ' << k;  // vertices are floats
    EXPECT_EQ(b.dropped_degenerate, 0u);
  }
}

TEST_F(StlFiles, BinaryWhoseHeaderStartsWithSolidIsReadAsBinary) {
  const StlMesh m = read_stl(write("solid.stl", binary_stl(cube(), "solid cube exported by a CAD tool")));
  EXPECT_TRUE(m.binary);
  EXPECT_EQ(m.triangles, cube());
}

TEST_F(StlFiles, AsciiAcceptsUpperCaseKeywordsAndSeveralSolids) {
  std::string text = ascii_stl(cube());
  std::string upper = text;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(read_stl(write("upper.stl", upper)).triangles, cube());
  // The cube split into two solids in one file.
  const std::vector<Triangle> c = cube();
  const std::string two = ascii_stl({c.begin(), c.begin() + 6}) + ascii_stl({c.begin() + 6, c.end()});
  EXPECT_EQ(read_stl(write("two.stl", two)).triangles, c);
}

// ---- errors ------------------------------------------------------------------------------------------------------

TEST_F(StlFiles, MissingFile) {
  try {
    read_stl(dir_ / "nope.stl");
    FAIL() << "no error";
  } catch (const GeometryError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.stl: STL file (geometry.file) does not exist"), std::string::npos)
        << e.what();
  }
}

TEST_F(StlFiles, TruncatedAndPaddedBinary) {
  const std::string full = binary_stl(cube());
  const std::string cut = error_for(full.substr(0, full.size() - 30));
  EXPECT_NE(cut.find("declares 12 triangles, which take 684 bytes, but the file has 654"), std::string::npos) << cut;
  EXPECT_NE(cut.find("cut short"), std::string::npos) << cut;
  const std::string extra = error_for(full + "xyz");
  EXPECT_NE(extra.find("3 bytes beyond the last triangle"), std::string::npos) << extra;
  const std::string tiny = error_for("abc");
  EXPECT_NE(tiny.find("3 bytes: too short for a binary STL"), std::string::npos) << tiny;
  // A truncated binary file whose header says "solid" is still reported as a truncated binary.
  const std::string solid = binary_stl(cube(), "solid x");
  const std::string cut_solid = error_for(solid.substr(0, 200));
  EXPECT_NE(cut_solid.find("cut short"), std::string::npos) << cut_solid;
}

TEST_F(StlFiles, AsciiSyntaxErrorsNameTheLine) {
  std::string text = ascii_stl(cube());
  const auto pos = text.find("vertex", text.find("vertex") + 1);  // second vertex: line 5
  std::string bad = text;
  bad.replace(pos, 6, "vertx");
  const std::string e = error_for(bad, "syntax.stl");
  EXPECT_NE(e.find("syntax.stl:5: expected \"vertex\", found \"vertx\""), std::string::npos) << e;

  bad = text;
  bad.replace(text.find("0", pos), 1, "zero");
  const std::string num = error_for(bad, "num.stl");
  EXPECT_NE(num.find("num.stl:5: expected a number (vertex coordinate), found \"zero\""), std::string::npos) << num;

  const std::string cut = error_for(text.substr(0, text.size() / 2), "cut.stl");
  EXPECT_NE(cut.find("looks truncated"), std::string::npos) << cut;

  const std::string quad = error_for("solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                                     "vertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid q\n");
  EXPECT_NE(quad.find(":7: expected \"endloop\" after three vertices, found \"vertex\" (only triangles"),
            std::string::npos)
      << quad;
}

TEST_F(StlFiles, NoTriangles) {
  EXPECT_NE(error_for("solid empty\nendsolid empty\n").find("contains no triangles"), std::string::npos);
  EXPECT_NE(error_for(binary_stl({})).find("contains no triangles"), std::string::npos);
}

TEST_F(StlFiles, NonFiniteCoordinates) {
  std::vector<Triangle> t = cube();
  t[3][1][2] = std::numeric_limits<double>::quiet_NaN();
  const std::string b = error_for(binary_stl(t));
  EXPECT_NE(b.find("triangle 4 of 12 (byte offset 234) has a NaN vertex coordinate"), std::string::npos) << b;
  t[3][1][2] = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_for(binary_stl(t)).find("has a infinite vertex coordinate"), std::string::npos);

  std::string text = ascii_stl(cube());
  text.replace(text.find("vertex") + 7, 1, "nan");  // line 4
  const std::string a = error_for(text, "nan.stl");
  EXPECT_NE(a.find("nan.stl:4: vertex coordinate \"nan\" is not a finite 32-bit number"), std::string::npos) << a;
  text = ascii_stl(cube());
  text.replace(text.find("vertex") + 7, 1, "1e300");
  EXPECT_NE(error_for(text).find("\"1e300\" is not a finite 32-bit number"), std::string::npos);
}

TEST_F(StlFiles, DegenerateTrianglesAreDroppedIfFewAndRefusedIfMany) {
  std::vector<Triangle> t = cube();
  t.push_back({Vec3{0, 0, 0}, Vec3{0, 0, 0}, Vec3{1, 1, 1}});  // a needle: zero area, keeps the mesh closed
  const StlMesh m = read_stl(write("few.stl", binary_stl(t)));
  EXPECT_EQ(m.dropped_degenerate, 1u);
  EXPECT_EQ(m.triangles, cube());

  std::vector<Triangle> tet = tetrahedron();
  tet.push_back({kTet[0], kTet[0], kTet[1]});
  const std::string many = error_for(binary_stl(tet));
  EXPECT_NE(many.find("1 of 5 triangles have zero area (coincident or collinear vertices), more than 10%"),
            std::string::npos)
      << many;

  const std::string all = error_for(binary_stl({{Vec3{0, 0, 0}, Vec3{1, 1, 1}, Vec3{2, 2, 2}},
                                                {Vec3{0, 0, 0}, Vec3{0, 0, 0}, Vec3{0, 0, 0}}}));
  EXPECT_NE(all.find("all 2 triangles have zero area"), std::string::npos) << all;
}

TEST_F(StlFiles, OpenFlippedAndOverSharedMeshesAreRefused) {
  std::vector<Triangle> open = cube();
  open.pop_back();
  const std::string e = error_for(binary_stl(open), "open.stl");
  EXPECT_NE(e.find("open.stl: the mesh is not a closed, consistently oriented surface: 3 open edges (used by one "
                   "triangle), 0 edges shared by more than two triangles, 0 edges between inconsistently oriented "
                   "triangles; e.g. the edge from ("),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("is used by only one triangle"), std::string::npos) << e;
  EXPECT_NE(e.find("Inside and outside are undefined"), std::string::npos) << e;

  std::vector<Triangle> flipped = cube();
  std::swap(flipped[5][1], flipped[5][2]);
  const std::string f = error_for(ascii_stl(flipped));
  EXPECT_NE(f.find("0 open edges (used by one triangle), 0 edges shared by more than two triangles, 3 edges between "
                   "inconsistently oriented triangles"),
            std::string::npos)
      << f;
  EXPECT_NE(f.find("joins two triangles of opposite orientation"), std::string::npos) << f;

  std::vector<Triangle> doubled = cube();
  doubled.push_back(doubled[0]);
  const std::string d = error_for(binary_stl(doubled));
  EXPECT_NE(d.find("3 edges shared by more than two triangles"), std::string::npos) << d;

  // The example edge is given by its coordinates.
  std::vector<Triangle> one = {{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}}};
  EXPECT_NE(check_closed(one).find("e.g. the edge from (0, 0, 0) to (0, 1, 0) is used by only one triangle"),
            std::string::npos)
      << check_closed(one);
  EXPECT_EQ(check_closed(cube()), "");
  EXPECT_EQ(check_closed(icosphere(3)), "");
}

// ---- the body ----------------------------------------------------------------------------------------------------

// Cube scaled to 10 cells at offset (2, 3, 4): every point of a half-cell lattice (cell centres, faces, edges and
// corners of cells, so many rays run exactly along the faces' diagonals, the cube's edges and through its
// vertices) agrees with the analytic cube, except points on the surface.
TEST(StlBody, CubeInsideOnAHalfCellLattice) {
  StlPlacement pl;
  pl.scale = 10;
  pl.pivot_lattice = {2, 3, 4};
  const StlBody body(cube(), pl);
  const auto b = body.bounds();
  EXPECT_EQ(b[0], (Vec3{2, 3, 4}));
  EXPECT_EQ(b[1], (Vec3{12, 13, 14}));
  EXPECT_TRUE(body.outline().empty());
  int checked = 0;
  for (int i = -2; i <= 34; ++i)
    for (int j = -2; j <= 34; ++j)
      for (int k = -2; k <= 34; ++k) {
        const Vec3 p = {i * 0.5, j * 0.5 + 1, k * 0.5 + 2};
        const Vec3 q = {p[0] - 2, p[1] - 3, p[2] - 4};
        bool on_surface = false, in = true;
        for (double x : q) {
          in = in && x > 0 && x < 10;
          on_surface = on_surface || x == 0 || x == 10;
        }
        const bool within = q[0] >= 0 && q[0] <= 10 && q[1] >= 0 && q[1] <= 10 && q[2] >= 0 && q[2] <= 10;
        if (on_surface && within) continue;
        ASSERT_EQ(body.inside(p), in) << p[0] << ' ' << p[1] << ' ' << p[2];
        ++checked;
      }
  EXPECT_GT(checked, 40000);
}

TEST(StlBody, RotatedCubeAndTetrahedronAgreeWithAnalyticInside) {
  StlPlacement pl;
  pl.scale = 8;
  pl.angle_of_attack_deg = 30;
  pl.pivot_model = {0.25, 0.5, 0.5};
  pl.pivot_lattice = {20, 20, 20};
  const StlBody body(cube(), pl);
  // Placed point → model point: undo the rotation by −α.
  const double a = 30 * std::numbers::pi / 180, c = std::cos(a), s = std::sin(a);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(10, 30);
  for (int n = 0; n < 20000; ++n) {
    const Vec3 p = {u(rng), u(rng), u(rng)};
    const double dx = p[0] - 20, dy = p[1] - 20;
    const Vec3 m = {0.25 + (c * dx - s * dy) / 8, 0.5 + (s * dx + c * dy) / 8, 0.5 + (p[2] - 20) / 8};
    const bool in = m[0] > 0 && m[0] < 1 && m[1] > 0 && m[1] < 1 && m[2] > 0 && m[2] < 1;
    ASSERT_EQ(body.inside(p), in) << p[0] << ' ' << p[1] << ' ' << p[2];
  }
  // Nose up: the cube's leading face (model x = 0, ahead of the pivot) rises.
  EXPECT_GT(place_point({0, 0.5, 0.5}, pl)[1], 20);

  const StlBody tet(tetrahedron(), StlPlacement{});
  std::uniform_real_distribution<double> w(-0.5, 3.5);
  for (int n = 0; n < 20000; ++n) {
    const Vec3 p = {w(rng), w(rng), w(rng)};
    const bool in = p[0] > 0 && p[1] > 0 && p[2] > 0 && p[0] / 2 + p[1] / 3 + p[2] / 1.5 < 1;
    ASSERT_EQ(tet.inside(p), in) << p[0] << ' ' << p[1] << ' ' << p[2];
  }
}

TEST_F(StlFiles, SphereVoxelVolume) {
  // Read back from a file, as a case would: unit icosphere (5120 triangles), 10 cells radius.
  const StlMesh m = read_stl(write("sphere.stl", binary_stl(icosphere(4))));
  StlPlacement pl;
  pl.scale = 10;
  pl.pivot_lattice = {16.3, 15.8, 16.1};
  const StlBody body(m.triangles, pl);
  long count = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 32; ++k) count += body.inside({i + 0.5, j + 0.5, k + 0.5});
  const double exact = 4.0 / 3.0 * std::numbers::pi * 1000;
  EXPECT_NEAR(count / exact, 1.0, 0.02) << count << " cells vs " << exact;
}

TEST(StlBody, IntersectGivesTheAnalyticCrossing) {
  const std::vector<Triangle> sphere = icosphere(3);
  StlPlacement pl;
  pl.scale = 10;
  pl.pivot_lattice = {20, 20, 20};
  const StlBody body(sphere, pl);
  // Radial segments through vertices (exactly on the sphere): from 1.5 r to 0.7 r, crossing at t = 0.5/0.8.
  for (std::size_t n = 0; n < sphere.size(); n += 97) {
    const Vec3 d = sphere[n][0];
    const double r = std::sqrt(dot(d, d));  // 1 up to float rounding
    const Vec3 a = {20 + 15 * d[0] / r, 20 + 15 * d[1] / r, 20 + 15 * d[2] / r};
    const Vec3 b = {20 + 7 * d[0] / r, 20 + 7 * d[1] / r, 20 + 7 * d[2] / r};
    const auto t = body.intersect(a, b);
    ASSERT_TRUE(t.has_value()) << n;
    EXPECT_NEAR(*t, (15 - 10 * r) / 8, 1e-6) << n;
    EXPECT_FALSE(body.inside(a));
    EXPECT_TRUE(body.inside(b));
  }
  // Through the middle of a facet: the crossing of the facet's plane.
  const Triangle f = scaled(sphere[5], 10);
  const Vec3 centre = {(f[0][0] + f[1][0] + f[2][0]) / 3, (f[0][1] + f[1][1] + f[2][1]) / 3,
                       (f[0][2] + f[1][2] + f[2][2]) / 3};
  const Vec3 a = {20 + 1.2 * centre[0], 20 + 1.2 * centre[1], 20 + 1.2 * centre[2]};
  const Vec3 b = {20 + 0.6 * centre[0], 20 + 0.6 * centre[1], 20 + 0.6 * centre[2]};
  EXPECT_NEAR(*body.intersect(a, b), 1.0 / 3.0, 1e-9);

  // Cube: through a face, an edge and a corner; a segment that misses.
  StlPlacement cp;
  cp.scale = 10;
  const StlBody box(cube(), cp);
  EXPECT_NEAR(*box.intersect({-1, 5, 5}, {3, 5, 5}), 0.25, 1e-12);
  EXPECT_NEAR(*box.intersect({5, 3.3, 12}, {5, 3.3, 9}), 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(*box.intersect({-1, -1, 5}, {1, 1, 5}), 0.5, 1e-12);
  EXPECT_NEAR(*box.intersect({-1, -1, -1}, {1, 1, 1}), 0.5, 1e-12);
  EXPECT_NEAR(*box.intersect({5, 5, 5}, {5, 5, 25}), 0.25, 1e-12);  // from inside: first crossing
  EXPECT_FALSE(box.intersect({-1, 5, 5}, {-0.5, 5, 5}).has_value());
  EXPECT_FALSE(box.intersect({-3, -3, 5}, {-3, 40, 5}).has_value());
}

// Voxelising a ~100k-triangle sphere on a 200³ grid (run with --gtest_also_run_disabled_tests; prints the time).
TEST(StlBody, DISABLED_VoxeliseLargeMesh) {
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Triangle> s = icosphere(6);  // 81 920 triangles
  StlPlacement pl;
  pl.scale = 90;
  pl.pivot_lattice = {100, 100, 100};
  const StlBody body(s, pl);
  auto t1 = std::chrono::steady_clock::now();
  long count = 0;
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 200; ++j)
      for (int k = 0; k < 200; ++k) count += body.inside({i + 0.5, j + 0.5, k + 0.5});
  auto t2 = std::chrono::steady_clock::now();
  long links = 0;
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 200; ++j)
      for (int k = 0; k < 199; ++k) links += body.intersect({i + 0.5, j + 0.5, k + 0.5}, {i + 1.5, j + 0.5, k + 1.5}).has_value();
  auto t3 = std::chrono::steady_clock::now();
  const auto sec = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("%zu triangles: build %.3f s, 8e6 inside() %.3f s, 7.96e6 intersect() %.3f s; volume ratio %.5f, "
              "%ld crossing links\n",
              s.size(), sec(t0, t1), sec(t1, t2), sec(t2, t3), count / (4.0 / 3.0 * std::numbers::pi * 90 * 90 * 90),
              links);
  EXPECT_NEAR(count / (4.0 / 3.0 * std::numbers::pi * 90 * 90 * 90), 1.0, 0.01);
}

}  // namespace
}  // namespace aerolbm
