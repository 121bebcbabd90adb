// Static grid refinement, ratio 2 (src/solver/refined_levels.hpp, kernels/physics/refinement.hpp): mass and
// momentum handed over exactly across the faces of a refined box, a uniform flow through a box kept uniform,
// analytic flows kept across the interfaces (Poiseuille along and across them, a decaying shear wave) with their
// measured order of convergence, and the boxes this first form refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/averaged_run.hpp"
#include "src/solver/case_backend.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/refined_levels.hpp"
#include "src/solver/simulation.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

BackendKind test_backend() {
  const char* env = std::getenv("AEROLBM_TEST_BACKEND");
  return env && std::string(env) == "cuda" ? BackendKind::Cuda : BackendKind::Cpu;
}

// The refinement's physics is measured in fp64, which only the CPU backend stores; on the CUDA backend these tests
// skip (RefinementCuda.CpuAndCudaBitIdentical holds it to the CPU's bits in fp32, and the airfoil below runs there).
#define SKIP_FP64_ON_CUDA()                                                                                        \
  if (test_backend() == BackendKind::Cuda)                                                                         \
  GTEST_SKIP() << "fp64 storage is CPU-only; the CUDA backend is held to the CPU's bits by RefinementCuda.*"

BackendConfig config(Stencil s, Precision p = Precision::FP64) {
  BackendConfig cfg;
  cfg.stencil = s;
  cfg.precision = p;
  cfg.kernel = KernelVariant::Pull;
  return cfg;
}

PhysicsParams periodic_params(Collision c, double tau) {
  PhysicsParams p;
  p.collision = c;
  p.tau = tau;
  for (auto& f : p.faces) f = FaceBC::Periodic;
  return p;
}

RefinedBox box(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, std::int64_t z0 = 0,
               std::int64_t z1 = 1) {
  RefinedBox b;
  b.lo[0] = x0, b.hi[0] = x1, b.lo[1] = y0, b.hi[1] = y1, b.lo[2] = z0, b.hi[2] = z1;
  return b;
}

struct Budget {
  double mass = 0;      // relative change
  double momentum = 0;  // largest change of a component, over the mass
};

// A disturbed vortex (Taylor–Green plus noise) that carries populations across every side of the boxes.
Budget run_budget(Stencil s, const DomainData& d, const std::vector<RefinedBox>& boxes, std::int64_t steps,
                  const char* what) {
  PhysicsParams p = periodic_params(Collision::BGK, 0.7);
  p.taylor_green_amplitude = 0.05;
  p.initial_noise = 0.01;
  RefinedLevels r(test_backend(), config(s), d, p, boxes);
  r.initialize();
  const double m0 = r.mass();
  const auto j0 = r.momentum();
  r.run(steps);
  const double m1 = r.mass();
  const auto j1 = r.momentum();
  Budget b;
  b.mass = (m1 - m0) / m0;
  for (int a = 0; a < 3; ++a) b.momentum = std::max(b.momentum, std::abs(j1[a] - j0[a]) / m0);
  std::printf("%s: mass %.17g -> %.17g (%.2e), momentum (%.4e %.4e %.4e) -> (%.4e %.4e %.4e)\n", what, m0, m1, b.mass,
              j0[0], j0[1], j0[2], j1[0], j1[1], j1[2]);
  return b;
}

TEST(Refinement, MassAndMomentumHandedOverExactlyAcrossFaces) {
  SKIP_FP64_ON_CUDA();
  // Boxes without corners (each spans the other periodic axes whole): every population that crosses is handed
  // over unchanged, so the budgets close to rounding, in 2D and 3D, over two and three levels.
  const Budget two = run_budget(Stencil::D2Q9, fluid_grid(32, 16), {box(8, 24, 0, 16)}, 200, "D2Q9, a slab");
  EXPECT_LT(std::abs(two.mass), 1e-14);
  EXPECT_LT(two.momentum, 1e-14);
  const Budget three =
      run_budget(Stencil::D2Q9, fluid_grid(32, 16), {box(6, 26, 0, 16), box(20, 44, 0, 32)}, 100, "D2Q9, nested slabs");
  EXPECT_LT(std::abs(three.mass), 1e-14);
  EXPECT_LT(three.momentum, 1e-14);
  for (Stencil s : {Stencil::D3Q19, Stencil::D3Q27}) {
    const Budget b = run_budget(s, fluid_grid(16, 8, 8), {box(4, 12, 0, 8, 0, 8)}, 40, stencil_name(s));
    EXPECT_LT(std::abs(b.mass), 1e-14) << stencil_name(s);
    EXPECT_LT(b.momentum, 1e-14) << stencil_name(s);
  }
}

TEST(Refinement, CornersOfABoxKeepTheBudgetsClose) {
  SKIP_FP64_ON_CUDA();
  // At a box's corners a diagonal crossing may land where the coarse level streams the population itself, from
  // an uncovered cell past the corner; only its owner's half is credited there (src/solver/refined_levels.cpp), so
  // the budget is not exact. Measured drift after these runs: 9.9e-7 (2D), 8.8e-6 (3D) of the mass (5.0e-6 and
  // 1.3e-5 when such crossings were credited whole and the corner's ring values took their mean, before
  // 2026-12-07).
  const Budget two = run_budget(Stencil::D2Q9, fluid_grid(32, 32), {box(8, 24, 10, 22)}, 200, "D2Q9, a box");
  EXPECT_LT(std::abs(two.mass), 5e-6);
  EXPECT_LT(two.momentum, 5e-5);
  RefinedBox b3 = box(4, 10, 3, 9, 5, 10);
  const Budget three = run_budget(Stencil::D3Q19, fluid_grid(14, 12, 14), {b3}, 40, "D3Q19, a box");
  EXPECT_LT(std::abs(three.mass), 3e-5);
  EXPECT_LT(three.momentum, 1e-4);
}

TEST(Refinement, UniformFlowThroughABoxStaysUniform) {
  SKIP_FP64_ON_CUDA();
  // The equilibrium of a uniform flow is the same population in every cell of every level: explosion,
  // coalescence (sums and corner means alike) and the sub-steps must hand it over unchanged.
  PhysicsParams p = periodic_params(Collision::TRT, 0.8);
  p.initial_velocity[0] = 0.05;
  p.initial_velocity[1] = 0.02;
  RefinedLevels r(test_backend(), config(Stencil::D2Q9), fluid_grid(32, 16), p, {box(8, 24, 4, 12)});
  r.initialize();
  r.run(200);
  for (int l = 0; l < r.levels(); ++l) {
    std::vector<float> rho, u;
    r.backend(l).macroscopic(rho, u);
    for (std::int64_t n = 0; n < r.domain(l).cells(); ++n) {
      if (!r.owned(l, n)) continue;
      ASSERT_NEAR(u[3 * n], 0.05, 1e-8) << "level " << l << " cell " << n;
      ASSERT_NEAR(u[3 * n + 1], 0.02, 1e-8) << "level " << l << " cell " << n;
      ASSERT_NEAR(rho[n], 1.0, 1e-7) << "level " << l << " cell " << n;
    }
  }
}

