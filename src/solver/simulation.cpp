#include "src/solver/simulation.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <cmath>
#include <fstream>

#include "src/io/field_writer.hpp"
#include "src/io/forces_csv.hpp"
#include "src/io/json.hpp"
#include "src/solver/async_frame_writer.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/force_history.hpp"
#include "src/solver/frame_builder.hpp"
#include "src/solver/progress.hpp"

namespace aerolbm {
namespace {

const char* stencil_name(Stencil s) {
  switch (s) {
    case Stencil::D2Q9: return "D2Q9";
    case Stencil::D3Q19: return "D3Q19";
    case Stencil::D3Q27: return "D3Q27";
  }
  return "?";
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::FP32: return "fp32";
    case Precision::FP64: return "fp64";
    case Precision::FP16S: return "fp16s";
  }
  return "?";
}

Attributes run_attributes(const Case& c, const LatticeUnits& u) {
  Attributes a;
  a.numbers = {{"reynolds", c.reynolds},          {"mach", c.mach},
               {"angle_of_attack_deg", c.angle_of_attack_deg},
               {"reference_length_cells", u.length_cells},
               {"u_lattice", u.u_lattice},        {"nu_lattice", u.nu_lattice},
               {"tau", u.tau},                     {"dx_reference_lengths", u.dx},
               {"dt_convective_times", u.dt}};
  a.strings = {{"case", c.name},
               {"stencil", stencil_name(c.stencil)},
               {"precision", precision_name(c.precision)},
               {"length_unit", "reference length (chord or diameter)"},
               {"time_unit", "convective time L/U"}};
  return a;
}

GridInfo grid_info(const Case& c, const LatticeUnits& u) {
  GridInfo g;
  g.nx = u.nx;
  g.ny = u.ny;
  g.nz = u.nz;
  for (int a = 0; a < 3; ++a) {
    g.spacing[a] = u.dx;
    // Cell centres sit at (i + ½)·dx from the lower-left corner; the body pivot is the origin.
    g.origin[a] = 0.5 * u.dx - (a < dimensions(c.stencil) ? c.body_position_chords[a] : 0.0);
  }
  return g;
}

}  // namespace

Simulation::Simulation(const Case& c, const LatticeUnits& u, std::unique_ptr<Body> body, RunOptions opt)
    : case_(c), units_(u), body_(std::move(body)), opt_(std::move(opt)) {
  domain_ = build_domain(case_, units_, body_.get());
  BackendConfig cfg;
  cfg.stencil = case_.stencil;
  cfg.precision = case_.precision;
  cfg.kernel = case_.kernel;
  cfg.threads = opt_.threads;
  backend_ = select_backend(opt_.backend, cfg, domain_, physics_params(case_, units_));
  backend_->initialize();
}

Simulation::~Simulation() = default;

// Every kWatchEvery steps (and whenever a force comes out non-finite) the whole state is scanned for NaN/Inf and
// for speeds beyond what the lattice carries stably. A failure stops the run with where and what to change.
void Simulation::watchdog(std::int64_t step) {
  constexpr double kMaxSpeed = 0.4;  // lattice units; the sound speed is 0.577
  const StateCheck c = backend_->check_state(kMaxSpeed);
  if (c.ok) return;
  const std::int64_t n = c.first_bad_cell;
  const std::int64_t x = n % units_.nx, y = (n / units_.nx) % units_.ny, z = n / (units_.nx * units_.ny);
  const int dims = dimensions(case_.stencil);
  char where[256];
  std::snprintf(where, sizeof(where), "cell (%lld, %lld%s) at (%.3f, %.3f) reference lengths from the body pivot",
                static_cast<long long>(x), static_cast<long long>(y),
                dims == 3 ? (", " + std::to_string(z)).c_str() : "", (x + 0.5) * units_.dx - case_.body_position_chords[0],
                (y + 0.5) * units_.dx - case_.body_position_chords[1]);
  std::string what = std::isfinite(c.speed) ? "speed " + std::to_string(c.speed) + " cells/step (bound 0.4, inflow " +
                                                  std::to_string(units_.u_lattice) + ")"
                                            : std::string("non-finite values");
  throw RunError("the run diverged by step " + std::to_string(step) + ": first bad " + std::string(where) + ", " +
                 what + ". Likely cause: tau = " + std::to_string(units_.tau) +
                 " is close to 0.5 for this resolution, or the Mach number is high. What to change: raise "
                 "geometry.chord_cells, lower physics.reynolds or physics.mach, or try lattice.collision: bgk "
                 "(TRT can be less robust near tau 0.5 at open boundaries).");
}

