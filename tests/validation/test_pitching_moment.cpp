// The pitching moment of a section (2D): the moment about the moment point (the quarter chord unless
// forces.moment_point moves it) of every near-wall cell's momentum-exchange force, as `aerolbm run` reports it
// (forces.csv's Cpitch, summary.json's cpitch_mean; nose-up positive). Checked against
//  - mirror symmetry: NACA 0012 at +α and −α in a domain symmetric about the chord line gives C_m and C_L of
//    opposite signs and the same C_D;
//  - statics: moving the moment point by (Δx, Δy) chords changes C_m by Δx·C_L − Δy·C_D, sample by sample;
//  - the surface output: the moment of the surface pressure and friction (one cell out from the wall, the same
//    first-order estimates forces.md compares the drag's parts with) integrated over the outline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/solver/body_loads.hpp"
#include "src/solver/simulation.hpp"
#include "tests/validation/harness.hpp"
#include "tests/validation/outline_surface.hpp"

namespace aerolbm::testing {
namespace {

const char* test_backend() {
  const char* env = std::getenv("AEROLBM_TEST_BACKEND");
  return env ? env : "cpu";
}

// The default case at 32 cells per chord, `convective_times` of it through Simulation::advance (no run folder);
// returns the force history with its moments.
std::vector<CoefficientSample> section_history(std::vector<std::string> sets, double convective_times) {
  sets.push_back("geometry.chord_cells=32");
  const Case c = load_case(cases_dir() / "naca0012_re1000_aoa5.yaml", sets);
  const LatticeUnits u = lattice_units(c);
  RunOptions opt;
  opt.solver.backend = parse_backend(test_backend());
  opt.solver.threads = 2;
  opt.progress = false;
  Simulation sim(c, u, make_body(c), opt);
  sim.advance(std::int64_t(std::llround(convective_times * double(u.steps_per_convective_time))));
  return sim.history().samples();
}

TEST(PitchingMoment, OddInTheAngleOfAttackOfASymmetricSection) {
  const auto up = section_history({"physics.angle_of_attack_deg=4"}, 3);
  const auto down = section_history({"physics.angle_of_attack_deg=-4"}, 3);
  ASSERT_EQ(up.size(), down.size());
  ASSERT_GT(up.size(), 10u);
  const CoefficientSample& a = up.back();
  const CoefficientSample& b = down.back();
  std::printf("NACA 0012 at ±4°, 32 cells per chord, 3 convective times: C_m %+.6f / %+.6f, C_L %+.5f / %+.5f, "
              "C_D %.5f / %.5f\n", a.cpitch, b.cpitch, a.cl, b.cl, a.cd, b.cd);
  ASSERT_TRUE(std::isfinite(a.cpitch) && std::isfinite(b.cpitch)) << "a 2D run reports its pitching moment";
  EXPECT_GT(std::abs(a.cpitch), 1e-3) << "the section at 4° has a pitching moment about its quarter chord";
  // The mirrored section is voxelised and stepped in single precision, so the two runs part by rounding: measured
  // (2026-12-06, CPU) at most 6.5e-6 in any coefficient over the 3 convective times, against C_m of 3e-3 and C_L
  // of 0.28. A moment point off the chord line by δ chords would add δ·C_D to both runs: even, not odd.
  double worst = 0;
  for (std::size_t k = 0; k < up.size(); ++k) {
    worst = std::max({worst, std::abs(up[k].cpitch + down[k].cpitch), std::abs(up[k].cl + down[k].cl),
                      std::abs(up[k].cd - down[k].cd)});
    EXPECT_NEAR(up[k].cpitch, -down[k].cpitch, 2e-5) << "sample " << k;
    EXPECT_NEAR(up[k].cl, -down[k].cl, 2e-5) << "sample " << k;
    EXPECT_NEAR(up[k].cd, down[k].cd, 2e-5) << "sample " << k;
  }
  std::printf("  largest difference of mirrored coefficients %.2e\n", worst);
}

TEST(PitchingMoment, MovesWithTheMomentPointAsTheForcesSay) {
  // About the quarter chord, and about a point 0.25 chords ahead of it and 0.1 above.
  const auto quarter = section_history({}, 1);
  const auto moved = section_history({"forces.moment_point=[-0.25,0.1]"}, 1);
  ASSERT_EQ(quarter.size(), moved.size());
  ASSERT_GT(quarter.size(), 10u);
  for (std::size_t k = 0; k < quarter.size(); ++k) {
    const CoefficientSample& q = quarter[k];
    // C_m = −M_z / (q c²) with M_z = Σ (x − P_x) F_y − (y − P_y) F_x: P moved by (Δx, Δy) c adds Δx C_L − Δy C_D.
    const double expected = q.cpitch + (-0.25) * q.cl - 0.1 * q.cd;
    EXPECT_NEAR(moved[k].cpitch, expected, 1e-9 * (std::abs(q.cl) + q.cd)) << "sample " << k;
    EXPECT_EQ(moved[k].cl, q.cl);
    EXPECT_EQ(moved[k].cd, q.cd);
  }
  std::printf("C_m about the quarter chord %+.6f, about (−0.25, 0.1) chords from it %+.6f (C_L %.5f, C_D %.5f)\n",
              quarter.back().cpitch, moved.back().cpitch, quarter.back().cl, quarter.back().cd);
}

TEST(PitchingMoment, AgreesWithTheSurfaceOutputsMoment) {
  // The default case at 5°, 32 cells per chord, after 10 convective times (steady by then).
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml", {"geometry.chord_cells=32"});
  s.backend->run(10 * s.u.steps_per_convective_time);
  const double c = s.u.length_cells;
  ForceReference ref;
  ref.length = c;
  ref.area = c;
  ref.moment_point = {s.c.body_position_chords[0] * c, s.c.body_position_chords[1] * c, 0.5};
  const LoadIntegrator loads(s.d, ref, s.u.u_lattice);
  std::vector<double> per_cell;
  s.backend->wall_force_cells(per_cell);
  const BodyLoads l = loads.loads(per_cell);
  const double cm = l.moment_coefficients[2];

  const OutlineSurface o = outline_surface(s);
  const SurfaceMesh& m = o.mesh;
  const SurfaceValues& v = o.values;
  // Segment by segment: the traction −Cp n + C_f (the shear's coefficient vector), the end points' mean, at the
  // segment's middle, times its length; lengths in chords.
  double surface_cm = 0, surface_cl = 0;
  const std::size_t P = m.points.size();
  for (std::size_t p = 0; p < P; ++p) {
    const std::size_t q = (p + 1) % P;
    const double tx = m.points[q][0] - m.points[p][0], ty = m.points[q][1] - m.points[p][1];
    const double ds = std::hypot(tx, ty) / c;
    double nx = ty, ny = -tx;
    const double nn = std::hypot(nx, ny);
    nx /= nn;
    ny /= nn;
    if (nx * (m.normals[p][0] + m.normals[q][0]) + ny * (m.normals[p][1] + m.normals[q][1]) < 0) nx = -nx, ny = -ny;
    const double cp = 0.5 * (v.cp[p] + v.cp[q]);
    const double fx = -cp * nx + 0.5 * (v.shear[3 * p] + v.shear[3 * q]);
    const double fy = -cp * ny + 0.5 * (v.shear[3 * p + 1] + v.shear[3 * q + 1]);
    const double x = (0.5 * (m.points[p][0] + m.points[q][0]) - ref.moment_point[0]) / c;
    const double y = (0.5 * (m.points[p][1] + m.points[q][1]) - ref.moment_point[1]) / c;
    surface_cm -= (x * fy - y * fx) * ds;
    surface_cl += fy * ds;
  }
  std::printf("NACA 0012 at 5°, 32 cells per chord: C_m %+.5f (momentum exchange) against %+.5f (surface output); "
              "C_L %.5f against %.5f\n", cm, surface_cm, l.coefficients[1], surface_cl);
  // The same sign and size: the surface values are first-order estimates one cell out (forces.md: their drag
  // parts 5–13 % off the momentum exchange's at this resolution); the moment is a small difference of lift
  // about the quarter chord, so its gap is held to a quarter of it (measured 2026-12-06: C_m +0.0146 against
  // +0.0116, C_L 0.218 against 0.199).
  EXPECT_GT(cm * surface_cm, 0.0);
  EXPECT_NEAR(surface_cm / cm, 1.0, 0.25);
}

}  // namespace
}  // namespace aerolbm::testing
