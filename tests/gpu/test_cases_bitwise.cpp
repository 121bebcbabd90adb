// Every shipped CI case and the 2D cases of cases/ on the CPU backend and on each CUDA kernel variant: the state
// bit for bit equal after steps taken in pieces of odd and even sizes (graph replays of several step counts, the
// in-place layout flipping), and the force samples queued as a run queues them equal per near-wall cell (the
// same arithmetic) and in total to summation order (the CPU adds with OpenMP, the GPU in a fixed tree).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/cases_dir.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

struct Result {
  std::vector<double> f;
  std::vector<ForceSample> samples;
};

// The inflow ramp (a tenth of a convective time: 18-150 steps here) ends inside the 200 steps, so the steps of
// the ramp (launched one by one on the GPU, with a body force) and those after it (graph replays) are both
// compared, and with them the far field's faces and sponge in every kernel.
Result run_case(const std::filesystem::path& file, std::vector<std::string> sets, const std::string& backend) {
  sets.push_back("time.ramp_convective_times=0.1");
  SolverSetup s(file, sets, backend);
  const bool per_cell = dimensions(s.c.stencil) == 3 && s.body != nullptr;
  for (std::int64_t piece : {7, 13, 80, 20, 3, 77}) {
    s.backend->queue_steps(piece);
    s.backend->queue_force_sample(per_cell);
  }
  Result r;
  r.samples = s.backend->take_force_samples();
  s.backend->read_populations(r.f);
  return r;
}

std::size_t mismatches(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += !(a[i] == b[i]) ? 1 : 0;
  return n;
}

void expect_same(const Result& a, const Result& b, const std::string& what) {
  EXPECT_EQ(mismatches(a.f, b.f), 0u) << what << ": populations differ";
  ASSERT_EQ(a.samples.size(), b.samples.size()) << what;
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    EXPECT_EQ(mismatches(a.samples[i].cells, b.samples[i].cells), 0u) << what << ": per-cell forces, sample " << i;
    // Totals: the same terms added in another order, so equal to rounding of the largest component.
    double scale = 0;
    for (int c = 0; c < 3; ++c) scale = std::max(scale, std::abs(a.samples[i].total[c]));
    for (int c = 0; c < 3; ++c) {
      const double x = a.samples[i].total[c], y = b.samples[i].total[c];
      EXPECT_TRUE(std::isfinite(y)) << what;
      EXPECT_NEAR(y, x, 1e-12 * scale + 1e-300) << what << ": force sample " << i << " component " << c;
    }
    // The pressure part (wall_pressure_force): equal to rounding of the larger of the two samples' largest
    // components (its terms are as large as the force's), and not zero where there is a body (the body is pushed;
    // a case without one, the channel with wall-model faces, has no wall rows: its force is exactly 0).
    double pscale = 0;
    for (int c = 0; c < 3; ++c) pscale = std::max(pscale, std::abs(a.samples[i].pressure[c]));
    if (scale > 0) EXPECT_GT(pscale, 0.0) << what << ": sample " << i << " has no pressure part";
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(b.samples[i].pressure[c], a.samples[i].pressure[c], 1e-12 * std::max(scale, pscale) + 1e-300)
          << what << ": pressure part of sample " << i << " component " << c;
  }
}