RunResult Simulation::run() {
  const auto& dir = opt_.output_dir;
  const int dims = dimensions(case_.stencil);
  const double cells = double(domain_.cells());
  const double u_ref = units_.u_lattice > 0 ? units_.u_lattice : 1.0;
  const double area = units_.length_cells * (dims == 3 ? double(units_.nz) : 1.0);
  const double coef = 1.0 / (0.5 * u_ref * u_ref * area);

  {
    std::ofstream yaml(dir / "case.yaml");
    yaml << case_.yaml_text << "\n";
    if (!yaml) throw RunError("cannot write " + (dir / "case.yaml").string());
  }

  ForcesCsv csv(dir / "forces.csv",
                {{"case", case_.name},
                 {"backend", backend_->name()},
                 {"reynolds", std::to_string(case_.reynolds)},
                 {"mach", std::to_string(case_.mach)},
                 {"angle_of_attack_deg", std::to_string(case_.angle_of_attack_deg)},
                 {"reference_length_cells", std::to_string(units_.length_cells)},
                 {"reference_area_cells", std::to_string(area)},
                 {"u_lattice", std::to_string(u_ref)},
                 {"force_units", "lattice units (rho=1, cell, step)"},
                 {"coefficients", "C = F / (0.5 rho U^2 A); time in convective times L/U"}},
                dims);

  std::vector<std::unique_ptr<FieldWriter>> writers;
  const auto grid = grid_info(case_, units_);
  const auto attrs = run_attributes(case_, units_);
  if (case_.output_every > 0) {
    for (const auto& f : case_.formats) {
      if (f == "hdf5") writers.push_back(make_hdf5_writer(dir, grid, attrs));
      if (f == "vtk") writers.push_back(make_vtk_writer(dir, grid, attrs));
    }
  }
  const bool fields_on = !writers.empty();
  AsyncFrameWriter frames(domain_, std::move(writers), u_ref, units_.dx, FrameRequest::from_names(case_.fields));

  const std::int64_t total = units_.total_steps;
  const std::int64_t K = std::max<std::int64_t>(1, case_.forces_every);
  const std::int64_t N = case_.output_every;
  ForceHistory history;
  Progress progress(total, cells);
  RunResult r;
  r.backend = backend_->name();
  r.device = backend_->device();
  r.kernel = backend_->kernel();

  auto next_multiple = [](std::int64_t s, std::int64_t m) { return (s / m + 1) * m; };
  const auto t0 = std::chrono::steady_clock::now();
  std::int64_t step = 0;
  double cd = 0, cl = 0;
  while (step < total) {
    std::int64_t next = std::min(total, next_multiple(step, K));
    if (N > 0) next = std::min(next, next_multiple(step, N));
    backend_->run(next - step);
    step = next;
    const double time = double(step) * units_.dt;
    if (step % K == 0 || step == total) {
      const auto F = backend_->wall_force();
      cd = F[0] * coef;
      cl = F[1] * coef;
      const double cs = F[2] * coef;
      if (!std::isfinite(cd) || !std::isfinite(cl) || step % kWatchEvery == 0 || step == total) watchdog(step);
      csv.append(step, time, F, cd, cl, cs);
      history.add({step, time, cd, cl, cs});
    }
    if (N > 0 && fields_on && (step % N == 0 || step == total)) {
      // The copy to the host runs on its own stream and the fields and files are made on the writer thread,
      // both while the next steps run.
      FrameJob job;
      job.step = step;
      job.time = time;
      job.fields = backend_->start_fields_transfer();
      frames.submit(std::move(job));
    }
    if (opt_.progress) progress.update(step, cd, cl);
  }
  frames.finish();
  r.frames = frames.frames_written();
  r.output_seconds = frames.busy_seconds();
  if (opt_.progress) progress.finish();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.steps = total;
  r.mlups = r.wall_seconds > 0 ? cells * double(total) / r.wall_seconds * 1e-6 : 0.0;

  const double t_end = double(total) * units_.dt;
  const auto window = history.window(t_end - double(units_.average_steps) * units_.dt - 1e-12);
  r.cd_mean = ForceHistory::mean_cd(window);
  r.cl_mean = ForceHistory::mean_cl(window);
  if (!history.samples().empty()) {
    r.cd_final = history.samples().back().cd;
    r.cl_final = history.samples().back().cl;
  }
  r.strouhal = ForceHistory::strouhal(window);

  Json s = Json::object();
  s.set("case", case_.name);
  s.set("description", case_.description);
  s.set("backend", r.backend);
  s.set("device", r.device);
  s.set("kernel", r.kernel);
  s.set("lattice", stencil_name(case_.stencil));
  s.set("precision", precision_name(case_.precision));
  Json g = Json::object();
  g.set("nx", units_.nx);
  g.set("ny", units_.ny);
  g.set("nz", units_.nz);
  g.set("cells", domain_.cells());
  s.set("grid", g);
  Json lu = Json::object();
  lu.set("reference_length_cells", units_.length_cells);
  lu.set("u_lattice", units_.u_lattice);
  lu.set("nu_lattice", units_.nu_lattice);
  lu.set("tau", units_.tau);
  s.set("lattice_units", lu);
  s.set("reynolds", case_.reynolds);
  s.set("mach", case_.mach);
  s.set("angle_of_attack_deg", case_.angle_of_attack_deg);
  s.set("steps", r.steps);
  s.set("convective_times", t_end);
  s.set("wall_time_s", r.wall_seconds);
  s.set("mlups", r.mlups);
  s.set("frames", r.frames);
  s.set("output_writer_busy_s", r.output_seconds);
  Json co = Json::object();
  co.set("averaging_window_convective_times", double(units_.average_steps) * units_.dt);
  co.set("cd_mean", r.cd_mean);
  co.set("cl_mean", r.cl_mean);
  co.set("cd_final", r.cd_final);
  co.set("cl_final", r.cl_final);
  co.set("strouhal", r.strouhal ? Json(*r.strouhal) : Json(nullptr));
  s.set("coefficients", co);
  write_json_atomically(dir / "summary.json", s);
  return r;
}

}  // namespace aerolbm