// A box on a free-slip face (a symmetry plane, as a half wing's root plane is) with interfaces across the other
// axes that end on it: the half domain must hand over what the whole, mirrored domain does. The whole domain is
// periodic along `axis` with 2N cells and a vortex symmetric about its mid-plane (N − ½), its boxes symmetric
// about it too; the half is its upper half, both faces along `axis` free-slip (the low one the mid-plane, the high
// one the periodic seam, about which the vortex is symmetric as well), started from the whole's upper half. After
// the run, every own value of every level of the half equals the whole's at the same cell (to rounding: sums are
// taken in another order). Returns the largest difference over the largest population.
double half_against_whole(Stencil s, std::int64_t nx, std::int64_t ny, std::int64_t nz, int axis,
                          const std::vector<RefinedBox>& whole_boxes, std::int64_t steps) {
  const std::int64_t n_whole[3] = {nx, ny, nz};
  const std::int64_t N = n_whole[axis] / 2;
  PhysicsParams p = periodic_params(Collision::BGK, 0.6);
  p.taylor_green_amplitude = 0.05;
  std::vector<RefinedBox> half_boxes = whole_boxes;
  for (std::size_t l = 0; l < half_boxes.size(); ++l) {
    half_boxes[l].lo[axis] = 0;  // the upper half of a box symmetric about the mid-plane, on the half's low face
    half_boxes[l].hi[axis] -= N << l;  // (level ℓ + 1's box in level ℓ's global coordinates)
  }
  RefinedLevels whole(BackendKind::Cpu, config(s), fluid_grid(nx, ny, nz), p, whole_boxes);
  PhysicsParams ph = p;
  ph.faces[2 * axis] = ph.faces[2 * axis + 1] = FaceBC::Slip;
  std::int64_t n_half[3] = {nx, ny, nz};
  n_half[axis] = N;
  RefinedLevels half(BackendKind::Cpu, config(s), fluid_grid(n_half[0], n_half[1], n_half[2]), ph, half_boxes);
  whole.initialize();
  half.initialize();
  // Cell n of the half's level ℓ → the whole's cell at the same place.
  auto whole_cell = [&](int l, std::int64_t n) {
    const DomainData& dh = half.domain(l);
    const DomainData& dw = whole.domain(l);
    const std::int64_t xh[3] = {n % dh.nx, (n / dh.nx) % dh.ny, n / (dh.nx * dh.ny)};
    const std::int64_t nw[3] = {dw.nx, dw.ny, dw.nz};
    std::int64_t xw[3];
    for (int a = 0; a < 3; ++a) {
      xw[a] = xh[a] + dh.origin[a] - dw.origin[a] + (a == axis ? N << l : 0);
      EXPECT_TRUE(xw[a] >= 0 && xw[a] < nw[a]) << "level " << l << " cell " << n;
    }
    return xw[0] + dw.nx * (xw[1] + dw.ny * xw[2]);
  };
  const int q = s == Stencil::D2Q9 ? 9 : s == Stencil::D3Q19 ? 19 : 27;
  for (int l = 0; l < half.levels(); ++l) {
    std::vector<double> fw, fh(std::size_t(q * half.domain(l).cells()));
    whole.backend(l).read_populations(fw);
    const std::int64_t cw = whole.domain(l).cells(), ch = half.domain(l).cells();
    for (std::int64_t n = 0; n < ch; ++n)
      for (int i = 0; i < q; ++i) fh[std::size_t(i * ch + n)] = fw[std::size_t(i * cw + whole_cell(l, n))];
    half.backend(l).write_populations(fh);
  }
  whole.states_written();
  half.states_written();
  whole.run(steps);
  half.run(steps);
  double diff = 0, largest = 0;
  std::int64_t compared = 0;
  for (int l = 0; l < half.levels(); ++l) {
    std::vector<double> fw, fh;
    whole.backend(l).read_populations(fw);
    half.backend(l).read_populations(fh);
    const std::int64_t cw = whole.domain(l).cells(), ch = half.domain(l).cells();
    for (std::int64_t n = 0; n < ch; ++n) {
      if (!half.owned(l, n)) continue;
      const std::int64_t m = whole_cell(l, n);
      EXPECT_TRUE(whole.owned(l, m)) << "level " << l << " cell " << n;
      ++compared;
      for (int i = 0; i < q; ++i) {
        diff = std::max(diff, std::abs(fh[std::size_t(i * ch + n)] - fw[std::size_t(i * cw + m)]));
        largest = std::max(largest, std::abs(fw[std::size_t(i * cw + m)]));
      }
    }
  }
  std::printf("%s, half against whole (%d levels, %lld own cells compared, %lld steps): largest difference %.3e "
              "of %.3e\n", stencil_name(s), half.levels(), static_cast<long long>(compared),
              static_cast<long long>(steps), diff, largest);
  return diff / largest;
}

TEST(Refinement, BoxOnASymmetryFaceHandsOverWhatTheMirroredDomainDoes) {
  SKIP_FP64_ON_CUDA();
  // 2D, the symmetry plane across y: one box, then a second one inside it, both on the plane.
  EXPECT_LT(half_against_whole(Stencil::D2Q9, 32, 24, 1, 1, {box(8, 24, 8, 16)}, 60), 1e-12);
  EXPECT_LT(half_against_whole(Stencil::D2Q9, 32, 24, 1, 1, {box(8, 24, 8, 16), box(24, 40, 21, 27)}, 40), 1e-12);
  // 3D, across z (a half wing's root plane): the box's x and y interfaces end on it.
  for (Stencil s : {Stencil::D3Q19, Stencil::D3Q27})
    EXPECT_LT(half_against_whole(s, 16, 12, 16, 2, {box(4, 12, 3, 9, 5, 11)}, 20), 1e-12) << stencil_name(s);
}

// A channel between half-way bounce-back walls (y), periodic along the flow (x), driven by a body force, at
// steady state; TRT with Λ = 3/16 makes the uniform grid exact, so what differs from the parabola comes from the
// interfaces. Returns max |u − u_exact| / u_max over the own cells of every level.
double refined_channel(int H, bool across) {
  const double tau = 0.8, nu = (tau - 0.5) / 3.0, u_max = 0.02;
  PhysicsParams p = periodic_params(Collision::TRT, tau);
  p.faces[2] = p.faces[3] = FaceBC::Wall;
  const double g = 8.0 * nu * u_max / (double(H) * H);
  p.body_force[0] = g;
  const int nx = 2 * H;
  // Across the flow: a box in the middle (the middle half of the length and of the height: interfaces across and
  // along the flow, and their corners). Along it: the lower half of the height, from the wall, the full length.
  const RefinedBox b = across ? box(H / 2, H / 2 + H, H / 4, H - H / 4) : box(0, nx, 0, H / 2);
  RefinedLevels r(test_backend(), config(Stencil::D2Q9), fluid_grid(nx, H), p, {b});
  r.initialize();
  r.run(std::int64_t(25.0 * H * H / (M_PI * M_PI * nu)));  // the slowest mode decayed to e^-25
  double err = 0;
  for (int l = 0; l < r.levels(); ++l) {
    std::vector<float> rho, u;
    r.backend(l).macroscopic(rho, u);
    const DomainData& d = r.domain(l);
    for (std::int64_t n = 0; n < d.cells(); ++n) {
      if (!r.owned(l, n)) continue;
      const double y = (double((n / d.nx) % d.ny + d.origin[1]) + 0.5) / double(1 << l);  // level-0 cells
      err = std::max(err, std::abs(double(u[3 * n]) - g / (2 * nu) * y * (H - y)) / u_max);
    }
  }
  return err;
}

