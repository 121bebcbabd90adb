// Turbulent plane channel with the wall model (cases/channel_re_tau1000.yaml, channel_re_tau5200.yaml): walls of
// a body (two slabs through the periodic faces), a constant body force g = u_τ²/h for the nominal Re_τ, the first
// cells at Δx⁺ = 50 and 100. Against Lee & Moser (2015, DNS at Re_τ 1000 and 5186, constant flow rate):
//   - Re_τ from the wall shear stress the run averages (its momentum exchange over both walls): within 5 % of the
//     nominal value, i.e. the window is stationary and the walls carry the force that drives the flow;
//   - the bulk velocity that force sustains, U_b⁺ = U_b/u_τ, within 5 % of the DNS's (19.99 at Re_τ 1000: Re_b =
//     2hU_b/ν = 40,000; 24.10 at 5186: Re_b = 250,000). At a given bulk Reynolds number this is Re_τ: a run at the
//     DNS's flow rate would find Re_τ off by about the same fraction (Re_τ = Re_b / (2 U_b⁺));
//   - the mean velocity U⁺(y⁺) at the cell centres of the log region (y⁺ > 30, y/h < 0.3: Pope, Turbulent Flows,
//     2000, §7.1) within 5 % of the DNS's log law, U⁺ = ln(y⁺)/0.384 + 4.27 (Lee & Moser's fit to their profile).
// Label `long`: run on the GPU host (AEROLBM_TEST_BACKEND=cuda); minutes of CPU time per eddy turnover.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// The log region's top in half heights (y/h < 0.3, with y⁺ > 30).
constexpr double kLogTop = 0.3;

struct ChannelResult {
  double re_tau = 0;   // from the mean wall shear stress
  double ub_plus = 0;  // bulk velocity over u_τ
  double worst_log = 0;  // largest |U⁺ − U⁺_DNS| / U⁺_DNS over the log region's cells
  int log_points = 0;
};

// One cell centre of the profile, d cells from the wall (h the half height): printed below half the channel's
// Re_τ, and in the log region scored against the DNS's log law.
void score_point(ChannelResult& r, double d, double h, double y_plus, double u_plus) {
  const double dns = std::log(y_plus) / 0.384 + 4.27;
  const bool log_region = y_plus > 30 && d < kLogTop * h;
  if (y_plus < 0.5 * r.re_tau) std::printf("  %6.1f %7.3f %7.3f%s\n", y_plus, u_plus, dns, log_region ? "  *" : "");
  if (!log_region) return;
  r.worst_log = std::max(r.worst_log, std::abs(u_plus - dns) / dns);
  ++r.log_points;
}

// `half_height`: the half height in cells (0: the case's), the driving force recomputed for the case's Re_τ.
ChannelResult run_channel(const std::string& file, double re_tau, double settle_times, double average_times,
                          int half_height = 0) {
  std::vector<std::string> sets;
  if (half_height > 0) {
    const Case c = load_case(cases_dir() / file);
    const double u = c.mach / std::sqrt(3.0), u_tau = re_tau * u / c.reynolds;
    char force[96];
    std::snprintf(force, sizeof(force), "physics.body_force=[%.9g,0,0]", u_tau * u_tau / half_height);
    sets = {"geometry.reference_cells=" + std::to_string(half_height), force};
  }
  SolverSetup s(cases_dir() / file, sets);
  const double h = s.u.length_cells, nu = s.u.nu_lattice;
  const std::int64_t per = s.u.steps_per_convective_time, every = 100;
  s.backend->run(std::int64_t(settle_times * double(per)));
  double fx = 0;
  int samples = 0;
  for (std::int64_t step = 0; step < std::int64_t(average_times * double(per)); step += every) {
    s.backend->run(every);
    s.backend->sample_averages();
    fx += s.backend->wall_force()[0];
    ++samples;
  }
  FieldAverages a;
  s.backend->read_averages(a);
  // The walls (the slabs of cases/data/channel_walls.stl): 0.1 h above the low y face and 0.1 h below the high one.
  const double y_low = 0.1 * h, y_high = 2.1 * h;
  const std::int64_t nx = s.d.nx, ny = s.d.ny, nz = s.d.nz, cells = nx * ny * nz;
  std::map<long, std::pair<double, long>> by_distance;  // 2 × distance from the nearer wall (cells) → Σ u, count
  double ub = 0;
  long fluid = 0;
  for (std::int64_t z = 0; z < nz; ++z)
    for (std::int64_t y = 0; y < ny; ++y)
      for (std::int64_t x = 0; x < nx; ++x) {
        const std::int64_t n = x + nx * (y + ny * z);
        if ((s.d.flags[std::size_t(n)] & cell::type_mask) != cell::fluid) continue;
        const double u = a.mean[std::size_t(cells + n)];  // quantity 1: u_x
        const double d = std::min(double(y) + 0.5 - y_low, y_high - double(y) - 0.5);
        auto& e = by_distance[std::lround(2 * d)];
        e.first += u;
        e.second += 1;
        ub += u;
        ++fluid;
      }
  ub /= double(fluid);
  const double tau_w = fx / samples / (2.0 * double(nx) * double(nz));
  const double u_tau = std::sqrt(tau_w);
  ChannelResult r;
  r.re_tau = u_tau * h / nu;
  r.ub_plus = ub / u_tau;
  std::printf("%s, h = %.0f cells: Re_tau %.1f (wall shear), U_b+ %.3f, %d samples\n   y+      U+   DNS log law\n",
              file.c_str(), h, r.re_tau, r.ub_plus, samples);
  for (const auto& [twice_d, e] : by_distance) {
    const double y_plus = 0.5 * double(twice_d) * u_tau / nu, u_plus = e.first / double(e.second) / u_tau;
    score_point(r, 0.5 * double(twice_d), h, y_plus, u_plus);
  }
  return r;
}

