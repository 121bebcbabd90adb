// The in-place (AA) storage against the two-lattice reference on the CPU backend: the same arithmetic on the same
// values, so the states must agree exactly — after odd and even step counts, across run() calls that split the
// steps, for walls (half-way and interpolated), open boundaries, free-slip, periodic faces and both 3D lattices.
#include <gtest/gtest.h>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

struct State {
  std::vector<double> f;
  std::vector<float> rho, u;
  std::array<double, 3> force;
};

State state_of(Backend& b) {
  State st;
  b.read_populations(st.f);
  b.macroscopic(st.rho, st.u);
  st.force = b.wall_force();
  return st;
}

State run(const std::filesystem::path& file, std::vector<std::string> sets, const std::vector<std::int64_t>& chunks) {
  SolverSetup s(file, sets, "cpu", 2);
  for (auto c : chunks) s.backend->run(c);
  return state_of(*s.backend);
}

// A decaying Taylor–Green vortex in a fully periodic box (the initial field the benchmark uses).
State taylor_green(const std::string& kernel, std::int64_t steps) {
  const auto file = write_temp_case("aa_taylor_green",
                                    "schema_version: 1\n"
                                    "case: {name: tg}\n"
                                    "physics: {reynolds: 50, mach: 0.1}\n"
                                    "geometry: {type: none, reference_cells: 32}\n"
                                    "domain: {size_chords: [1, 1], body_position_chords: [0.5, 0.5]}\n"
                                    "lattice: {stencil: D2Q9, collision: trt}\n"
                                    "boundaries: {inlet: periodic, outlet: periodic, lateral: periodic}\n"
                                    "output: {every: 0}\n");
  const Case c = load_case(file, {"lattice.kernel=" + kernel});
  const LatticeUnits u = lattice_units(c);
  const auto body = make_body(c);
  const DomainData d = build_domain(c, u, body.get());
  PhysicsParams p = physics_params(c, u);
  p.taylor_green_amplitude = 0.05;
  BackendConfig cfg;
  cfg.kernel = c.kernel;
  cfg.threads = 2;
  auto b = make_cpu_backend(cfg, d, p);
  b->initialize();
  b->run(steps);
  return state_of(*b);
}

void expect_same(const State& a, const State& b, const std::string& what) {
  ASSERT_EQ(a.f.size(), b.f.size());
  EXPECT_EQ(relative_l2(a.f, b.f), 0.0) << what;
  EXPECT_EQ(a.rho, b.rho) << what;
  EXPECT_EQ(a.u, b.u) << what;
  EXPECT_EQ(a.force, b.force) << what;
}

TEST(InPlace, SchaeferTurekInterpolatedWallsAndOpenBoundaries) {
  const auto file = cases_dir() / "ci/schaefer_turek_2d1.yaml";
  const State ref = run(file, {"lattice.kernel=pull"}, {301});
  const State aa = run(file, {"lattice.kernel=aa"}, {120, 1, 180});  // odd pieces: the layout flips between calls
  expect_same(aa, ref, "Schäfer–Turek, 301 steps");
  // And the flow moved: the comparison is not between two initial states.
  const State start = run(file, {"lattice.kernel=pull"}, {0});
  EXPECT_GT(relative_l2(ref.u, start.u), 1e-3);
}

TEST(InPlace, AirfoilWithSlipFacesAndHalfwayWalls) {
  const auto file = cases_dir() / "naca0012_re1000_aoa5.yaml";
  const std::vector<std::string> small = {"geometry.chord_cells=24", "boundaries.wall=halfway"};
  auto with = [&](const std::string& k) {
    auto s = small;
    s.push_back("lattice.kernel=" + k);
    return s;
  };
  expect_same(run(file, with("aa"), {200}), run(file, with("pull"), {200}), "NACA 0012, 200 steps");
}

TEST(InPlace, PeriodicTaylorGreenAndThreeDimensionalDucts) {
  const State tg = taylor_green("pull", 77);
  expect_same(taylor_green("aa", 77), tg, "Taylor–Green");
  EXPECT_GT(relative_l2(tg.u, taylor_green("pull", 0).u), 1e-3);  // it decayed: not two initial states
  for (const std::string st : {"D3Q19", "D3Q27"}) {
    const auto duct = write_temp_case("aa_duct_" + st,
                                      "schema_version: 1\n"
                                      "case: {name: duct}\n"
                                      "physics: {reynolds: 10, mach: 0.1, body_force: [1.0e-5, 0, 0]}\n"
                                      "geometry: {type: none, reference_cells: 8}\n"
                                      "domain: {size_chords: [2, 1, 1], body_position_chords: [1, 0.5, 0.5]}\n"
                                      "lattice: {stencil: " + st + ", collision: trt}\n"
                                      "boundaries: {inlet: periodic, outlet: periodic, lateral: wall}\n"
                                      "output: {every: 0}\n");
    expect_same(run(duct, {"lattice.kernel=aa"}, {51}), run(duct, {"lattice.kernel=pull"}, {51}), st + " duct");
  }
}

TEST(InPlace, PopulationsRoundTripThroughTheInPlaceLayout) {
  // Checkpoints read and write the natural layout: write a pull state into an in-place backend after an odd
  // number of its own steps, continue both, and they must still agree.
  const auto file = cases_dir() / "ci/schaefer_turek_2d1.yaml";
  SolverSetup ref(file, {"lattice.kernel=pull"}, "cpu", 2);
  SolverSetup aa(file, {"lattice.kernel=aa"}, "cpu", 2);
  ref.backend->run(150);
  aa.backend->run(3);
  std::vector<double> f, g;
  ref.backend->read_populations(f);
  aa.backend->write_populations(f);
  aa.backend->read_populations(g);
  EXPECT_EQ(g, f);
  ref.backend->run(50);
  aa.backend->run(50);
  ref.backend->read_populations(f);
  aa.backend->read_populations(g);
  EXPECT_EQ(g, f);
}

}  // namespace
}  // namespace aerolbm::testing