TEST(Refinement, PoiseuilleAlongAnInterfaceIsExact) {
  SKIP_FP64_ON_CUDA();
  // The interface parallel to the walls carries the shear stress across it: the parabola stays exact (float
  // round-off of the macroscopic output) on both levels.
  for (int H : {8, 16}) {
    const double e = refined_channel(H, false);
    std::printf("Poiseuille, interface along the flow, H = %d: max error / u_max %.3e\n", H, e);
    EXPECT_LT(e, 2e-6) << "H = " << H;
  }
}

TEST(Refinement, PoiseuilleThroughABoxConverges) {
  SKIP_FP64_ON_CUDA();
  // Measured (2026-12-07): 8.90e-3, 2.98e-3, 1.33e-3 at H = 8, 16, 32 (orders 1.6, 1.2), the largest errors beside
  // the box's corners; before a corner's diagonal crossings that the coarse level streams itself were credited by
  // half (the same day) 1.65e-2, 7.13e-3, 3.49e-3, first order (docs/grid_refinement.md).
  double e[3];
  const int H[3] = {8, 16, 32};
  for (int k = 0; k < 3; ++k) e[k] = refined_channel(H[k], true);
  const double o1 = std::log2(e[0] / e[1]), o2 = std::log2(e[1] / e[2]);
  std::printf("Poiseuille through a box: max error / u_max H=8,16,32: %.3e %.3e %.3e (orders %.2f %.2f)\n", e[0], e[1],
              e[2], o1, o2);
  EXPECT_LT(e[2], 2e-3);
  EXPECT_GT(o1, 1.0);
  EXPECT_GT(o2, 1.0);
}

// A periodic flow with an analytic solution on an N² grid, sampled at (x, y) in level-0 cells and time t in coarse
// steps: density, velocity and velocity gradient (g[a][b] = ∂_a u_b per level-0 cell).
struct FlowState {
  double rho = 1, u = 0, v = 0;
  double g[2][2] = {{0, 0}, {0, 0}};
};
using Flow = std::function<FlowState(double x, double y, double t)>;

// Runs `flow` for `steps` coarse steps across refined boxes (`layout` 0: a slab spanning y, two interfaces across
// the flow in x; 1: a box in the middle; 2: no refinement), started on every level from its equilibrium and its
// first-order post-collision non-equilibrium part (so that no initial layer hides the interfaces' error): the
// relative L2 error of the velocity over the own cells of every level, each weighted by its volume.
// `after`, when given, sees the levels after the run.
double periodic_flow_error(int N, int layout, Collision collision, double tau, const Flow& flow, std::int64_t steps,
                           const std::function<void(RefinedLevels&)>& after = {}) {
  PhysicsParams p = periodic_params(collision, tau);
  std::vector<RefinedBox> boxes;
  if (layout == 0) boxes.push_back(box(N / 4, 3 * N / 4, 0, N));
  if (layout == 1) boxes.push_back(box(N / 4, 3 * N / 4, N / 4, 3 * N / 4));
  RefinedLevels r(test_backend(), config(Stencil::D2Q9), fluid_grid(N, N), p, boxes);
  r.initialize();
  const double w[9] = {4. / 9, 1. / 9, 1. / 9, 1. / 9, 1. / 9, 1. / 36, 1. / 36, 1. / 36, 1. / 36};
  const int cx[9] = {0, 1, -1, 0, 0, 1, -1, 1, -1};
  const int cy[9] = {0, 0, 0, 1, -1, 1, -1, -1, 1};
  auto at = [&](const DomainData& d, std::int64_t n, int l, double& x, double& y) {
    x = (double(n % d.nx + d.origin[0]) + 0.5) / double(1 << l);
    y = (double((n / d.nx) % d.ny + d.origin[1]) + 0.5) / double(1 << l);
  };
  for (int l = 0; l < r.levels(); ++l) {
    const DomainData& d = r.domain(l);
    const double tl = r.params(l).tau, per = 1.0 / double(1 << l);  // gradients per cell of level l
    std::vector<double> f(9 * std::size_t(d.cells()));
    for (std::int64_t n = 0; n < d.cells(); ++n) {
      double x, y;
      at(d, n, l, x, y);
      const FlowState s = flow(x, y, 0);
      for (int i = 0; i < 9; ++i) {
        const double cu = cx[i] * s.u + cy[i] * s.v, c[2] = {double(cx[i]), double(cy[i])};
        double cc = 0;
        for (int a = 0; a < 2; ++a)
          for (int b = 0; b < 2; ++b) cc += c[a] * c[b] * s.g[a][b] * per;
        f[std::size_t(i) * std::size_t(d.cells()) + std::size_t(n)] =
            w[i] * (s.rho - 1) + w[i] * s.rho * (3 * cu + 4.5 * cu * cu - 1.5 * (s.u * s.u + s.v * s.v)) -
            3 * w[i] * (tl - 1) * s.rho * cc;
      }
    }
    r.backend(l).write_populations(f);
  }
  r.states_written();
  r.run(steps);
  if (after) after(r);
  double num = 0, den = 0;
  for (int l = 0; l < r.levels(); ++l) {
    std::vector<float> rho, u;
    r.backend(l).macroscopic(rho, u);
    const DomainData& d = r.domain(l);
    const double volume = 1.0 / double(1 << (2 * l));
    for (std::int64_t n = 0; n < d.cells(); ++n) {
      if (!r.owned(l, n)) continue;
      double x, y;
      at(d, n, l, x, y);
      const FlowState e = flow(x, y, double(steps));
      num += volume * (std::pow(double(u[3 * n]) - e.u, 2) + std::pow(double(u[3 * n + 1]) - e.v, 2));
      den += volume * (e.u * e.u + e.v * e.v);
    }
  }
  return std::sqrt(num / den);
}

// A shear wave, decaying as exp(−ν k² t), run to e^(−½): u_x = A sin(2π y/N) (`across` false: the slab's
// interfaces see it vary along them, the flow crossing them), or v = A sin(2π x/N) (true: it varies across them,
// along their normal, and flows along them); with `diagonal`, along the diagonal: u = (A/√2) sin(2π (x + y)/N)
// (1, −1), a pure normal strain (∂x u = −∂y v, ∂y u + ∂x v = 0) that varies across and along the interfaces.
double shear_wave(int N, int layout, Collision collision, double tau, bool across = false,
                  bool diagonal = false) {
  const double nu = (tau - 0.5) / 3.0, A = 0.01, kw = 2 * M_PI / N, k2 = diagonal ? 2 * kw * kw : kw * kw;
  const Flow wave = [=](double x, double y, double t) {
    const double a = A * std::exp(-nu * k2 * t);
    FlowState s;
    if (diagonal) {
      const double b = a / std::sqrt(2.0), sn = std::sin(kw * (x + y)), cs = kw * std::cos(kw * (x + y));
      s.u = b * sn;
      s.v = -b * sn;
      s.g[0][0] = s.g[1][0] = b * cs;   // ∂x u, ∂y u
      s.g[0][1] = s.g[1][1] = -b * cs;  // ∂x v, ∂y v
    } else if (across) {
      s.v = a * std::sin(kw * x);
      s.g[0][1] = a * kw * std::cos(kw * x);
    } else {
      s.u = a * std::sin(kw * y);
      s.g[1][0] = a * kw * std::cos(kw * y);
    }
    return s;
  };
  return periodic_flow_error(N, layout, collision, tau, wave, std::int64_t(0.5 / (nu * k2)));
}

