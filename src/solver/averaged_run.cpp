#include "src/solver/averaged_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "src/solver/assemble_solver.hpp"
#include "src/solver/body_loads.hpp"
#include "src/solver/force_reference.hpp"
#include "src/solver/force_history.hpp"
#include "src/solver/simulation.hpp"
#include "src/solver/step_schedule.hpp"

namespace aerolbm {

AveragedRun run_averaged(const Case& c, const LatticeUnits& u, const Body* body, const AveragedRunOptions& opt) {
  AveragedRun r;
  SolverOptions so;
  so.backend = opt.backend;
  so.threads = opt.threads;
  Solver solver = assemble_solver(c, u, body, so);
  r.domain = std::move(solver.domain);
  const std::unique_ptr<Backend> b = std::move(solver.backend);
  r.backend = b->name();
  r.device = b->device();

  const std::int64_t total = u.total_steps;
  const std::int64_t K = std::max<std::int64_t>(20, (c.forces_every + 19) / 20 * 20);
  const std::int64_t W = std::max<std::int64_t>(1, (c.watchdog_every + K - 1) / K) * K;
  const std::int64_t window = std::clamp<std::int64_t>(u.average_steps, 0, total);
  const std::int64_t start = total - window;
  const std::int64_t A = std::max<std::int64_t>(K, (window / std::max(1, opt.field_samples)) / K * K);
  const double u_ref = u.u_lattice > 0 ? u.u_lattice : 1.0;
  const int dims = dimensions(c.stencil);
  const double area = u.length_cells * (dims == 3 ? double(u.nz) : 1.0);
  const double coef = 1.0 / (0.5 * u_ref * u_ref * area);
  // The pitching moment (2D sections) from the per-cell forces, as Simulation takes it.
  const std::optional<ForceReference> ref = dims == 2 ? force_reference(c, u, body) : std::nullopt;
  std::optional<LoadIntegrator> loads;  // on the level that holds the body, for a refined case
  if (ref) loads.emplace(body_load_integrator(*b, r.domain, *ref, dims, u_ref).loads);
  std::vector<double> per_cell;

  // Pieces of K steps, each followed by a force sample; the watchdog scan and the mean fields' samples fall on
  // multiples of K.
  StepSchedule schedule;
  schedule.total = total;
  schedule.forces = {K, 0};
  schedule.watchdog = {W, 0};
  schedule.means = {A, start};

  const std::int64_t cells = r.domain.cells();
  ForceHistory history;
  const auto t0 = std::chrono::steady_clock::now();
  std::int64_t step = 0;
  auto check = [&](std::int64_t at) {
    const StateCheck s = b->check_state(c.watchdog_max_speed);
    if (!s.ok)
      throw RunError("case " + c.name + " diverged by step " + std::to_string(at) + " (first bad cell " +
                     std::to_string(s.first_bad_cell) + ", tau " + std::to_string(u.tau) +
                     "): raise geometry.chord_cells or lower physics.reynolds / physics.mach for this sweep");
  };
  while (step < total) {
    const std::int64_t next = schedule.piece_end(step, total);
    b->run(next - step);
    step = next;
    const auto F = b->wall_force();
    const double cd = F[0] * coef, cl = F[1] * coef;
    if (!std::isfinite(cd) || !std::isfinite(cl)) check(step);
    CoefficientSample s{step, double(step) * u.dt, cd, cl, F[2] * coef};
    if (loads) {
      b->wall_force_cells(per_cell);
      s.cpitch = loads->loads(per_cell).moment_coefficients[2];
    }
    history.add(s);
    if (schedule.due(schedule.watchdog, step)) check(step);
    if (schedule.due(schedule.means, step)) {
      b->sample_averages();  // the mean fields' statistics, kept by the backend (on the GPU in device memory)
      ++r.samples;
    }
  }
  FieldAverages a;
  b->read_averages(a);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.steps = step;
  const auto mean = [&](int q) {
    const auto first = a.mean.begin() + std::ptrdiff_t(q) * cells;
    return std::vector<double>(first, first + cells);
  };
  r.rho = mean(0);
  r.ux = mean(1);
  r.uy = mean(2);
  const double t_end = double(step) * u.dt;
  const auto w = history.window(t_end - double(window) * u.dt - 1e-12);
  r.cd_mean = ForceHistory::mean_cd(w);
  r.cl_mean = ForceHistory::mean_cl(w);
  if (loads) r.cpitch_mean = ForceHistory::mean_cpitch(w);
  return r;
}

}  // namespace aerolbm
