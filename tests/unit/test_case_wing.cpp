// Case files for 3D bodies: geometry.type wing and stl, boundaries.span, forces.reference_area/moment_point, the
// half-wing symmetry plane, and the errors for each (exit-2 CaseErrors naming file:line and key).
#include <gtest/gtest.h>

#include <fstream>

#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/geometry/stl.hpp"
#include "src/geometry/wing.hpp"
#include "src/solver/domain.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;
using case_test::load_error;
using case_test::TempDir;

const std::filesystem::path kCases = std::filesystem::path(AEROLBM_SOURCE_DIR) / "cases";

// A small half wing; line 4 is geometry, 5 domain, 6 lattice, 7 boundaries, 8 forces.
std::string wing_case(const std::string& geometry = "{type: wing, section: \"0012\", chord_cells: 16, span: 4, half: true}",
                      const std::string& domain = "{size_chords: [6, 3, 3.5], body_position_chords: [2, 1.5, 0]}",
                      const std::string& stencil = "D3Q19", const std::string& boundaries = "{lateral: slip}",
                      const std::string& forces = "{every: 10}") {
  return "schema_version: 1\n"
         "case: {name: w}\n"
         "physics: {reynolds: 200, mach: 0.15, angle_of_attack_deg: 5}\n"
         "geometry: " + geometry + "\n"
         "domain: " + domain + "\n"
         "lattice: {stencil: " + stencil + "}\n"
         "boundaries: " + boundaries + "\n"
         "forces: " + forces + "\n";
}

TEST(WingCase, ShippedCasesLoad) {
  for (const char* name : {"wing_naca0012_ar4.yaml", "wing_naca2412_swept.yaml", "stl_example.yaml",
                           "ci/wing_naca0012_ar4.yaml", "ci/wing_naca2412_swept.yaml", "ci/stl_example.yaml"}) {
    SCOPED_TRACE(name);
    const Case c = load_case(kCases / name);
    EXPECT_TRUE(is_3d_body(c.geometry));
    EXPECT_EQ(dimensions(c.stencil), 3);
  }
  const Case w = load_case(kCases / "wing_naca2412_swept.yaml");
  EXPECT_EQ(w.geometry, GeometryType::Wing);
  EXPECT_EQ(w.wing_section.naca_code, "2412");
  EXPECT_DOUBLE_EQ(w.wing_tip_chord, 0.5);
  EXPECT_DOUBLE_EQ(w.wing_sweep_deg, 25);
  EXPECT_DOUBLE_EQ(w.wing_twist_deg, -2);
  EXPECT_TRUE(w.wing_half);
  const Case s = load_case(kCases / "stl_example.yaml");
  EXPECT_EQ(s.stl_file.filename(), "spheroid.stl");
  EXPECT_DOUBLE_EQ(s.stl_units_per_reference, 200);
  EXPECT_TRUE(s.has_moment_point);
}

TEST(WingCase, HalfWingDomainTouchesTheSymmetryPlane) {
  TempDir dir;
  const Case c = load_case(dir.write("w.yaml", wing_case()));
  EXPECT_DOUBLE_EQ(c.body_position_chords[2], 0.0);
  const LatticeUnits u = lattice_units(c);
  const PhysicsParams p = physics_params(c, u);
  EXPECT_EQ(p.faces[4], FaceBC::Slip);  // symmetry plane
  EXPECT_EQ(p.faces[5], FaceBC::Slip);
  const auto body = make_body(c);
  const DomainData d = build_domain(c, u, body.get());
  std::int64_t root_cells = 0;
  for (std::int64_t y = 0; y < d.ny; ++y)
    for (std::int64_t x = 0; x < d.nx; ++x) root_cells += d.flags[x + d.nx * y] == cell::solid;
  // The root section at 16 cells per chord covers about 0.0817·16² ≈ 21 cells of the plane z = 0.
  EXPECT_NEAR(double(root_cells), 0.0817 * 256, 6);
  // Every wall link got a fraction in (0, 1].
  for (std::size_t r = 0; r < d.wall_cells.size(); ++r)
    for (int i = 0; i < 19; ++i) {
      const float q = d.q[r * 19 + i];
      if (q > 0) EXPECT_LE(q, 1.0f);
    }
  // The full wing at the same place needs room below z = 0 and says so.
  EXPECT_TRUE(Contains(load_error(dir.write("f.yaml", wing_case("{type: wing, section: \"0012\", chord_cells: 16, span: 4}",
                                                                  "{size_chords: [6, 3, 3.5], body_position_chords: [2, 1.5, 0.5]}"))),
                       "f.yaml:5: domain.body_position_chords"));
}