// A periodic flow's error at N = 16, 32, 64 for each layout (a slab across x, a box, no refinement), printed; the
// error at N = 64 under `limit` and the order between 32 and 64 above `order`, per layout.
void expect_convergence(const char* flow, const std::function<double(int N, int layout)>& error,
                        const std::array<double, 3>& limit, const std::array<double, 3>& order) {
  const char* names[3] = {"slab", "box", "uniform"};
  for (int layout : {0, 1, 2}) {
    double e[3];
    const int N[3] = {16, 32, 64};
    for (int k = 0; k < 3; ++k) e[k] = error(N[k], layout);
    const double o = std::log2(e[1] / e[2]);
    std::printf("%s, %s: relative L2 N=16,32,64: %.3e %.3e %.3e (order %.2f, %.2f)\n", flow, names[layout], e[0],
                e[1], e[2], std::log2(e[0] / e[1]), o);
    EXPECT_LT(e[2], limit[std::size_t(layout)]) << names[layout];
    EXPECT_GT(o, order[std::size_t(layout)]) << names[layout];
  }
}

TEST(Refinement, ShearWaveAcrossInterfacesConverges) {
  SKIP_FP64_ON_CUDA();
  // Measured (2026-12-07), TRT τ = 0.8, N = 16, 32, 64: slab 4.62e-3, 1.03e-3, 3.01e-4 (order 2.2, 1.8); box
  // 2.75e-3, 6.26e-4, 1.78e-4 (2.1, 1.8); the uniform grid 8.47e-4, 2.21e-4, 5.60e-5 (second order). With every
  // crossing centred on t and no exchange along the ring (2026-12-05): slab 4.54e-3, 1.14e-3, 4.31e-4, box
  // 5.03e-3, 2.11e-3, 9.76e-4 (1.3, 1.1); centred on t + ¼ without the exchange: slab 9.11e-3, 3.70e-3, 1.75e-3
  // (docs/grid_refinement.md).
  expect_convergence("shear wave", [](int N, int layout) { return shear_wave(N, layout, Collision::TRT, 0.8); },
                     {6e-4, 4e-4, 1e-4}, {1.6, 1.6, 1.9});
}

// Near τ = ½ the interfaces' own damping of what varies along them (the coalescence's mean over children) is what
// is left once the physical viscosity is small; the exchange along the ring (kernels/physics/refinement.hpp) takes
// it back without going unstable. Measured (2026-12-07), N = 16, 32, 64, at N = 64: τ = 0.505 slab 1.27e-2 (order
// 1.86), box 4.79e-2; τ = 0.52 slab 2.35e-3, box 1.75e-3 (order 1.34). Without the exchange (and with the axes'
// crossings centred on t): τ = 0.505 slab 1.0e-1, box 5.6e-2; τ = 0.52 slab 2.35e-2, box 1.1e-2
// (docs/grid_refinement.md); with it taken from the neighbouring ring cells instead of those two away, τ = 0.505
// diverged.
TEST(Refinement, ShearWaveAtLowViscosityConverges) {
  SKIP_FP64_ON_CUDA();
  const double limit[2][2] = {{2.5e-2, 8e-2}, {5e-3, 5e-3}};  // [τ][slab, box] at N = 64
  const double taus[2] = {0.505, 0.52};
  for (int k_tau = 0; k_tau < 2; ++k_tau) {
    const int N[3] = {16, 32, 64};
    for (int layout : {0, 1}) {
      double e[3];
      for (int k = 0; k < 3; ++k) e[k] = shear_wave(N[k], layout, Collision::TRT, taus[k_tau]);
      std::printf("shear wave, tau %.3f, %s: relative L2 N=16,32,64: %.3e %.3e %.3e (order %.2f, %.2f)\n",
                  taus[k_tau], layout ? "box" : "slab", e[0], e[1], e[2], std::log2(e[0] / e[1]),
                  std::log2(e[1] / e[2]));
      EXPECT_LT(e[2], limit[k_tau][layout]) << "tau " << taus[k_tau] << (layout ? ", box" : ", slab");
      EXPECT_LT(e[2], e[1]) << "tau " << taus[k_tau] << (layout ? ", box" : ", slab");
    }
  }
}

TEST(Refinement, TransverseShearWaveConvergesAtSecondOrder) {
  SKIP_FP64_ON_CUDA();
  // v = A sin(2π x/N): the wave varies across the slab's interfaces and flows along them. Measured (2026-12-07),
  // TRT, N = 16, 32, 64, slab / uniform: τ = 0.6 1.79e-3, 4.56e-4, 1.14e-4 / 2.86e-3, 7.33e-4, 1.84e-4; τ = 0.8
  // 6.06e-4, 1.53e-4, 3.83e-5 / 8.47e-4, 2.21e-4, 5.60e-5; τ = 1.0 4.26e-3, 1.09e-3, 2.77e-4 / 3.06e-3, 7.90e-4,
  // 2.00e-4. With every crossing centred on the coarse state's time t (as before this test) the slab converged at
  // first order: 1.45e-3, 1.32e-3, 1.08e-3 at N = 64 (docs/grid_refinement.md).
  for (double tau : {0.6, 0.8, 1.0}) {
    double slab[3], uniform[3];
    const int N[3] = {16, 32, 64};
    for (int k = 0; k < 3; ++k) {
      slab[k] = shear_wave(N[k], 0, Collision::TRT, tau, true);
      uniform[k] = shear_wave(N[k], 2, Collision::TRT, tau, true);
    }
    const double o1 = std::log2(slab[0] / slab[1]), o2 = std::log2(slab[1] / slab[2]);
    std::printf("transverse shear wave, tau %.1f: slab relative L2 N=16,32,64: %.3e %.3e %.3e (order %.2f, %.2f); "
                "uniform %.3e %.3e %.3e\n",
                tau, slab[0], slab[1], slab[2], o1, o2, uniform[0], uniform[1], uniform[2]);
    EXPECT_GT(o1, 1.85) << "tau " << tau;
    EXPECT_GT(o2, 1.85) << "tau " << tau;
    EXPECT_LT(slab[2], 2.0 * uniform[2]) << "tau " << tau;
  }
}

// The Taylor–Green vortex below is, in the linear limit, two shear waves along the diagonals; one of them alone shows
// its first order in the slab (the error right at the interfaces at once, then spread over both levels as pressure
// waves). The wave is a pure normal strain, which the populations along the interface's normal carry there (the
// axis-aligned waves above carry none on them); docs/grid_refinement.md has the analysis. Measured (2026-12-07), TRT
// τ = 0.8, N = 16, 32, 64: slab 9.04e-3, 1.71e-3, 7.06e-4 (order 1.28 on the last pair), box 1.10e-2, 4.15e-3, 2.07e-3;
// uniform 4.65e-5, 3.86e-5, 1.12e-5; at τ = 1.0 the slab is second order (1.17e-2, 2.90e-3, 7.35e-4), at τ = 0.6 first
// (1.01e-2, 4.47e-3, 1.90e-3).
TEST(Refinement, DiagonalShearWaveAcrossASlab) {
  SKIP_FP64_ON_CUDA();
  double e[3];
  const int N[3] = {16, 32, 64};
  for (int k = 0; k < 3; ++k) e[k] = shear_wave(N[k], 0, Collision::TRT, 0.8, false, true);
  const double o = std::log2(e[1] / e[2]);
  std::printf("diagonal shear wave, slab: relative L2 N=16,32,64: %.3e %.3e %.3e (order %.2f, %.2f)\n", e[0], e[1],
              e[2], std::log2(e[0] / e[1]), o);
  EXPECT_LT(e[2], 1e-3);
  EXPECT_GT(o, 1.1);
}