// `extra`: further overrides for every run (another collision operator).
void expect_every_variant_agrees(const char* name, const std::vector<std::string>& extra) {
  const auto file = cases_dir() / name;
  const auto with = [&extra](std::vector<std::string> sets) {
    sets.insert(sets.end(), extra.begin(), extra.end());
    return sets;
  };
  const Result cpu = run_case(file, with({"lattice.kernel=pull", "lattice.precision=fp32"}), "cpu");
  // The pull and aa variants every way they reach the boundary cells (AEROLBM_BOUNDARY_PASS; the backend picks
  // one otherwise): in the one-pass kernel, in list blocks of the same launch as the interior blocks, and (pull) in
  // a list kernel after the interior's; for pull with the open faces listed or left in the plane blocks
  // (AEROLBM_OPEN_FACES). KERNEL[/PASS[:FACES]]
  const std::vector<std::string> gpu_variants = {"pull/one",        "pull/roles:list",  "pull/roles:plane",
                                                 "pull/split:list", "pull/split:plane", "aa/one",
                                                 "aa/roles",        "tiled"};
  auto use = [](const std::string& var) {  // sets the variables, returns the kernel
    std::vector<std::string> part(3);
    std::size_t i = 0;
    for (const char ch : var) {
      if ((ch == '/' && i == 0) || (ch == ':' && i > 0)) ++i;
      else part[i] += ch;
    }
    setenv("AEROLBM_BOUNDARY_PASS", part[1].c_str(), 1);
    setenv("AEROLBM_OPEN_FACES", part[2].c_str(), 1);
    return part[0];
  };
  for (const std::string& var : gpu_variants) {
    const std::string kernel = use(var);
    const Result gpu = run_case(file, with({"lattice.kernel=" + kernel, "lattice.precision=fp32"}), "cuda");
    expect_same(cpu, gpu, std::string(name) + ", CUDA " + var + " vs CPU, fp32");
  }
  // Half storage has no CPU counterpart: the variants against the one-pass pull.
  use("pull/one");
  const Result pull16 = run_case(file, with({"lattice.kernel=pull", "lattice.precision=fp16s"}), "cuda");
  for (const std::string& var : gpu_variants) {
    if (var == "pull/one" || var == "tiled") continue;
    const std::string kernel = use(var);
    const Result r16 = run_case(file, with({"lattice.kernel=" + kernel, "lattice.precision=fp16s"}), "cuda");
    expect_same(pull16, r16, std::string(name) + ", CUDA " + var + " vs pull one pass, fp16s");
  }
  unsetenv("AEROLBM_BOUNDARY_PASS");
  unsetenv("AEROLBM_OPEN_FACES");
  std::string sets;
  for (const auto& e : extra) sets += " " + e;
  std::printf("%s%s: %zu populations, %zu force samples: CPU = pull (one, roles and split, open faces both "
              "ways) = aa (one, roles) = tiled (fp32), the same without the CPU and tiled (fp16s)\n",
              name, sets.c_str(), cpu.f.size(), cpu.samples.size());
}

class CaseBitwise : public ::testing::TestWithParam<const char*> {};

TEST_P(CaseBitwise, CpuAndEveryGpuVariantAgreeBitForBit) { expect_every_variant_agrees(GetParam(), {}); }

INSTANTIATE_TEST_SUITE_P(Shipped, CaseBitwise,
                         ::testing::Values("ci/schaefer_turek_2d1.yaml", "ci/schaefer_turek_3d1z.yaml",
                                           "ci/stl_example.yaml", "ci/wing_naca0012_ar4.yaml",
                                           "ci/wing_naca2412_swept.yaml", "naca0012_re1000_aoa5.yaml",
                                           "naca2412_selig_aoa4.yaml", "cylinder_re100.yaml"));

// The entropic collision (lattice.collision: kbc), alone and with Smagorinsky, on a 2D and a 3D case (D3Q19, and
// D3Q27 through the stencil override, there with the initial perturbation of physics.initial_noise), and the
// span-periodic cylinder of the Re 3900 case, small: the same agreement.
class EntropicBitwise : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(EntropicBitwise, CpuAndEveryGpuVariantAgreeBitForBit) {
  const auto& p = GetParam();
  expect_every_variant_agrees(p[0].c_str(), std::vector<std::string>(p.begin() + 1, p.end()));
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, EntropicBitwise,
    ::testing::Values(std::vector<std::string>{"naca0012_re1000_aoa5.yaml", "lattice.collision=kbc"},
                      std::vector<std::string>{"naca0012_re1000_aoa5.yaml", "lattice.collision=kbc",
                                               "lattice.les.model=smagorinsky", "physics.reynolds=100000"},
                      std::vector<std::string>{"ci/wing_naca0012_ar4.yaml", "lattice.collision=kbc"},
                      std::vector<std::string>{"ci/wing_naca0012_ar4.yaml", "lattice.collision=kbc",
                                               "lattice.stencil=D3Q27", "physics.initial_noise=0.02"},
                      // A cylinder through a periodic span (its wall links across the seam), with its noise.
                      std::vector<std::string>{"cylinder_re3900.yaml", "geometry.diameter_cells=8",
                                               "domain.size_chords=[12, 8, 1]",
                                               "domain.body_position_chords=[4, 4, 0.5]"}));