void expect_lee_moser(const ChannelResult& r, double re_tau, double ub_plus) {
  EXPECT_NEAR(r.re_tau / re_tau, 1.0, 0.05);
  EXPECT_NEAR(r.ub_plus / ub_plus, 1.0, 0.05);
  EXPECT_GE(r.log_points, 3);
  EXPECT_LT(r.worst_log, 0.05);
}

TEST(ChannelLong, ReTau1000AgainstLeeMoser) {
  const ChannelResult r = run_channel("channel_re_tau1000.yaml", 1000, 500, 500);
  expect_lee_moser(r, 1000, 19.99);
}

TEST(ChannelLong, ReTau5200AgainstLeeMoser) {
  const ChannelResult r = run_channel("channel_re_tau5200.yaml", 5200, 200, 160);
  expect_lee_moser(r, 5200, 24.10);  // the case drives it at 5200
}

// The coarsest grid the wall model is meant for, Δx⁺ = 125 (h = 8 cells), fewer eddy turnovers.
TEST(ChannelLong, ReTau1000CoarseAgainstLeeMoser) {
  const ChannelResult r = run_channel("channel_re_tau1000.yaml", 1000, 300, 300, 8);
  expect_lee_moser(r, 1000, 19.99);
}

// The same channel with wall-model faces (cases/channel_re_tau*_faces.yaml: the y faces of the grid are the walls,
// half a cell outside the first and last rows; boundaries.wall_model_probe sets where the law samples). A face is
// not a body, so the wall shear comes from the momentum balance over the averaging window: per unit wall area the
// walls take ρ g h (the body force on the fluid above it) less h d(ρ U_b)/dt, which the run measures from its bulk
// momentum at the window's start and end; Re_τ within 5 % of the nominal value says the window is stationary.
ChannelResult run_face_channel(const std::string& file, double settle_times, double average_times,
                               const std::vector<std::string>& sets = {}) {
  SolverSetup s(cases_dir() / file, sets);
  const double h = s.u.length_cells, nu = s.u.nu_lattice, g = s.p.body_force[0];
  const std::int64_t per = s.u.steps_per_convective_time, every = 100;
  const std::int64_t nx = s.d.nx, ny = s.d.ny, nz = s.d.nz, cells = nx * ny * nz;
  auto bulk = [&] {  // mean ρ and mean ρ u_x over the grid (every cell is fluid)
    std::vector<float> rho, u;
    s.backend->macroscopic(rho, u);
    double m = 0, r = 0;
    for (std::int64_t n = 0; n < cells; ++n) {
      r += rho[std::size_t(n)];
      m += double(rho[std::size_t(n)]) * u[std::size_t(3 * n)];
    }
    return std::pair<double, double>(r / double(cells), m / double(cells));
  };
  s.backend->run(std::int64_t(settle_times * double(per)));
  const auto start = bulk();
  std::int64_t steps = 0;
  for (; steps < std::int64_t(average_times * double(per)); steps += every) {
    s.backend->run(every);
    s.backend->sample_averages();
  }
  const auto end = bulk();
  const double rho = 0.5 * (start.first + end.first);
  const double tau_w = rho * g * h - h * (end.second - start.second) / double(steps);
  FieldAverages a;
  s.backend->read_averages(a);
  std::vector<double> profile(std::size_t(ny), 0.0);
  double ub = 0;
  for (std::int64_t z = 0; z < nz; ++z)
    for (std::int64_t y = 0; y < ny; ++y)
      for (std::int64_t x = 0; x < nx; ++x) {
        const double u = a.mean[std::size_t(cells + x + nx * (y + ny * z))];  // quantity 1: u_x
        profile[std::size_t(y)] += u / double(nx * nz);
        ub += u / double(cells);
      }
  const double u_tau = std::sqrt(tau_w / rho);
  ChannelResult r;
  r.re_tau = u_tau * h / nu;
  r.ub_plus = ub / u_tau;
  std::printf("%s, h = %.0f cells: Re_tau %.1f (momentum balance), U_b+ %.3f\n   y+      U+   DNS log law\n",
              file.c_str(), h, r.re_tau, r.ub_plus);
  for (std::int64_t y = 0; y < ny / 2; ++y) {
    const double d = double(y) + 0.5;  // the wall half a cell below the first row
    const double u_plus = 0.5 * (profile[std::size_t(y)] + profile[std::size_t(ny - 1 - y)]) / u_tau;
    score_point(r, d, h, d * u_tau / nu, u_plus);
  }
  return r;
}

TEST(ChannelLong, FacesReTau1000AgainstLeeMoser) {
  const ChannelResult r = run_face_channel("channel_re_tau1000_faces.yaml", 500, 500);
  expect_lee_moser(r, 1000, 19.99);
}

// Δx⁺ 83 (h = 12 cells), the probe 3½ cells out: small enough for the CPU (about a quarter of an hour on two cores).
TEST(ChannelLong, FacesReTau1000CoarseAgainstLeeMoser) {
  const ChannelResult r = run_face_channel("channel_re_tau1000_faces.yaml", 300, 200,
                                           {"geometry.reference_cells=12", "physics.body_force=[6.951394e-07,0,0]",
                                            "boundaries.wall_model_probe=3.5"});
  expect_lee_moser(r, 1000, 19.99);
}

TEST(ChannelLong, FacesReTau5200AgainstLeeMoser) {
  const ChannelResult r = run_face_channel("channel_re_tau5200_faces.yaml", 200, 160);
  expect_lee_moser(r, 5200, 24.10);
}

}  // namespace
}  // namespace aerolbm::testing