// The decaying Taylor–Green vortex u = A sin(kx) cos(ky), v = −A cos(kx) sin(ky), with the pressure that balances
// it, run to e^(−½) in diffusive scaling (A ∝ 1/N: the lattice Mach number falls with the cell size, τ stays).
// The vortex of taylor_green below on an N² grid.
Flow taylor_green_flow(int N, double tau) {
  const double nu = (tau - 0.5) / 3.0, A = 0.16 / N, kw = 2 * M_PI / N;
  return [=](double x, double y, double t) {
    const double a = A * std::exp(-2 * nu * kw * kw * t);
    const double sx = std::sin(kw * x), cx = std::cos(kw * x), sy = std::sin(kw * y), cy = std::cos(kw * y);
    FlowState s;
    s.u = a * sx * cy;
    s.v = -a * cx * sy;
    // p = (a²/4)(cos 2kx + cos 2ky) balances u·∇u; ρ = 1 + 3 p.
    s.rho = 1 + 3 * a * a / 4 * (std::cos(2 * kw * x) + std::cos(2 * kw * y));
    s.g[0][0] = a * kw * cx * cy;   // ∂x u
    s.g[0][1] = a * kw * sx * sy;   // ∂x v
    s.g[1][0] = -a * kw * sx * sy;  // ∂y u
    s.g[1][1] = -a * kw * cx * cy;  // ∂y v
    return s;
  };
}

double taylor_green(int N, int layout, const std::function<void(RefinedLevels&)>& after = {}) {
  const double tau = 0.8, nu = (tau - 0.5) / 3.0, kw = 2 * M_PI / N;
  return periodic_flow_error(N, layout, Collision::TRT, tau, taylor_green_flow(N, tau),
                             std::int64_t(0.5 / (2 * nu * kw * kw)), after);
}

TEST(Refinement, TaylorGreenAcrossInterfacesConverges) {
  SKIP_FP64_ON_CUDA();
  // Measured (2026-12-07), TRT τ = 0.8, N = 16, 32, 64: slab 1.18e-2, 2.08e-3, 9.48e-4; box 1.06e-2, 2.87e-3, 1.33e-3
  // (1.32e-2, 4.68e-3, 2.36e-3 before the corner crediting of the same day); the uniform grid 1.43e-4, 1.66e-4, 4.93e-5
  // (2026-12-05, every crossing centred on t, no exchange along the ring: slab 1.18e-2, 3.81e-3, 1.96e-3; box 1.17e-2,
  // 5.02e-3, 2.59e-3). The vortex crosses the interfaces in every direction: the refined runs converge at about first
  // order, 19 (slab) and 27 (box) times the uniform grid's error at N = 64 — the second order the issue asks for is not
  // reached here yet (docs/grid_refinement.md).
  expect_convergence("Taylor-Green", [](int N, int layout) { return taylor_green(N, layout); }, {3e-3, 2e-3, 1e-4},
                     {0.8, 0.8, 1.5});
}

// A refined level's frames (RefinedLevels::level_fields_transfer) hold its whole grid, the band of two cells around
// its box included. The band's populations are only those its own cells read, so its own density and velocity are
// partial sums; the frames give it the coarser level's fields interpolated there instead, and the vortex's
// velocity there is then as close to the analytic one as on the level's own cells (it was 0 in the outer layer and
// about half the flow's in the inner one before, and the own cells' vorticity next to it differenced those).
TEST(Refinement, FramesOfALevelShowTheFlowInItsBand) {
  SKIP_FP64_ON_CUDA();
  const int N = 32;
  const double tau = 0.8, nu = (tau - 0.5) / 3.0, kw = 2 * M_PI / N;
  const std::int64_t steps = std::int64_t(0.5 / (2 * nu * kw * kw));
  const Flow flow = taylor_green_flow(N, tau);
  double band_err = 0, own_err = 0, scale = 0;
  std::int64_t band_cells = 0;
  taylor_green(N, 1, [&](RefinedLevels& r) {
    ASSERT_EQ(r.levels(), 2);
    const DomainData& d = r.domain(1);
    const auto t = r.level_fields_transfer(1);
    t->wait();
    for (std::int64_t n = 0; n < d.cells(); ++n) {
      const double x = (double(n % d.nx + d.origin[0]) + 0.5) / 2, y = (double(n / d.nx + d.origin[1]) + 0.5) / 2;
      const FlowState e = flow(x, y, double(steps));
      const double err = std::hypot(double(t->u()[3 * n]) - e.u, double(t->u()[3 * n + 1]) - e.v);
      scale = std::max(scale, std::hypot(e.u, e.v));
      const bool band = !r.owned(1, n);
      (band ? band_err : own_err) = std::max(band ? band_err : own_err, err);
      band_cells += band;
    }
  });
  std::printf("level 1 of the vortex at N = %d: largest velocity error / largest speed, own cells %.3e, band (%lld "
              "cells) %.3e\n", N, own_err / scale, (long long)band_cells, band_err / scale);
  EXPECT_EQ(band_cells, (32 + 4) * (32 + 4) - 32 * 32);  // a box of 16² level-0 cells, 32² of its own
  EXPECT_LT(band_err, 2 * own_err);
  EXPECT_LT(band_err / scale, 2e-2);
}

TEST(Refinement, RefusesWhatItDoesNotRefineYet) {
  PhysicsParams p = periodic_params(Collision::BGK, 0.7);
  p.faces[2] = p.faces[3] = FaceBC::Wall;
  // A box on the wall with interfaces across the flow: the band would meet the wall (a free-slip face is fine:
  // BoxOnASymmetryFaceHandsOverWhatTheMirroredDomainDoes).
  EXPECT_THROW(RefinedLevels(BackendKind::Cpu, config(Stencil::D2Q9), fluid_grid(32, 16), p, {box(8, 24, 0, 8)}),
               std::invalid_argument);
  // A band over the periodic seam, a box one cell from the wall, fp16s storage on the CPU backend (which has none).
  EXPECT_THROW(RefinedLevels(BackendKind::Cpu, config(Stencil::D2Q9), fluid_grid(32, 16), p, {box(0, 16, 4, 12)}),
               std::invalid_argument);
  EXPECT_THROW(RefinedLevels(BackendKind::Cpu, config(Stencil::D2Q9), fluid_grid(32, 16), p, {box(8, 24, 1, 12)}),
               std::invalid_argument);
  EXPECT_THROW(RefinedLevels(BackendKind::Cpu, config(Stencil::D2Q9, Precision::FP16S), fluid_grid(32, 16), p,
                             {box(8, 24, 4, 12)}),
               BackendUnavailable);
  // And the one that is fine.
  EXPECT_NO_THROW(RefinedLevels(BackendKind::Cpu, config(Stencil::D2Q9), fluid_grid(32, 16), p, {box(8, 24, 4, 12)}));
}

// The default airfoil (NACA 0012, Re 1000, 5°) with refined boxes around the body, each level's cells from the
// domain built at its resolution (the body voxelised there, its forces summed over the levels), against the
// uniform grid at the finest resolution. Coefficients averaged over 4 convective times after 12.
struct AirfoilRun {
  double cd = 0, cl = 0;
  std::int64_t cells = 0;
};