TEST(WingCase, SpanFacesDefaultToLateralAndCanDiffer) {
  TempDir dir;
  const std::string full = "{type: wing, section: \"0012\", chord_cells: 16, span: 2}";
  const std::string dom = "{size_chords: [6, 3, 3], body_position_chords: [2, 1.5, 1.5]}";
  Case c = load_case(dir.write("a.yaml", wing_case(full, dom, "D3Q19", "{lateral: wall}")));
  PhysicsParams p = physics_params(c, lattice_units(c));
  EXPECT_EQ(p.faces[2], FaceBC::Wall);
  EXPECT_EQ(p.faces[4], FaceBC::Wall);
  EXPECT_EQ(p.faces[5], FaceBC::Wall);
  c = load_case(dir.write("b.yaml", wing_case(full, dom, "D3Q19", "{lateral: slip, span: periodic}")));
  p = physics_params(c, lattice_units(c));
  EXPECT_EQ(p.faces[2], FaceBC::Slip);
  EXPECT_EQ(p.faces[4], FaceBC::Periodic);
  EXPECT_EQ(p.faces[5], FaceBC::Periodic);
}

TEST(WingCase, ReferenceFromTheWingAndFromOverrides) {
  TempDir dir;
  Case c = load_case(dir.write("w.yaml", wing_case()));
  auto ref = *make_body(c)->reference();
  const double L = 16;
  EXPECT_DOUBLE_EQ(ref.area, 2 * L * L);  // half of the AR-4 planform
  EXPECT_TRUE(ref.half_model);
  EXPECT_DOUBLE_EQ(ref.length, L);
  EXPECT_EQ(ref.moment_point, (Vec3{2 * L, 1.5 * L, 0}));
  c = load_case(dir.write("o.yaml", wing_case("{type: wing, section: \"0012\", chord_cells: 16, span: 4, half: true}",
                                              "{size_chords: [6, 3, 3.5], body_position_chords: [2, 1.5, 0]}", "D3Q19",
                                              "{lateral: slip}",
                                              "{every: 10, reference_area: 3, moment_point: [0.25, 0, 0]}")));
  ref = *make_body(c)->reference();
  EXPECT_DOUBLE_EQ(ref.area, 1.5 * L * L);  // the full wing's 3, halved for the half model
  EXPECT_EQ(ref.moment_point, (Vec3{2.25 * L, 1.5 * L, 0}));
}

