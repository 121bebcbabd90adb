// The far field (issue 15): a pressure pulse leaves through the characteristic outlet, the far-field faces and the
// sponge layer, where the fixed-density outlet and the slip walls keep it in the domain; the inflow ramp speeds the
// whole fluid up with the inlet. Real runs of the CPU backend (or CUDA, AEROLBM_TEST_BACKEND=cuda).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/lattice/lattice.hpp"
#include "kernels/physics/grid_view.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// An empty domain, 8 × 4 reference lengths of 20 cells (160 × 80), uniform inflow at Mach 0.1, Re 500 (τ = 0.507:
// little viscous damping, so what takes the pulse's energy away is the boundaries).
std::string empty_domain(const std::string& boundaries) {
  return "schema_version: 1\n"
         "case: {name: far_field}\n"
         "physics: {reynolds: 500, mach: 0.1}\n"
         "geometry: {type: none, reference_cells: 20}\n"
         "domain: {size_chords: [8, 4]}\n"
         "lattice: {stencil: D2Q9, collision: bgk}\n"
         "boundaries: " + boundaries + "\n"
         "time: {steps: 1000, ramp_convective_times: 0}\n"
         "output: {every: 0}\n"
         "forces: {every: 10}\n"
         "checkpoint: {every: 0}\n";
}

double fluctuation_energy(const std::vector<float>& rho) {
  double e = 0;
  for (float r : rho) e += (double(r) - 1.0) * (double(r) - 1.0);
  return e;
}

// The free stream plus a Gaussian density pulse (amplitude 1 %, radius 6 cells) at the centre, then `steps` steps
// (an acoustic wave crosses the 160-cell domain in 277). Returns the pulse's remaining fluctuation energy Σ(ρ − 1)²
// as a fraction of the initial one.
double remaining_energy(const std::string& boundaries, std::int64_t steps) {
  SolverSetup s(write_temp_case("far_field", empty_domain(boundaries)));
  const int nx = int(s.d.nx), ny = int(s.d.ny);
  const double u = s.u.u_lattice;
  std::vector<double> f(std::size_t(9) * std::size_t(s.d.cells()));
  std::vector<float> rho0(std::size_t(s.d.cells()));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const double dx = x - 0.5 * nx, dy = y - 0.5 * ny;
      const double r = 1.0 + 0.01 * std::exp(-(dx * dx + dy * dy) / 36.0);
      const std::size_t n = std::size_t(x) + std::size_t(nx) * std::size_t(y);
      rho0[n] = float(r);
      for (int i = 0; i < 9; ++i) {
        const double cu = D2Q9::c(i, 0) * u;
        f[std::size_t(i) * s.d.cells() + n] = D2Q9::w(i) * (r - 1.0) + D2Q9::w(i) * r * (3 * cu + 4.5 * cu * cu - 1.5 * u * u);
      }
    }
  s.backend->write_populations(f);
  const double e0 = fluctuation_energy(rho0);
  s.backend->run(steps);
  std::vector<float> rho, vel;
  s.backend->macroscopic(rho, vel);
  return fluctuation_energy(rho) / e0;
}

TEST(FarField, PressurePulseLeavesThroughCharacteristicOutletFarFieldAndSponge) {
  const std::string closed = "{inlet: velocity, outlet: pressure, lateral: slip}";
  const std::string faces = "{inlet: velocity, outlet: characteristic, lateral: farfield, sponge: {width_chords: 0}}";
  const std::string sponge = "{inlet: velocity, outlet: characteristic, lateral: farfield}";
  // 120 steps: the front has passed the lateral faces (40 cells away) and what they reflect is on its way back;
  // 900 steps: the wave has met every face at least twice.
  for (const std::int64_t steps : {120, 900}) {
    const double e_closed = remaining_energy(closed, steps), e_faces = remaining_energy(faces, steps),
                 e_sponge = remaining_energy(sponge, steps);
    std::printf("pulse energy left after %lld steps: pressure outlet + slip walls %.3g, characteristic outlet + far "
                "field %.3g, the same with the default sponge %.3g\n",
                static_cast<long long>(steps), e_closed, e_faces, e_sponge);
    EXPECT_GT(e_closed, 0.05) << "the closed domain keeps its waves (else this test measures nothing)";
    EXPECT_LT(e_faces, 0.5 * e_closed) << steps;
    EXPECT_LT(e_sponge, e_faces) << steps;
    if (steps == 900) {
      EXPECT_LT(e_faces, 1e-3);
      EXPECT_LT(e_sponge, 0.5 * e_faces);
    }
  }
}

// The inflow ramp: from rest, the inlet and the free stream follow sin² over one convective time and a uniform body
// force accelerates the fluid with them, so the whole domain's mean speed follows the ramp (no body to slow it).
TEST(InflowRamp, WholeFluidSpeedsUpWithTheInlet) {
  SolverSetup s(write_temp_case(
      "ramp", "schema_version: 1\ncase: {name: ramp}\nphysics: {reynolds: 500, mach: 0.1}\n"
              "geometry: {type: none, reference_cells: 20}\ndomain: {size_chords: [8, 4]}\n"
              "lattice: {stencil: D2Q9, collision: bgk}\n"
              "boundaries: {inlet: velocity, outlet: characteristic, lateral: farfield}\n"
              "time: {steps: 1000, ramp_convective_times: 1}\noutput: {every: 0}\ncheckpoint: {every: 0}\n"));
  const std::int64_t ramp = s.p.ramp_steps;
  ASSERT_EQ(ramp, s.u.steps_per_convective_time);
  std::vector<float> rho, vel;
  s.backend->macroscopic(rho, vel);
  double mean0 = 0;
  for (std::size_t n = 0; n < rho.size(); ++n) mean0 += vel[3 * n];
  EXPECT_EQ(mean0, 0.0) << "the ramp starts from rest";
  std::int64_t done = 0;
  for (const double frac : {0.25, 0.5, 0.75, 1.0, 1.5}) {
    const std::int64_t to = std::llround(frac * double(ramp));
    s.backend->run(to - done);
    done = to;
    s.backend->macroscopic(rho, vel);
    double mean = 0;
    for (std::size_t n = 0; n < rho.size(); ++n) mean += vel[3 * n];
    mean /= double(rho.size());
    const double expect = inflow_ramp(s.p, done - 1) * s.u.u_lattice;
    std::printf("step %lld of a %lld-step ramp: mean u %.6f, the ramp's %.6f\n", static_cast<long long>(done),
                static_cast<long long>(ramp), mean, expect);
    EXPECT_NEAR(mean, expect, 0.02 * s.u.u_lattice);
  }
}

}  // namespace
}  // namespace aerolbm::testing