// The default case at `chord` cells per chord, refined by `boxes` (refinement.boxes, empty: none) or by a band of
// `band_levels` levels and `band_thickness` (refinement.band), through the path `aerolbm run` takes (load_case,
// assemble_solver): 12 convective times, then the mean of 40 samples over 4.
AirfoilRun airfoil(int chord, const std::string& boxes = "", int band_levels = 0, double band_thickness = 0) {
  std::vector<std::string> sets = {"geometry.chord_cells=" + std::to_string(chord)};
  if (!boxes.empty()) sets.push_back("refinement.boxes=" + boxes);
  if (band_levels > 0) {
    sets.push_back("refinement.band.levels=" + std::to_string(band_levels));
    sets.push_back("refinement.band.thickness=" + std::to_string(band_thickness));
  }
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml", sets);
  const std::int64_t per = s.u.steps_per_convective_time;
  s.backend->run(12 * per);
  AirfoilRun a;
  const int samples = 40;
  for (int k = 0; k < samples; ++k) {
    s.backend->run(per / 10);
    const auto C = s.coefficients();
    a.cd += C[0] / samples;
    a.cl += C[1] / samples;
  }
  if (const auto* r = dynamic_cast<const RefinedLevels*>(s.backend.get()))
    for (int l = 0; l < r->levels(); ++l) a.cells += r->domain(l).cells();
  else
    a.cells = s.d.cells();
  return a;
}

// A refined run's C_D and C_L within 1 % of the uniform grid at its finest resolution, with `fewer` times fewer
// cells or more; `what` names it in the log and in failures.
void expect_like_fine(const AirfoilRun& refined, const AirfoilRun& fine, int fewer, const char* what) {
  std::printf("NACA 0012 Re 1000 5 deg: %s (%lld cells) C_D %.5f C_L %.5f\n", what, (long long)refined.cells,
              refined.cd, refined.cl);
  EXPECT_NEAR(refined.cd, fine.cd, 0.01 * fine.cd) << what;
  EXPECT_NEAR(refined.cl, fine.cl, 0.01 * fine.cl) << what;
  EXPECT_LT(fewer * refined.cells, fine.cells) << what;
}

TEST(Refinement, AirfoilInARefinedBoxMatchesTheFineGrid) {
  // 32 cells per chord with a box at 64 around the body and its near wake (refinement.boxes from half a chord
  // ahead of the quarter chord to 1.5 behind it, half a chord above and below) against 64 everywhere; and against
  // 32 everywhere, which the box must beat by far. Measured (CPU fp32, 2026-12-05): C_D 0.1354, C_L 0.2438 against
  // 0.1352, 0.2427 (+0.2 %, +0.5 %) with 60 k cells against 205 k; 32 everywhere: 0.1441, 0.2188.
  const AirfoilRun refined = airfoil(32, "[[-0.5, -0.5, 1.5, 0.5]]");
  const AirfoilRun fine = airfoil(64), coarse = airfoil(32);
  std::printf("NACA 0012 Re 1000 5 deg: uniform 64 (%lld cells) C_D %.5f C_L %.5f; uniform 32 (%lld) %.5f %.5f\n",
              (long long)fine.cells, fine.cd, fine.cl, (long long)coarse.cells, coarse.cd, coarse.cl);
  expect_like_fine(refined, fine, 3, "refined (32 + box at 64)");
  EXPECT_GT(std::abs(coarse.cl - fine.cl), 5 * std::abs(refined.cl - fine.cl));
  // The same refinement from the case's band instead of a box (refinement.band: the body's bounding box grown by
  // half a chord, no wake box). Measured (CPU fp32, 2026-12-05): C_D 0.1355, C_L 0.2447 (+0.2 %, +0.8 %) with 61 k
  // cells; a quarter chord: 0.1361, 0.2478 (+0.7 %, +2.1 %).
  expect_like_fine(airfoil(32, "", 1, 0.5), fine, 3, "band (32 + 64 within half a chord of the body)");
}

// `aerolbm run` of `c` into a fresh temporary folder (its name `name`), which the caller reads and removes.
std::filesystem::path run_in_temp(const Case& c, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "aerolbm_validation" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  RunOptions opt;
  opt.solver.backend = test_backend();
  opt.output_dir = dir;
  opt.progress = false;
  Simulation sim(c, lattice_units(c), make_body(c), opt);
  sim.run();
  return dir;
}

// A sweep (aerolbm sweep: run_averaged, no run folder) of a refined case: its coefficients are those `aerolbm run`
// reports for the same case, the pitching moment included (taken on the level that holds the body, in its units).
// It failed before 2026-12-07 ("per-cell forces do not match the wall rows": level 0's rows for the body level's
// forces).
TEST(Refinement, SweepRunOfARefinedCaseGivesTheRunsCoefficients) {
  const Case c = load_case(cases_dir() / "naca0012_re1000_aoa5.yaml",
                           {"geometry.chord_cells=16", "physics.reynolds=400",
                            "refinement.boxes=[[-0.5, -0.5, 1.5, 0.5]]", "time.convective_times=3", "time.average_last=1", "forces.every=20", "output.every=0",
                            "checkpoint.every=0"});
  const LatticeUnits u = lattice_units(c);
  RunOptions opt;
  opt.solver.backend = test_backend();
  opt.output_dir = std::filesystem::temp_directory_path() / "aerolbm_validation" / "sweep_refined_run";
  std::filesystem::remove_all(opt.output_dir);
  std::filesystem::create_directories(opt.output_dir);
  opt.progress = false;
  const RunResult run = Simulation(c, u, make_body(c), opt).run();
  std::filesystem::remove_all(opt.output_dir);
  AveragedRunOptions ao;
  ao.backend = test_backend();
  const auto body = make_body(c);
  const AveragedRun sweep = run_averaged(c, u, body.get(), ao);
  std::printf("refined case, run: C_D %.9f C_L %.9f C_m %.9f; sweep: %.9f %.9f %.9f\n", run.cd_mean, run.cl_mean,
              run.cpitch_mean.value_or(std::nan("")), sweep.cd_mean, sweep.cl_mean, sweep.cpitch_mean);
  ASSERT_TRUE(run.cpitch_mean.has_value());
  EXPECT_NEAR(sweep.cd_mean, run.cd_mean, 1e-9 * std::abs(run.cd_mean));
  EXPECT_NEAR(sweep.cl_mean, run.cl_mean, 1e-9 * std::abs(run.cl_mean));
  EXPECT_NEAR(sweep.cpitch_mean, *run.cpitch_mean, 1e-9);
  EXPECT_GT(sweep.cl_mean, 0.1);
  EXPECT_EQ(sweep.rho.size(), std::size_t(sweep.domain.cells()));  // level 0's mean fields
}

// The surface table of `aerolbm run` (x, y, Cp, Cf per outline point) after 12 convective times, one frame at
// the end, from the default case at `chord` cells per chord with `boxes` (refinement.boxes, empty: none).
std::vector<std::array<double, 4>> surface_after_run(int chord, const std::string& boxes, const std::string& name) {
  std::vector<std::string> sets = {"geometry.chord_cells=" + std::to_string(chord), "time.convective_times=12",
                                   "time.average_last=2", "output.formats=[vtk]", "checkpoint.every=0"};
  if (!boxes.empty()) sets.push_back("refinement.boxes=" + boxes);
  const Case c0 = load_case(cases_dir() / "naca0012_re1000_aoa5.yaml", sets);
  const LatticeUnits u0 = lattice_units(c0);
  sets.push_back("output.every=" + std::to_string(u0.total_steps));
  const auto dir = run_in_temp(load_case(cases_dir() / "naca0012_re1000_aoa5.yaml", sets), name);
  std::filesystem::path last;  // the last frame's table (surface_NNNNNN.csv)
  for (const auto& e : std::filesystem::directory_iterator(dir / "surface"))
    if (last.empty() || e.path().filename() > last.filename()) last = e.path();
  std::ifstream in(last);
  std::vector<std::array<double, 4>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 'x') continue;
    double v[8];
    if (std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                    &v[7]) == 8)
      out.push_back({v[0], v[1], v[4], v[5]});
  }
  std::filesystem::remove_all(dir);
  return out;
}

