// WALE in the body-force-driven channel of test_smagorinsky.cpp (D2Q9, TRT, half-way walls; τ = 0.51 here): the flow
// is a pure shear, whose WALE eddy viscosity vanishes (kernels/physics/les_wale.hpp), so the steady profile is the
// laminar parabola, where Smagorinsky's model at a smaller constant bends it by more than 20 % (that test). The
// largest constant the case file admits, and the same run without a model, for comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// Relative L2 distance of the steady channel profile to the laminar parabola, with lattice.les `les`.
double channel_error(const std::string& les, double& centre, double& constant) {
  const int H = 16;
  const double tau = 0.51, nu = (tau - 0.5) / 3.0;
  const double g = 8.0 * nu * 0.05 / (H * H);  // a laminar centre-line speed of 0.05
  const double re = 0.1 / std::sqrt(3.0) * H / nu;
  const std::string yaml =
      "schema_version: 1\n"
      "case: {name: wale_channel}\n"
      "physics: {reynolds: " + std::to_string(re) + ", mach: 0.1, body_force: [" + std::to_string(g) + ", 0]}\n"
      "geometry: {type: none, reference_cells: " + std::to_string(H) + "}\n"
      "domain: {size_chords: [0.5, 1], body_position_chords: [0.25, 0.5]}\n"
      "lattice: {stencil: D2Q9, collision: trt, precision: fp64, les: " + les + "}\n"
      "boundaries: {inlet: periodic, outlet: periodic, lateral: wall}\n"
      "time: {steps: 100000}\n"
      "output: {every: 0}\n";
  SolverSetup s(write_temp_case("wale_channel", yaml), {}, "cpu", 1);
  constant = s.p.wale;  // the model is on (the flow alone cannot tell: its ν_t is 0)
  const double g_used = s.p.body_force[0], nu_used = (s.u.tau - 0.5) / 3.0;
  s.backend->run(100000);  // 13 decay times H²/(π²ν) of the slowest mode
  std::vector<float> rho, vel;
  s.backend->macroscopic(rho, vel);
  double num = 0, den = 0;
  for (int y = 0; y < H; ++y) {
    const double yc = y + 0.5;
    const double got = vel[3 * (1 + s.d.nx * y)];
    const double laminar = g_used / (2 * nu_used) * yc * (H - yc);
    num += (got - laminar) * (got - laminar);
    den += laminar * laminar;
  }
  centre = vel[3 * (1 + s.d.nx * (H / 2))];
  return std::sqrt(num / den);
}

TEST(Wale, LaminarChannelKeepsTheParabola) {
  double centre_wale = 0, centre_none = 0, cw = 0, cw_none = 0;
  const double wale = channel_error("{model: wale, constant: 0.5}", centre_wale, cw);
  const double none = channel_error("{model: none}", centre_none, cw_none);
  EXPECT_EQ(cw, 0.5);
  EXPECT_EQ(cw_none, 0.0);
  std::printf("WALE channel H=16 tau=0.51 C_w=0.5: rel. L2 vs laminar %.3e (no model %.3e); centre %.6f (%.6f)\n",
              wale, none, centre_wale, centre_none);
  EXPECT_LT(wale, 1e-3);
  EXPECT_NEAR(centre_wale / centre_none, 1.0, 1e-4);
}

// A WALE step writes the velocity field of the state it stores, for the next step, from the populations in its
// registers (inlet and outlet nodes: read back); after the state is set, the backend computes the field from the
// stored populations instead (the velocity pass). The two must be the same numbers: a run whose state is read and
// written back half-way (which makes the backend take the pass) ends bit for bit where the uninterrupted run does.
// The default airfoil (inlet, characteristic outlet, far field with the sponge; split inside the inflow ramp, whose
// body force the field leaves out) and the CI wing; fp32, and fp16s storage on CUDA; the backend of
// AEROLBM_TEST_BACKEND (the GPU host runs it on CUDA too).
void expect_halves_match_whole(const std::string& file, const std::vector<std::string>& sets, std::int64_t half,
                               const std::string& what) {
  SolverSetup whole(cases_dir() / file, sets);
  SolverSetup halves(cases_dir() / file, sets);
  ASSERT_GT(whole.p.wale, 0.0);
  whole.backend->run(2 * half);
  halves.backend->run(half);
  std::vector<double> f, g;
  halves.backend->read_populations(f);
  halves.backend->write_populations(f);
  halves.backend->run(half);
  whole.backend->read_populations(f);
  halves.backend->read_populations(g);
  ASSERT_EQ(f.size(), g.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < f.size(); ++i) differ += f[i] != g[i];
  EXPECT_EQ(differ, 0u) << what << ": " << differ << " of " << f.size() << " populations differ";
}

TEST(Wale, StepFieldIsTheVelocityPassField) {
  const char* backend = std::getenv("AEROLBM_TEST_BACKEND");
  const bool cuda = backend != nullptr && std::string(backend) == "cuda";
  for (const char* precision : {"fp32", "fp16s"}) {
    if (!cuda && std::string(precision) == "fp16s") continue;  // fp16s storage: the CUDA backend only
    expect_halves_match_whole("naca0012_re1000_aoa5.yaml",
                              {"geometry.chord_cells=32", "lattice.les.model=wale",
                               std::string("lattice.precision=") + precision},
                              200, std::string("2D airfoil, ") + precision);
  }
  expect_halves_match_whole("ci/wing_naca0012_ar4.yaml", {"lattice.les.model=wale", "geometry.chord_cells=12"}, 40,
                            "3D CI wing at 12 cells per chord, fp32");
}

}  // namespace
}  // namespace aerolbm::testing