// A model's run (case v[0] with the settings v[1..] and `model`) on the CPU and on the GPU, pull fp32: bit for bit;
// and the model acts: the GPU run with `baseline` in its place differs in more than 1 % of the populations.
void expect_model_agrees_and_acts(const std::vector<std::string>& v, const std::vector<std::string>& model,
                                  const std::vector<std::string>& baseline, const std::string& name) {
  const auto file = cases_dir() / v[0];
  std::vector<std::string> sets(v.begin() + 1, v.end());
  sets.push_back("lattice.kernel=pull");
  sets.push_back("lattice.precision=fp32");
  std::vector<std::string> plain = sets;
  sets.insert(sets.end(), model.begin(), model.end());
  plain.insert(plain.end(), baseline.begin(), baseline.end());
  const Result cpu = run_case(file, sets, "cpu");
  const Result gpu = run_case(file, sets, "cuda");
  expect_same(cpu, gpu, v[0] + " with " + name + ", CUDA pull vs CPU, fp32");
  const Result none = run_case(file, plain, "cuda");
  const std::size_t differ = mismatches(gpu.f, none.f);
  EXPECT_GT(differ, gpu.f.size() / 100) << name << " left the state as the run without it";
  std::printf("%s %s: %zu populations, CPU = GPU; %zu of them differ from the run without it\n", v[0].c_str(),
              name.c_str(), cpu.f.size(), differ);
}

// WALE (lattice.les.model: wale) runs the one-pass pull kernel with its velocity fields: the CPU and the GPU agree
// bit for bit (fp32), on a 2D airfoil at Re 10^5, the 3D CI wing (D3Q19, sponge and far field) and the same wing
// with the entropic collision on D3Q27; and the model acts.
class WaleBitwise : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(WaleBitwise, CpuAndGpuPullAgreeBitForBit) {
  expect_model_agrees_and_acts(GetParam(), {"lattice.les.model=wale"},
                               {"lattice.les.model=none", "lattice.tau_min=0.5000001"}, "WALE");
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, WaleBitwise,
    ::testing::Values(std::vector<std::string>{"naca0012_re1000_aoa5.yaml", "physics.reynolds=100000"},
                      std::vector<std::string>{"ci/wing_naca0012_ar4.yaml"},
                      std::vector<std::string>{"ci/wing_naca0012_ar4.yaml", "lattice.collision=kbc",
                                               "lattice.stencil=D3Q27"}));

// The wall model (boundaries.wall: wall_model): the near-wall cells' eddy viscosity from the law of the wall, in
// the one-pass pull kernel; CPU = GPU bit for bit (fp32) on the 2D airfoil at Re 10^6 with the entropic collision,
// the CI wing, and the CI wing with WALE as well; and the model acts (the GPU run with interpolated walls differs).
class WallModelBitwise : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(WallModelBitwise, CpuAndGpuPullAgreeBitForBit) {
  expect_model_agrees_and_acts(GetParam(), {"boundaries.wall=wall_model"}, {"boundaries.wall=interpolated"},
                               "the wall model");
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, WallModelBitwise,
    ::testing::Values(std::vector<std::string>{"naca0012_re1000_aoa5.yaml", "lattice.collision=kbc",
                                               "physics.reynolds=1000000", "geometry.chord_cells=96"},
                      std::vector<std::string>{"ci/wing_naca0012_ar4.yaml", "physics.reynolds=100000",
                                               "lattice.collision=kbc"},
                      std::vector<std::string>{"ci/wing_naca0012_ar4.yaml", "physics.reynolds=100000",
                                               "lattice.les.model=wale"}));

// Wall-model faces (boundaries.lateral: wall_model): free-slip reflection plus the law of the wall's stress, in the
// one-pass pull kernel; CPU = GPU bit for bit (fp32) on the plane channel with such faces (h = 10, D3Q19, BGK +
// Smagorinsky, and the entropic collision on D3Q27); and the model acts (the run with no-slip wall faces differs).
class WallModelFaceBitwise : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(WallModelFaceBitwise, CpuAndGpuPullAgreeBitForBit) {
  expect_model_agrees_and_acts(GetParam(), {"boundaries.lateral=wall_model"}, {"boundaries.lateral=wall"},
                               "wall-model faces");
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, WallModelFaceBitwise,
    ::testing::Values(std::vector<std::string>{"channel_re_tau1000_faces.yaml", "geometry.reference_cells=10"},
                      std::vector<std::string>{"channel_re_tau1000_faces.yaml", "geometry.reference_cells=10",
                                               "lattice.stencil=D3Q27", "lattice.collision=kbc",
                                               "lattice.les.model=none"}));

}  // namespace
}  // namespace aerolbm::testing