TEST(Refinement, SurfaceOfARefinedAirfoilMatchesTheFineGrid) {
  // The surface output of a refined run comes from the finest level that holds the body, at its resolution: 32
  // cells per chord with a box at 64 against 64 everywhere, at the same outline points. Measured (CPU fp32,
  // 2026-12-05): Cp from -0.853 to 1.075 in both, max |ΔCp| 0.0028, max |ΔCf| 1.6e-4 (Cf up to 0.127); level 0's
  // grid at 32 alone would put the probes twice as far out.
  const auto refined = surface_after_run(32, "[[-0.5, -0.5, 1.5, 0.5]]", "surface_refined");
  const auto fine = surface_after_run(64, "", "surface_fine");
  ASSERT_EQ(refined.size(), fine.size());
  ASSERT_GT(refined.size(), 100u);
  double dcp = 0, dcf = 0, cp_max = -1e9, cf_max = 0;
  for (std::size_t p = 0; p < refined.size(); ++p) {
    ASSERT_NEAR(refined[p][0], fine[p][0], 1e-9);
    ASSERT_NEAR(refined[p][1], fine[p][1], 1e-9);
    dcp = std::max(dcp, std::abs(refined[p][2] - fine[p][2]));
    dcf = std::max(dcf, std::abs(refined[p][3] - fine[p][3]));
    cp_max = std::max(cp_max, fine[p][2]);
    cf_max = std::max(cf_max, fine[p][3]);
  }
  std::printf("surface, refined (32 + box at 64) against uniform 64: max |dCp| %.2e (Cp max %.3f), max |dCf| %.2e "
              "(Cf max %.4f)\n", dcp, cp_max, dcf, cf_max);
  EXPECT_GT(cp_max, 0.9);  // the stagnation point is there
  EXPECT_LT(dcp, 0.01);
  EXPECT_LT(dcf, 0.01 * cf_max);
}

// The last row of forces.csv after `steps` steps of the CI STL body at `cells` cells per reference length, refined
// by `boxes` (empty: none): Fx, Fy, Fz, Cd, Cl, Cs, Cd_pressure, Cd_friction, Mx, My, Mz, Croll, Cyaw, Cpitch.
// The last row of forces.csv (after the step and time) of cases/ci/`file` at `cells` per reference length
// (`resolution`: the case's key for it) after `steps` steps, refined by `boxes` (none: "").
std::vector<double> forces_after(const std::string& file, const std::string& resolution, int cells, int steps,
                                 const std::string& boxes, const std::string& name) {
  std::vector<std::string> sets = {resolution + "=" + std::to_string(cells), "time.steps=" + std::to_string(steps),
                                   "output.every=0", "checkpoint.every=0"};
  if (!boxes.empty()) sets.push_back("refinement.boxes=" + boxes);
  const auto dir = run_in_temp(load_case(cases_dir() / "ci" / file, sets), name);
  std::ifstream in(dir / "forces.csv");
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#' && line[0] != 's') last = line;
  std::vector<double> v;
  std::size_t at = last.find(',');  // after the step
  at = last.find(',', at + 1);      // after the time
  while (at != std::string::npos) {
    v.push_back(std::strtod(last.c_str() + at + 1, nullptr));
    at = last.find(',', at + 1);
  }
  std::filesystem::remove_all(dir);
  return v;
}

TEST(Refinement, BodyInARefinedBox3DGivesTheFineGridsForcesAndMoments) {
  // A 3D body (the CI STL body) at 16 cells per reference length with a box at 32 around it, against 32
  // everywhere, at the same time (200 coarse steps, 400 fine): the loads come from the per-cell forces of the level
  // holding the body, in its units and grid, brought back to level 0's (a wrong scale would be off by 2 to 8
  // times). Measured (CPU fp32, 2026-12-05): C_D 6.4584 against 6.4023 (+0.9 %), C_L 0.43595 against 0.42652
  // (+2.2 %), C_pitch 0.07341 against 0.07256, Fx 0.12979 against 0.12866, Mz -0.02361 against -0.02333 (level 0's
  // units); still in the start-up (t = 0.72), where the two grids differ most: at 300 and 600 steps C_D 5.3088
  // against 5.3033 (+0.1 %), C_L 0.28903 against 0.28438.
  const std::vector<double> refined = forces_after("stl_example.yaml", "geometry.reference_cells", 16, 200,
                                                   "[[-0.8, -0.6, -0.6, 1.6, 0.6, 0.6]]", "stl_refined");
  const std::vector<double> fine =
      forces_after("stl_example.yaml", "geometry.reference_cells", 32, 400, "", "stl_fine");
  ASSERT_EQ(refined.size(), 14u);
  ASSERT_EQ(fine.size(), 14u);
  std::printf("STL body, refined (16 + box at 32) against uniform 32: C_D %.4f / %.4f, C_L %.5f / %.5f, C_pitch "
              "%.5f / %.5f, Fx %.5f / %.5f (x 1/4), Mz %.5f / %.5f (x 1/8)\n", refined[3], fine[3], refined[4],
              fine[4], refined[13], fine[13], refined[0], fine[0] / 4, refined[10], fine[10] / 8);
  EXPECT_NEAR(refined[3], fine[3], 0.02 * std::abs(fine[3]));     // C_D
  EXPECT_NEAR(refined[4], fine[4], 0.03 * std::abs(fine[4]));     // C_L
  EXPECT_NEAR(refined[13], fine[13], 0.03 * std::abs(fine[13]));  // C_pitch
  EXPECT_NEAR(refined[0], fine[0] / 4, 0.02 * std::abs(fine[0] / 4));     // Fx in level 0's units
  EXPECT_NEAR(refined[10], fine[10] / 8, 0.03 * std::abs(fine[10] / 8));  // Mz in level 0's units
}