TEST(WingCase, StlReferenceDefaultsToTheBoundingBox) {
  const Case c = load_case(kCases / "ci/stl_example.yaml", {"geometry.pivot=[0, 0, 0]"});
  const auto body = make_body(c);
  const auto b = body->bounds();
  EXPECT_DOUBLE_EQ(body->reference()->area, 0.0471 * 16 * 16);
  EXPECT_EQ(body->reference()->moment_point, (Vec3{1.5 * 16, 1.5 * 16, 1.5 * 16}));
  EXPECT_FALSE(body->surface().empty());
  // Without geometry.reference_area: the x-z extent of the placed box.
  TempDir dir;
  std::ifstream in(kCases / "ci/stl_example.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  text.replace(text.find("  reference_area: 0.0471\n"), 25, "");
  text.replace(text.find("../data/spheroid.stl"), 20, (kCases / "data/spheroid.stl").string());
  const Case d = load_case(dir.write("s.yaml", text));
  const auto ref = *make_body(d)->reference();
  EXPECT_DOUBLE_EQ(ref.area, (b[1][0] - b[0][0]) * (b[1][2] - b[0][2]));
  EXPECT_NEAR(ref.area, 16 * 16 * 1.0 * 0.3, 0.05 * 16 * 16 * 0.3);  // length 1 by diameter 0.3, tilted 5°
}

TEST(WingCase, Errors) {
  TempDir dir;
  const auto err = [&](const std::string& text) { return load_error(dir.write("e.yaml", text)); };
  const std::string dom = "{size_chords: [6, 3, 3.5], body_position_chords: [2, 1.5, 0]}";
  // A wing on D2Q9.
  std::string m = err(wing_case("{type: wing, section: \"0012\", chord_cells: 16}",
                                "{size_chords: [6, 3], body_position_chords: [2, 1.5]}", "D2Q9"));
  EXPECT_TRUE(Contains(m, "e.yaml:4: geometry.type:"));
  EXPECT_TRUE(Contains(m, "D3Q19"));
  // Sections: unquoted digits, a reflexed 5-digit line, a missing file, no section at all.
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: 0012, half: true}", dom)), "quote it: section: \"0012\""));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"23112\", half: true}", dom)), "reflexed"));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0050\", half: true}", dom)), "geometry.section"));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: nope.dat, half: true}", dom)),
                       "geometry.section: expected an existing Selig .dat file"));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, span: 2, half: true}", dom)), "geometry.section: expected"));
  // Shape keys.
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0012\", span: -1, half: true}", dom)), "geometry.span"));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0012\", taper: 0.5, tip_chord: 0.5, half: true}", dom)),
                       "either taper or tip_chord"));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0012\", sweep_deg: 85, half: true}", dom)),
                       "geometry.sweep_deg"));
  // A key of another type.
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0012\", code: \"0012\", half: true}", dom)),
                       "geometry.code"));
  // Half wing: z must be 0, and the span faces cannot be periodic.
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0012\", chord_cells: 16, half: true}",
                                     "{size_chords: [6, 3, 3.5], body_position_chords: [2, 1.5, 1]}")),
                       "z = 0 for a half wing"));
  EXPECT_TRUE(Contains(err(wing_case("{type: wing, section: \"0012\", chord_cells: 16, half: true}", dom, "D3Q19",
                                     "{span: periodic}")),
                       "boundaries.span: expected farfield, slip or wall z faces for a half wing"));
  // A wing longer than the domain is wide.
  m = err(wing_case("{type: wing, section: \"0012\", chord_cells: 16, span: 8, half: true}", dom));
  EXPECT_TRUE(Contains(m, "e.yaml:5: domain.body_position_chords"));
  EXPECT_TRUE(Contains(m, "z 0 to 4"));
  // forces overrides on a 2D body.
  EXPECT_TRUE(Contains(err(case_test::sketch_with(10, "forces: {every: 10, reference_area: 2}")),
                       "forces.reference_area: expected a geometry.type of wing or stl"));
  // STL: missing file, an open mesh (found when the case is checked), pivot with 2 numbers.
  const std::string stl_dom = "{size_chords: [4, 4, 4], body_position_chords: [2, 2, 2]}";
  EXPECT_TRUE(Contains(err(wing_case("{type: stl, file: none.stl}", stl_dom)), "geometry.file: expected an existing STL file"));
  std::vector<Triangle> tet = {{Vec3{0, 0, 0}, Vec3{0, 1, 0}, Vec3{1, 0, 0}}, {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 1}},
                               {Vec3{0, 0, 0}, Vec3{0, 0, 1}, Vec3{0, 1, 0}}};  // one face missing
  {
    std::ofstream f(dir.path() / "open.stl");
    f << "solid open\n";
    for (const auto& t : tet) {
      f << "facet normal 0 0 0\nouter loop\n";
      for (const auto& v : t) f << "vertex " << v[0] << " " << v[1] << " " << v[2] << "\n";
      f << "endloop\nendfacet\n";
    }
    f << "endsolid open\n";
  }
  m = err(wing_case("{type: stl, file: open.stl, reference_cells: 16}", stl_dom));
  EXPECT_TRUE(Contains(m, "geometry.file: expected a closed STL mesh"));
  EXPECT_TRUE(Contains(m, "open"));
  EXPECT_TRUE(Contains(err(wing_case("{type: stl, file: open.stl, pivot: [1, 2]}", stl_dom)), "geometry.pivot"));
}

}  // namespace
}  // namespace aerolbm