TEST(Refinement, CheckPlansTheLevelsARunBuilds) {
  // `aerolbm check` plans the levels (plan_case_levels: grids, bands and hand-over tables, no backend, no lattice);
  // a run builds them with their backends (make_case_backend). Both must give every level the same grid, and
  // refuse the same boxes.
  const Case c = load_case(cases_dir() / "naca0012_re1000_aoa5_refined.yaml");
  const LatticeUnits u = lattice_units(c);
  const auto body = make_body(c);
  const DomainData d = build_domain(c, u, body.get());
  const PhysicsParams p = physics_params(c, u);
  const auto plan = plan_case_levels(backend_config(c, 1), c, u, d, p);
  const auto built = make_case_backend(BackendKind::Cpu, backend_config(c, 1), c, u, d, p);
  const auto& r = dynamic_cast<const RefinedLevels&>(*built);
  ASSERT_EQ(plan->levels(), 3);
  ASSERT_EQ(plan->levels(), r.levels());
  EXPECT_EQ(plan->cell_updates_per_step(), r.cell_updates_per_step());
  for (int l = 0; l < r.levels(); ++l) {
    const DomainData& a = plan->domain(l);
    const DomainData& b = r.domain(l);
    EXPECT_EQ(a.nx, b.nx) << "level " << l;
    EXPECT_EQ(a.ny, b.ny) << "level " << l;
    EXPECT_EQ(a.nz, b.nz) << "level " << l;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(a.origin[k], b.origin[k]) << "level " << l;
    EXPECT_EQ(a.flags, b.flags) << "level " << l;
    EXPECT_EQ(a.wall_cells, b.wall_cells) << "level " << l;
  }
  const Case bad = load_case(cases_dir() / "naca0012_re1000_aoa5.yaml", {"refinement.boxes=[[0,-0.1,1,0.1]]"});
  const LatticeUnits ub = lattice_units(bad);
  const auto bad_body = make_body(bad);
  const DomainData db = build_domain(bad, ub, bad_body.get());
  EXPECT_THROW(plan_case_levels(backend_config(bad, 1), bad, ub, db, physics_params(bad, ub)), CaseError);
  EXPECT_THROW(make_case_backend(BackendKind::Cpu, backend_config(bad, 1), bad, ub, db, physics_params(bad, ub)),
               CaseError);
}

TEST(Refinement, HalfWingInABoxOnItsSymmetryPlaneGivesTheFineGridsForces) {
  // The CI half wing (NACA 0012, aspect ratio 4, 5°) at 16 cells per chord with a box at 32 around it that lies on
  // the symmetry plane (its interfaces across x, y and the span end there), against 32 everywhere, at the same time
  // (200 coarse steps, 400 fine), as in the test above.
  const std::string box = "[[-0.6, -0.5, 0.0, 1.6, 0.5, 2.4]]";
  const std::vector<double> refined =
      forces_after("wing_naca0012_ar4.yaml", "geometry.chord_cells", 16, 200, box, "half_wing_refined");
  const std::vector<double> fine =
      forces_after("wing_naca0012_ar4.yaml", "geometry.chord_cells", 32, 400, "", "half_wing_fine");
  ASSERT_EQ(refined.size(), fine.size());
  ASSERT_GE(fine.size(), 14u);
  std::printf("half wing, refined (16 + box at 32 on the symmetry plane) against uniform 32: C_D %.5f / %.5f, C_L "
              "%.5f / %.5f, C_pitch %.5f / %.5f\n", refined[3], fine[3], refined[4], fine[4], refined[13], fine[13]);
  EXPECT_NEAR(refined[3], fine[3], 0.02 * std::abs(fine[3]));  // C_D
  EXPECT_NEAR(refined[4], fine[4], 0.03 * std::abs(fine[4]));  // C_L
}

TEST(Refinement, MeanFieldsOfARefinedRun) {
  // output.averages on refined levels: each level samples its own cells, and level 0's statistics come back with
  // its cells under the box filled from level 1's (the mean of the children's means). Against the same statistics
  // taken by hand from level 0's fields (macroscopic(): the same filling of the instantaneous fields) at the same
  // steps: the uncovered cells bit for bit (the same floats through the same Welford updates), the covered ones to
  // rounding (the children's mean taken before the float rounding instead of after).
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml",
                {"geometry.chord_cells=32", "refinement.boxes=[[-0.5, -0.5, 1.5, 0.5]]"});
  auto* r = dynamic_cast<RefinedLevels*>(s.backend.get());
  ASSERT_NE(r, nullptr);
  s.backend->run(300);
  const std::int64_t cells = s.d.cells();
  std::vector<double> mean(4 * std::size_t(cells), 0.0), m2(mean.size(), 0.0);
  std::vector<float> rho, u;
  const int samples = 6;
  for (int k = 1; k <= samples; ++k) {
    s.backend->run(25);
    s.backend->sample_averages();
    s.backend->macroscopic(rho, u);
    for (std::int64_t n = 0; n < cells; ++n)
      for (int q = 0; q < 4; ++q) {
        const double x = q == 0 ? double(rho[std::size_t(n)]) : double(u[3 * std::size_t(n) + std::size_t(q - 1)]);
        double& mu = mean[std::size_t(q * cells + n)];
        const double delta = x - mu;
        mu += delta / k;
        m2[std::size_t(q * cells + n)] += delta * (x - mu);
      }
  }
  FieldAverages a;
  s.backend->read_averages(a);
  ASSERT_EQ(a.samples, samples);
  ASSERT_EQ(a.mean.size(), mean.size());
  std::int64_t covered = 0, moved = 0;
  double worst = 0;
  for (std::int64_t n = 0; n < cells; ++n) {
    const bool under = !r->owned(0, n);  // level 0 cells under the box (flagged ghost there)
    for (int q = 0; q < 4; ++q) {
      const std::size_t j = std::size_t(q * cells + n);
      if (under) {
        worst = std::max(worst, std::abs(a.mean[j] - mean[j]));
      } else {
        ASSERT_EQ(a.mean[j], mean[j]) << "cell " << n << " quantity " << q;
        ASSERT_EQ(a.m2[j], m2[j]) << "cell " << n << " quantity " << q;
      }
      ASSERT_GE(a.m2[j], 0.0);
    }
    covered += under;
    moved += m2[std::size_t(1 * cells + n)] > 0;
  }
  std::printf("mean fields of a refined run: %lld of %lld level-0 cells under the box, largest difference there "
              "%.3g; %lld cells whose u_x moved over the samples\n", (long long)covered, (long long)cells, worst,
              (long long)moved);
  EXPECT_GT(covered, 1000);
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(moved, cells / 2);  // the flow still develops: the statistics hold fluctuations, not one state
}

TEST(RefinementLong, AirfoilInTwoRefinedLevelsMatchesTheFinestGrid) {
  // 32 cells per chord, a box at 64 (1.2 chords ahead of the quarter chord to 2.5 behind, 0.9 above and below)
  // and one at 128 around the body (0.7 ahead to 1.2 behind, 0.4 above and below), against 128 everywhere: 7.7
  // times fewer cells. Measured (CPU fp32, 2026-12-05): C_D 0.13298, C_L 0.25674 against 0.13291, 0.25575 (+0.05 %,
  // +0.4 %); the uniform run takes about 4 minutes on two cores.
  const AirfoilRun refined = airfoil(32, "[[-1.2, -0.9, 2.5, 0.9], [-0.7, -0.4, 1.2, 0.4]]");
  const AirfoilRun fine = airfoil(128);
  std::printf("NACA 0012 Re 1000 5 deg: uniform 128 (%lld cells) C_D %.5f C_L %.5f\n", (long long)fine.cells, fine.cd,
              fine.cl);
  expect_like_fine(refined, fine, 4, "refined (32 + 64 + 128)");
  // A two-level band (refinement.band: levels 2, thickness 0.3 chords: the box at 128 the body's bounding box grown
  // by 0.3, the one at 64 by 0.9). Measured (CPU fp32, 2026-12-05, `aerolbm run` over the same window): C_D
  // 0.1332, C_L 0.2577 (+0.2 %, +0.8 %) with 95 k cells, 8.6 times fewer; thickness 0.2: C_L +1.4 %.
  expect_like_fine(airfoil(32, "", 2, 0.3), fine, 4, "two-level band (32 + 64 + 128)");
}

}  // namespace
}  // namespace aerolbm::testing
