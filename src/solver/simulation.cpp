#include "src/solver/simulation.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <optional>

#include "src/case/make_body.hpp"
#include "src/io/atomic_file.hpp"
#include "src/io/field_writer.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/forces_csv.hpp"
#include "src/io/json.hpp"
#include "src/solver/async_frame_writer.hpp"
#include "src/solver/bad_cells.hpp"
#include "src/solver/block_fields.hpp"
#include "src/solver/body_loads.hpp"
#include "src/solver/force_reference.hpp"
#include "src/solver/case_backend.hpp"
#include "src/solver/surface_probe.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/force_history.hpp"
#include "src/solver/frame_builder.hpp"
#include "src/solver/output_budget.hpp"
#include "src/solver/progress.hpp"
#include "src/solver/refined_levels.hpp"
#include "src/solver/step_schedule.hpp"
#include "src/solver/stop_request.hpp"
#include "src/solver/window_analysis.hpp"

namespace aerolbm {
namespace {

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

// Refined level ℓ's grid (RefinedLevels::domain), placed as grid_info places level 0's: cells of dx / 2^ℓ, its
// cell (0, 0, 0) the level's global cell `origin` (2D: the z axis as level 0's).
GridInfo level_grid_info(const Case& c, const LatticeUnits& u, const DomainData& level, int l) {
  GridInfo g = grid_info(c, u);
  g.nx = level.nx;
  g.ny = level.ny;
  g.nz = level.nz;
  const double dx = u.dx / double(std::int64_t(1) << l);
  for (int a = 0; a < dimensions(c.stencil); ++a) {
    g.spacing[a] = dx;
    g.origin[a] = (double(level.origin[a]) + 0.5) * dx - c.body_position_chords[a];
  }
  return g;
}

// A force sample restored from a checkpoint; the moment coefficients only where the checkpoint has them.
CoefficientSample restored_sample(const Checkpoint& c, std::size_t i) {
  CoefficientSample s{c.force_steps[i], c.force_times[i], c.cd[i], c.cl[i], c.cs[i]};
  if (i < c.croll.size() && i < c.cyaw.size() && i < c.cpitch.size()) {
    s.croll = c.croll[i];
    s.cyaw = c.cyaw[i];
    s.cpitch = c.cpitch[i];
  }
  if (i < c.cd_pressure.size()) s.cd_pressure = c.cd_pressure[i];
  return s;
}

}  // namespace

Simulation::Simulation(const Case& c, const LatticeUnits& u, std::unique_ptr<Body> body, RunOptions opt)
    : case_(c), units_(u), body_(std::move(body)), opt_(std::move(opt)) {
  Solver solver = assemble_solver(case_, units_, body_.get(), opt_.solver);
  domain_ = std::move(solver.domain);
  backend_ = std::move(solver.backend);
  blocks_ = solver.blocks;
  // Forces per near-wall cell give the moments (and in 3D the spanwise loads), about force_reference's point.
  const int dims = dimensions(case_.stencil);
  dims_ = dims;
  u_ref_ = units_.u_lattice > 0 ? units_.u_lattice : 1.0;
  ref_ = force_reference(case_, units_, body_.get());
  if (ref_) {
    BodyLoadIntegrator l = body_load_integrator(*backend_, domain_, *ref_, dims, u_ref_);
    loads_.emplace(std::move(l.loads));
    load_force_scale_ = l.force_scale;
    load_moment_scale_ = l.moment_scale;
  }
  area_ = ref_ ? ref_->area : units_.length_cells * (dims == 3 ? double(units_.nz) : 1.0);
  coef_ = 1.0 / (0.5 * u_ref_ * u_ref_ * area_);
  // Force samples and watchdog scans; run() adds frames, checkpoints and the mean fields' samples.
  schedule_.total = units_.total_steps;
  schedule_.forces = {std::max<std::int64_t>(1, case_.forces_every), 0};
  schedule_.watchdog = {std::max<std::int64_t>(1, case_.watchdog_every), 0};
}

Simulation::~Simulation() = default;

Checkpoint Simulation::checkpoint_identity() const {
  Checkpoint c;
  c.stencil = stencil_name(case_.stencil);
  c.precision = precision_name(case_.precision);
  c.collision = collision_name(case_.collision);
  c.nx = units_.nx;
  c.ny = units_.ny;
  c.nz = units_.nz;
  c.q = lattice_q(case_.stencil);
  c.geometry_hash = fingerprint(domain_.flags.data(), domain_.flags.size());
  c.tau = units_.tau;
  c.u_lattice = units_.u_lattice;
  return c;
}

void Simulation::resume(Checkpoint c) {
  const Checkpoint here = checkpoint_identity();
  const std::string file = (opt_.output_dir / "checkpoint.h5").string();
  auto grid = [](const Checkpoint& k) {
    return k.stencil + ", " + std::to_string(k.nx) + " x " + std::to_string(k.ny) + " x " + std::to_string(k.nz) +
           " cells";
  };
  const std::string fix =
      " Restart with the case the run was started with (its copy is " + (opt_.output_dir / "case.yaml").string() +
      "; --set overrides such as time.steps or output.every may change), or start a new run without --restart.";
  if (c.stencil != here.stencil || c.nx != here.nx || c.ny != here.ny || c.nz != here.nz || c.q != here.q)
    throw CaseError("--restart: " + file + " holds the state of a " + grid(c) + " lattice, but this case makes a " +
                    grid(here) + " lattice." + fix);
  if (c.geometry_hash != here.geometry_hash)
    throw CaseError("--restart: " + file + " was written for another body or other boundaries on the same " +
                    grid(here) + " grid (the cell flags differ)." + fix);
  if (c.step >= units_.total_steps)
    throw CaseError("--restart: " + file + " is at step " + std::to_string(c.step) +
                    ", at or past the end of this run (" + std::to_string(units_.total_steps) +
                    " steps). Give a larger --steps, time.steps or time.convective_times to run on.");
  auto differs = [](double a, double b) { return std::abs(a - b) > 1e-12 * std::max(1.0, std::abs(a)); };
  if (c.precision != here.precision || c.collision != here.collision || differs(c.tau, here.tau) ||
      differs(c.u_lattice, here.u_lattice))
    spdlog::warn("continuing a checkpoint written with {} {} tau {} u {} as {} {} tau {} u {}: the state carries "
                 "over, but the run is no longer one continuous run of a single case",
                 c.precision, c.collision, c.tau, c.u_lattice, here.precision, here.collision, here.tau,
                 here.u_lattice);
  const std::size_t grid_values = std::size_t(c.q) * std::size_t(domain_.cells());
  if (case_.refinement_boxes.empty() && c.populations.size() != grid_values)
    throw CaseError("--restart: " + file + " holds " + std::to_string(c.populations.size()) + " population values, "
                    "where this case's grid holds " + std::to_string(grid_values) + "." + fix);
  try {
    backend_->write_populations(c.populations);
  } catch (const std::invalid_argument& e) {  // refined levels: another refinement (the state's length differs)
    throw CaseError("--restart: " + file + " does not fit this case's refined levels (" + e.what() +
                    "): the refinement boxes differ." + fix);
  }
  backend_->set_step(c.step);
  c.populations.clear();
  c.populations.shrink_to_fit();
  history_ = ForceHistory();
  for (std::size_t i = 0; i < c.force_steps.size(); ++i) history_.add(restored_sample(c, i));
  step_ = c.step;
  resume_ = std::move(c);
}

// Queues the steps from step_ to `next` with a force sample at every multiple of forces.every and at the run's end
// (on the GPU computed there, no host wait), takes the samples together, turns them into coefficients and adds
// them to the history. A non-finite coefficient runs the watchdog at once (`checked` then says so). `per_cell`
// receives the per-cell forces of the sample at `next` (3D bodies).
std::vector<Simulation::Sample> Simulation::advance_chunk(std::int64_t next, std::int64_t last_checkpoint,
                                                          bool& checked, std::vector<double>& per_cell) {
  std::vector<std::int64_t> sample_steps;
  while (step_ < next) {
    // Inside the averaging window the mean fields' samples end a piece too (with the default interval,
    // forces.every, the same pieces).
    const std::int64_t to = schedule_.piece_end(step_, next);
    backend_->queue_steps(to - step_);
    step_ = to;
    if (schedule_.due(schedule_.forces, step_)) {
      backend_->queue_force_sample(loads_.has_value());
      sample_steps.push_back(step_);
    }
    if (schedule_.due(schedule_.means, step_)) {
      backend_->sample_averages();  // on the GPU a kernel behind the steps: no wait
      if (mean_.samples == 0) {
        mean_.first_step = step_;
        mean_.first_time = double(step_) * units_.dt;
      }
      ++mean_.samples;
      mean_.last_step = step_;
      mean_.last_time = double(step_) * units_.dt;
    }
  }
  std::vector<ForceSample> samples = backend_->take_force_samples();
  std::vector<Sample> out;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    Sample s;
    s.step = sample_steps.at(i);
    s.force = samples[i].total;
    const double cd_pressure = samples[i].pressure[0] * coef_;
    std::array<double, 3> cm{std::nan(""), std::nan(""), std::nan("")};
    if (loads_) {
      const BodyLoads l = loads_->loads(samples[i].cells);
      if (dims_ == 3)
        for (int a = 0; a < 3; ++a) s.force[std::size_t(a)] = l.force[std::size_t(a)] * load_force_scale_;
      cm = l.moment_coefficients;
      if (dims_ == 2) cm[0] = cm[1] = std::nan("");  // no roll or yaw in the plane
      s.extra = LoadIntegrator::csv_values(l, dims_);
      for (std::size_t a = 0; a < LoadIntegrator::moment_columns(dims_); ++a) s.extra[a] *= load_moment_scale_;
      if (s.step == step_) per_cell = std::move(samples[i].cells);
    }
    s.cd = s.force[0] * coef_;
    s.cl = s.force[1] * coef_;
    s.cs = s.force[2] * coef_;
    s.extra.insert(s.extra.begin(), {cd_pressure, s.cd - cd_pressure});
    if (!checked && (!std::isfinite(s.cd) || !std::isfinite(s.cl))) {
      watchdog(step_, last_checkpoint);
      checked = true;
    }
    history_.add({s.step, double(s.step) * units_.dt, s.cd, s.cl, s.cs, cm[0], cm[1], cm[2], cd_pressure});
    out.push_back(std::move(s));
  }
  return out;
}

std::int64_t Simulation::advance(std::int64_t steps, const std::function<bool()>& stop) {
  const std::int64_t start = step_, end = step_ + std::max<std::int64_t>(0, steps);
  while (step_ < end) {
    // The chunks of run(): up to the next watchdog scan (frames and checkpoints are run()'s), and the run's end.
    const std::int64_t next = std::min(end, schedule_.chunk_end(step_));
    bool checked = false;
    std::vector<double> per_cell;
    advance_chunk(next, -1, checked, per_cell);
    if (!checked && schedule_.due(schedule_.watchdog, step_)) watchdog(step_, -1);
    if (stop && step_ < end && stop()) break;
  }
  return step_ - start;
}

CoefficientSample Simulation::coefficients_now() {
  std::array<double, 3> F;
  if (loads_ && dims_ == 3) {
    std::vector<double> per_cell;
    backend_->wall_force_cells(per_cell);
    F = loads_->loads(per_cell).force;
    for (double& f : F) f *= load_force_scale_;
  } else {
    F = backend_->wall_force();
  }
  return {step_, double(step_) * units_.dt, F[0] * coef_, F[1] * coef_, F[2] * coef_};
}

// Every W steps, before every checkpoint, at the end, and whenever a force comes out non-finite, the whole state
// is scanned for NaN/Inf and for speeds beyond what the lattice carries stably. A failure stops the run with
// where, the likely cause and what to change; the last checkpoint (written from a state that passed) is kept.
void Simulation::watchdog(std::int64_t step, std::int64_t last_checkpoint) {
  const double bound = case_.watchdog_max_speed;
  const StateCheck c = backend_->check_state(bound);
  if (c.ok) return;
  const std::int64_t n = c.first_bad_cell;
  const std::int64_t x = n % units_.nx, y = (n / units_.nx) % units_.ny, z = n / (units_.nx * units_.ny);
  const int dims = dimensions(case_.stencil);
  const double px = (x + 0.5) * units_.dx - case_.body_position_chords[0];
  const double py = (y + 0.5) * units_.dx - case_.body_position_chords[1];
  const double pz = (z + 0.5) * units_.dx - case_.body_position_chords[2];
  char where[320];
  if (dims == 3)
    std::snprintf(where, sizeof(where),
                  "cell (x %lld, y %lld, z %lld) at (%.3f, %.3f, %.3f) reference lengths from the body pivot",
                  static_cast<long long>(x), static_cast<long long>(y), static_cast<long long>(z), px, py, pz);
  else
    std::snprintf(where, sizeof(where), "cell (x %lld, y %lld) at (%.3f, %.3f) reference lengths from the body pivot",
                  static_cast<long long>(x), static_cast<long long>(y), px, py);
  char what[200];
  if (std::isfinite(c.speed))
    std::snprintf(what, sizeof(what), "speed %.4g cells/step (watchdog.max_speed %.3g, inflow %.4g)", c.speed, bound,
                  units_.u_lattice);
  else
    std::snprintf(what, sizeof(what), "non-finite values (NaN or Inf)");
  // Where the bad cells lie, level by level from the finest (host copies of the fields: the run ends here). Not on
  // MPI blocks, whose fields are spread over the ranks.
  std::string region;
  std::int64_t non_finite = 0;
  if (auto* levels = dynamic_cast<RefinedLevels*>(backend_.get())) {
    for (int l = levels->levels() - 1; l >= 0; --l) {
      std::vector<float> rho, u;
      levels->level_own_fields(l, rho, u);
      const DomainData& d = levels->domain(l);
      const GridInfo g = level_grid_info(case_, units_, d, l);
      const BadCells b = find_bad_cells(g, rho, u, d.flags, bound);
      if (b.count == 0) continue;
      non_finite += b.non_finite;
      char head[120];
      std::snprintf(head, sizeof(head), "%slevel %d (%.0f cells per reference length): ", region.empty() ? "" : "; ", l,
                    units_.length_cells * double(std::int64_t(1) << l));
      region += head + describe_bad_cells(g, b, dims);
    }
  } else if (!blocks_) {
    std::vector<float> rho, u;
    backend_->macroscopic(rho, u);
    const GridInfo g = grid_info(case_, units_);
    const BadCells b = find_bad_cells(g, rho, u, domain_.flags, bound);
    if (b.count > 0) region = describe_bad_cells(g, b, dims);
    non_finite = b.non_finite;
  }
  if (!region.empty()) {
    region = " Where: " + region + ".";
    // Non-finite cells: the blow-up has had up to watchdog.every steps to spread from where it started.
    if (non_finite > 0 && case_.watchdog_every > 5)
      region += " The scan runs every " + std::to_string(case_.watchdog_every) +
                " steps, so the damage has spread: continue from the last checkpoint with --set watchdog.every=5 to "
                "catch it where it starts.";
  }
  const bool near_inlet = x < 3 && case_.inlet == FaceBC::Velocity;
  char params[200];
  std::snprintf(params, sizeof(params), "tau = %.4f, Mach %.3g (u = %.4g cells/step), %.0f cells per reference length",
                units_.tau, case_.mach, units_.u_lattice, units_.length_cells);
  const bool low_tau = units_.tau < 0.55;
  const bool over_speed = std::isfinite(c.speed);
  char speed_cause[160] = "";
  if (over_speed)
    std::snprintf(speed_cause, sizeof(speed_cause),
                  "the flow reached %.1f times the inflow speed, more than the lattice carries stably", c.speed /
                  units_.u_lattice);
  std::string cause = std::string("Likely cause (") + params + "): " +
                      (over_speed ? std::string(speed_cause) + (low_tau ? ", with tau this close to 0.5" : "")
                       : low_tau  ? std::string("tau this close to 0.5 leaves the collision too little damping for "
                                               "this resolution")
                                  : std::string("flow features finer than the grid resolves")) +
                      (near_inlet ? "; the blow-up starts at the inlet, where start-up pressure waves reflect" : "") +
                      ".";
  const std::string collision =
      case_.collision == Collision::TRT   ? "use lattice.collision: bgk (TRT can be less robust near tau 0.5 at open "
                                            "boundaries) or kbc (entropic), "
      : case_.collision == Collision::BGK ? "use lattice.collision: kbc (entropic), "
                                          : "";
  const std::string fix =
      std::string(" What to change: ") + (over_speed ? "lower physics.mach (the peak speeds scale with it), " : "") +
      "raise the resolution (geometry.chord_cells; tau - 0.5 grows in proportion), " +
      (over_speed ? "" : "lower physics.mach if the speed is the problem (it also moves tau towards 0.5), ") +
      "lower physics.reynolds if the study allows, " + collision +
      "or, for under-resolved turbulence, a sub-grid model (lattice.les.model: smagorinsky or wale).";
  const std::string ckpt =
      last_checkpoint >= 0
          ? " The last good checkpoint (step " + std::to_string(last_checkpoint) + ") is kept in " +
                (opt_.output_dir / "checkpoint.h5").string() +
                "; continue from it with --restart after changing, for example, lattice.collision."
          : " No checkpoint was written before the failure.";
  throw RunError("the run diverged by step " + std::to_string(step) + ": first bad " + std::string(where) + ", " +
                 what + "." + region + " " + cause + fix + ckpt);
}

// The end of a run with output.averages: the statistics come to the host (gathered to rank 0 under MPI, a
// collective call), rank 0 writes them as the frame of RUN/mean/. A run stopped early (SIGINT/SIGTERM) has not
// covered its window: nothing is written, and the statistics, which the checkpoint does not keep, are lost.
void Simulation::write_mean_fields(const GridInfo& grid, const Attributes& attrs, bool root) {
  if (mean_start_ < 0) return;
  if (step_ < units_.total_steps || mean_.samples == 0) {
    if (root)
      spdlog::warn("mean fields not written: the run stopped at step {} before the end of its averaging window "
                   "(step {} to {}); a run continued with --restart averages from its checkpoint on",
                   step_, mean_start_, units_.total_steps);
    return;
  }
  FieldAverages a;
  backend_->read_averages(a);
  if (a.samples != mean_.samples)
    throw std::logic_error("the backend holds " + std::to_string(a.samples) + " mean-field samples, the run took " +
                           std::to_string(mean_.samples));
  if (root) {
    const MeanFrame frame = build_mean_frame(domain_, a, u_ref_);
    const FieldPrecision precision =
        case_.output_precision == "fp16" ? FieldPrecision::FP16 : FieldPrecision::FP32;
    write_mean_frame(opt_.output_dir, grid, mean_attributes(attrs, mean_), frame, mean_, case_.formats, precision);
    spdlog::info("mean fields: {} samples every {} steps, steps {}-{} (convective times {:.4g}-{:.4g}), written to {}",
                 mean_.samples, mean_.every, mean_.first_step, mean_.last_step, mean_.first_time, mean_.last_time,
                 (opt_.output_dir / "mean").string());
  }
  mean_written_ = true;
}

// What run() writes the run folder with: forces.csv, the frame writers and the output pipeline behind them, and
// the frames' times (those of earlier parts of the run first).
struct Simulation::Outputs {
  std::optional<ForcesCsv> csv;  // rank 0
  std::vector<double> frame_times;
  GridInfo grid;
  Attributes attrs;
  FrameRequest request;
  std::unique_ptr<BlockFieldWriter> collective;  // MPI with a parallel HDF5: this rank's block of the HDF5 frames
  std::unique_ptr<AsyncFrameWriter> frames;
  // Refined levels 1, 2, ...: each level's own frames (its grid at its resolution) in levels/level<ℓ>/, the same
  // formats and steps as level 0's; with the backend's levels they come from.
  std::vector<std::unique_ptr<AsyncFrameWriter>> level_frames;
  RefinedLevels* levels = nullptr;
  bool fields_on = false;      // frames every output.every steps
  bool gather = false;         // rank 0's writers need the whole grid (gathered from every rank under MPI)
  bool device_frames = false;  // the backend computes the finished fields
  int in_flight = 0;
  double collective_seconds = 0;
};

RunResult Simulation::run() {
  const bool resuming = resume_.has_value();
  const std::int64_t first_step = resuming ? resume_->step : 0;
  if (ran_ || step_ != first_step)
    throw std::logic_error("Simulation::run: " + std::string(ran_ ? "this simulation has run already"
                                                                  : "advance() has moved it from its start") +
                           "; a run folder holds one whole run (make a new Simulation)");
  ran_ = true;
  // MPI: rank 0 writes every file and prints; the other ranks take part in the collective backend calls only,
  // and, with a parallel HDF5, in writing the HDF5 frame files (each rank its own block).
  const bool root = !opt_.solver.ranks || opt_.solver.ranks->root();
  Outputs out = open_outputs(root);
  plan_steps(root);
  RunResult r = run_steps(out, root);
  write_summary(out, r, root);
  return r;
}

// The run folder's case.yaml, forces.csv (continued on a restart) and frame writers, and the output pipeline.
Simulation::Outputs Simulation::open_outputs(bool root) {
  const bool resuming = resume_.has_value();
  const std::int64_t first_step = resuming ? resume_->step : 0;
  const auto& dir = opt_.output_dir;
  const int dims = dimensions(case_.stencil);
  const double cells = double(domain_.cells());
  const double u_ref = u_ref_;
  const std::optional<LoadIntegrator>& loads = loads_;
  const std::optional<ForceReference>& ref = ref_;
  const double area = area_;
  Outputs o;

  if (root) write_file_atomically(dir / "case.yaml", case_.yaml_text + "\n");

  std::vector<std::pair<std::string, std::string>> header = {
      {"case", case_.name},
      {"backend", backend_->name()},
      {"reynolds", std::to_string(case_.reynolds)},
      {"mach", std::to_string(case_.mach)},
      {"angle_of_attack_deg", std::to_string(case_.angle_of_attack_deg)},
      {"reference_length_cells", std::to_string(units_.length_cells)},
      {"reference_area_cells", std::to_string(area)},
      {"u_lattice", std::to_string(u_ref)},
      {"force_units", "lattice units (rho=1, cell, step)"},
      {"coefficients", "C = F / (0.5 rho U^2 A); time in convective times L/U"}};
  // The drag's pressure and skin-friction parts (Backend::wall_pressure_force) after the coefficients.
  std::vector<std::string> extra_columns = {"Cd_pressure", "Cd_friction"};
  header.push_back({"drag_split", "Cd = Cd_pressure + Cd_friction; pressure part: each link into the body carries "
                                  "2 w_i rho c_i at its cell's density (docs/forces.md)"});
  if (loads) {
    const auto load_columns = LoadIntegrator::csv_columns(dims);
    extra_columns.insert(extra_columns.end(), load_columns.begin(), load_columns.end());
    header.push_back({"moment_point_cells", std::to_string(ref->moment_point[0]) + " " +
                                                std::to_string(ref->moment_point[1]) + " " +
                                                std::to_string(ref->moment_point[2])});
    header.push_back({"moments", dims == 3 ? "about the moment point and the x (roll), y (yaw), z (pitch) axes; Croll, "
                                             "Cyaw = M / (0.5 rho U^2 A b) with b = A / reference length, Cpitch = -Mz "
                                             "/ (0.5 rho U^2 A c) (nose-up positive)"
                                           : "about the moment point (a section's quarter chord unless forces."
                                             "moment_point moves it), per cell of span; Cpitch = -Mz / (0.5 rho U^2 "
                                             "c^2) (nose-up positive)"});
    if (ref->half_model) header.push_back({"half_model", "symmetry plane at z = 0: coefficients of the full body"});
  }
  if (root)
    o.csv.emplace(resuming ? ForcesCsv::resume(dir / "forces.csv", header, dims, first_step, extra_columns)
                           : ForcesCsv(dir / "forces.csv", header, dims, extra_columns));

  o.frame_times = resuming ? resume_->frame_times : std::vector<double>{};
  const std::vector<double>& frame_times = o.frame_times;
  std::vector<std::unique_ptr<FieldWriter>> writers;
  o.grid = grid_info(case_, units_);
  o.attrs = run_attributes(case_, units_);
  const GridInfo& grid = o.grid;
  const Attributes& attrs = o.attrs;
  // Refined runs: every level's VTK frames as cell data, level 0's indexing them per frame (.vthb: ParaView's
  // overlapping AMR); a uniform grid's as point data at the cell centres.
  auto* refined = dynamic_cast<RefinedLevels*>(backend_.get());
  auto vtk_layout = [&](int level) {
    VtkLayout v;
    if (!refined) return v;
    v.cell_data = true;
    v.dims = dims;
    const std::int64_t cells = refined->domain(level).cells();
    v.shown_elsewhere.resize(std::size_t(cells));
    for (std::int64_t n = 0; n < cells; ++n) v.shown_elsewhere[std::size_t(n)] = !refined->owned(level, n);
    if (level > 0) return v;
    for (int a = 0; a < 3; ++a)
      v.amr_origin[std::size_t(a)] = grid.origin[std::size_t(a)] - (a < dims ? 0.5 * grid.spacing[std::size_t(a)] : 0.0);
    for (int l = 0; l < refined->levels(); ++l) {
      const DomainData& d = refined->domain(l);
      const GridInfo g = level_grid_info(case_, units_, d, l);
      VtkAmrLevel b;
      const std::int64_t n[3] = {d.nx, d.ny, d.nz};
      for (int a = 0; a < 3; ++a) {
        b.lo[a] = d.origin[a];
        b.n[a] = n[a];
        b.spacing[a] = g.spacing[std::size_t(a)];
      }
      b.folder = l == 0 ? "." : "../levels/level" + std::to_string(l) + "/vtk";
      v.amr_levels.push_back(b);
    }
    return v;
  };
  const bool field_output = case_.output_every > 0 || !frame_times.empty();
  auto format_on = [&](const char* f) {
    return field_output && std::find(case_.formats.begin(), case_.formats.end(), f) != case_.formats.end();
  };
  // MPI with a parallel HDF5: every rank writes its own block of each HDF5 frame file, collectively, on this
  // thread (the writer thread makes no MPI calls). Otherwise rank 0 writes the frames gathered from every rank.
  const FieldPrecision precision = case_.output_precision == "fp16" ? FieldPrecision::FP16 : FieldPrecision::FP32;
  if (blocks_ && format_on("hdf5")) {
    if (hdf5_collective_available())
      o.collective = make_collective_hdf5_writer(dir, grid, attrs, frame_times, root, precision);
    if (root && o.collective)
      spdlog::info("MPI: HDF5 frames written collectively by {} ranks (parallel HDF5, MPI-IO)",
                   opt_.solver.ranks->size());
    else if (root)
      spdlog::info("MPI: HDF5 frames gathered to rank 0 and written there (this aerolbm is linked with a serial "
                   "HDF5; build with an MPI build of HDF5 for collective output)");
  }
  if (root) {
    if (format_on("hdf5") && !o.collective)
      writers.push_back(make_hdf5_writer(dir, grid, attrs, frame_times, precision));
    if (format_on("vtk")) writers.push_back(make_vtk_writer(dir, grid, attrs, frame_times, vtk_layout(0)));
  }
  o.request = FrameRequest::from_names(case_.fields);
  // The body's surface with Cp and C_f beside every frame (src/io/surface_writer.hpp: 3D VTK polydata, 2D a
  // table), when the frames carry the pressure and the velocity it is made from (output.fields; the default). A
  // field list without them keeps the frames as small as asked, without the surface.
  const auto field_asked = [&](const char* f) {
    return std::find(case_.fields.begin(), case_.fields.end(), f) != case_.fields.end();
  };
  bool surface_on = false;
  // Refined levels (2D bodies): the surface is sampled on the finest level that holds the body's wall, at its
  // resolution, from that level's frames (its writer joins that level's output pipeline below).
  o.levels = dynamic_cast<RefinedLevels*>(backend_.get());
  int surface_level = 0;
  if (o.levels) surface_level = o.levels->body_level();
  std::unique_ptr<FieldWriter> level_surface;
  if ((format_on("hdf5") || format_on("vtk")) && body_ && field_asked("pressure") && field_asked("velocity")) {
    auto triangles = dims == 3 ? body_->surface() : std::vector<Triangle>{};
    auto outline = dims == 2 ? body_->outline() : std::vector<Vec3>{};
    if (!triangles.empty() || outline.size() >= 3) {
      if (root && surface_level > 0) {
        // The surface in the level's own cells: the body made at its resolution, shifted by its grid's origin.
        Case fine = case_;
        fine.chord_cells = case_.chord_cells * double(std::int64_t(1) << surface_level);
        const auto fine_body = make_body(fine);
        const DomainData& d = o.levels->domain(surface_level);
        const GridInfo g = level_grid_info(case_, units_, d, surface_level);
        auto shift = [&](Vec3& v) {
          for (int a = 0; a < dims; ++a) v[std::size_t(a)] -= double(d.origin[a]);
        };
        SurfaceMesh mesh;
        if (dims == 3) {
          triangles = fine_body->surface();
          for (Triangle& t : triangles)
            for (Vec3& v : t) shift(v);
          mesh = surface_mesh(triangles, d, g);
        } else {
          outline = fine_body->outline();
          for (Vec3& v : outline) shift(v);
          mesh = surface_outline(outline, d, g);
        }
        mesh.nu_lattice = units_.nu_lattice * double(std::int64_t(1) << surface_level);  // τ − ½ doubles per level
        mesh.u_lattice = u_ref;
        level_surface = dims == 3 ? make_surface_writer(dir, std::move(mesh), attrs, frame_times)
                                  : make_surface_csv_writer(dir, std::move(mesh), frame_times);
      } else if (root) {
        SurfaceMesh mesh = dims == 3 ? surface_mesh(triangles, domain_, grid) : surface_outline(outline, domain_, grid);
        mesh.nu_lattice = units_.nu_lattice;
        mesh.u_lattice = u_ref;
        writers.push_back(dims == 3 ? make_surface_writer(dir, std::move(mesh), attrs, frame_times)
                                    : make_surface_csv_writer(dir, std::move(mesh), frame_times));
      }
      surface_on = true;
    }
  }
  o.fields_on = !case_.formats.empty() && case_.output_every > 0;
  o.gather = format_on("vtk") || surface_on || (format_on("hdf5") && !o.collective);
  // The output pipeline holds as many frames as fit in its memory budget; the backend computes the finished fields
  // itself where it can (the GPU: kernels/cuda/frame_fields.cu), else the pipeline builds them on the host.
  const std::vector<std::string>& frame_names = case_.fields;
  FieldsTransferOptions transfer;
  transfer.max_in_flight = frames_in_flight(frame_host_bytes(frame_names, dims == 3, cells, false));
  transfer.frame_fields = true;
  transfer.spec = o.request.device_spec(u_ref, units_.dx);
  o.device_frames = o.fields_on && o.gather && backend_->configure_fields_transfer(transfer);
  o.in_flight = o.device_frames ? transfer.max_in_flight
                                : frames_in_flight(frame_host_bytes(frame_names, dims == 3, cells, true));
  o.frames = std::make_unique<AsyncFrameWriter>(domain_, std::move(writers), u_ref, units_.dx, o.request,
                                                std::size_t(o.in_flight));
  if (o.levels && root && o.fields_on) {
    for (int l = 1; l < o.levels->levels(); ++l) {
      const std::filesystem::path level_dir = dir / "levels" / ("level" + std::to_string(l));
      create_output_folder(level_dir);
      const DomainData& d = o.levels->domain(l);
      const GridInfo g = level_grid_info(case_, units_, d, l);
      Attributes a = attrs;
      a.numbers.push_back({"refined_level", double(l)});
      std::vector<std::unique_ptr<FieldWriter>> w;
      if (format_on("hdf5")) w.push_back(make_hdf5_writer(level_dir, g, a, frame_times, precision));
      if (format_on("vtk")) w.push_back(make_vtk_writer(level_dir, g, a, frame_times, vtk_layout(l)));
      if (l == surface_level && level_surface) w.push_back(std::move(level_surface));
      const double dx = units_.dx / double(std::int64_t(1) << l);
      o.level_frames.push_back(std::make_unique<AsyncFrameWriter>(
          d, std::move(w), u_ref, dx, o.request,
          std::size_t(frames_in_flight(frame_host_bytes(frame_names, dims == 3, double(d.cells()), true)))));
    }
  }
  return o;
}

// The run's step schedule: frames every output.every steps, checkpoints, and with output.averages the mean
// fields' window (its samples; a restart inside the window averages from its checkpoint on).
void Simulation::plan_steps(bool root) {
  const bool resuming = resume_.has_value();
  const std::int64_t first_step = resuming ? resume_->step : 0;
  const std::int64_t total = units_.total_steps;
  if (case_.averages) {
    // The window of the mean fields is the force coefficients' (time.average_last): its last average_steps steps.
    mean_start_ = total - std::clamp<std::int64_t>(units_.average_steps, 0, total);
    mean_ = MeanWindow{};
    mean_.every = std::max<std::int64_t>(1, case_.averages_every);
    mean_.window_start_time = double(mean_start_) * units_.dt;
    // The first step an uninterrupted run samples: a checkpoint at or after it has lost the samples before it.
    const std::int64_t first_sample = (mean_start_ + mean_.every - 1) / mean_.every * mean_.every;
    if (resuming && first_step >= first_sample) {
      // The statistics are not in the checkpoint: the averages start again here (documented in case_file.md).
      mean_.restarted_from_step = first_step;
      if (root)
        spdlog::warn("continuing from step {}, inside the averaging window (from step {}): the mean fields average "
                     "steps {}-{} only (checkpoints do not keep their statistics)",
                     first_step, mean_start_, first_step, total);
    }
    schedule_.means = {mean_.every, mean_start_};
  }
  schedule_.frames = {case_.output_every, 0};
  schedule_.checkpoints = {checkpoint_interval(case_, total), 0};
}

// Steps to the end of the run (or a stop request) in the schedule's chunks: force samples into forces.csv, the
// watchdog, frames, checkpoints, the progress line; then the output pipeline is drained and the mean fields
// written.
RunResult Simulation::run_steps(Outputs& o, bool root) {
  const bool resuming = resume_.has_value();
  const std::int64_t first_step = resuming ? resume_->step : 0;
  const auto& dir = opt_.output_dir;
  const double cells = double(cell_updates_per_step(*backend_, domain_));  // refined: every level's sub-steps
  const double u_ref = u_ref_;
  const std::optional<LoadIntegrator>& loads = loads_;
  const std::int64_t total = units_.total_steps;
  const ForceHistory& history = history_;
  AsyncFrameWriter& frames = *o.frames;
  std::vector<double>& frame_times = o.frame_times;
  std::int64_t last_checkpoint = resuming ? first_step : -1;
  Progress progress(total, cells, first_step);
  RunResult r;
  r.backend = backend_->name();
  r.device = backend_->device();
  r.kernel = backend_->kernel();
  r.first_step = first_step;

  // The checkpoint is taken only from a state the watchdog has just passed, after every frame up to this step is
  // on disk, so that it never replaces a good checkpoint with a bad state and the frames it counts exist.
  // It is written beside the frames on the output pipeline, and put in place once every frame before it is.
  auto write_checkpoint_now = [&](std::int64_t step) {
    Checkpoint c = checkpoint_identity();
    c.step = step;
    c.time = double(step) * units_.dt;
    backend_->read_populations(c.populations);
    for (const auto& s : history.samples()) {
      c.force_steps.push_back(s.step);
      c.force_times.push_back(s.time);
      c.cd.push_back(s.cd);
      c.cl.push_back(s.cl);
      c.cs.push_back(s.cs);
      c.cd_pressure.push_back(s.cd_pressure);
      if (loads) {
        c.croll.push_back(s.croll);
        c.cyaw.push_back(s.cyaw);
        c.cpitch.push_back(s.cpitch);
      }
    }
    c.frame_times = frame_times;
    c.case_yaml = case_.yaml_text;
    for (auto& lf : o.level_frames) lf->finish();  // every level's frames in place before the checkpoint counts them
    if (root) frames.submit_checkpoint(std::move(c), dir / "checkpoint.h5");
    last_checkpoint = step;
  };

  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t& step = step_;
  double cd = 0, cl = 0;
  if (!history.samples().empty()) {
    cd = history.samples().back().cd;
    cl = history.samples().back().cl;
  }
  while (step < total) {
    // Chunks end at every frame, checkpoint and watchdog scan, which also bounds how long a stop request waits.
    const std::int64_t next = schedule_.chunk_end(step);
    bool checked = false;
    std::vector<double> per_cell;  // this step's force per near-wall cell (3D bodies), fetched once
    for (const Sample& s : advance_chunk(next, last_checkpoint, checked, per_cell)) {
      cd = s.cd;
      cl = s.cl;
      if (o.csv) o.csv->append(s.step, double(s.step) * units_.dt, s.force, s.cd, s.cl, s.cs, s.extra);
    }
    const double time = double(step) * units_.dt;
    auto cell_forces = [&]() -> const std::vector<double>& {
      if (per_cell.empty()) backend_->wall_force_cells(per_cell);
      return per_cell;
    };
    if (!checked && schedule_.due(schedule_.watchdog, step)) {
      watchdog(step, last_checkpoint);
      checked = true;
    }
    if (o.fields_on && schedule_.due(schedule_.frames, step)) {
      // The copy to the host runs on its own stream and the fields and files are made on the writer thread,
      // both while the next steps run.
      if (loads && dims_ == 3 && !domain_.wall_cells.empty()) {
        const auto slices = loads->spanwise(cell_forces());  // collective under MPI: every rank asks
        if (root) create_output_folder(dir / "spanwise");
        if (root) write_spanwise_csv((dir / "spanwise" / ("spanwise_" + frame_number(std::int64_t(frame_times.size())) + ".csv"))
                               .string(),
                           step, time, slices);
      }
      if (o.collective) {
        const auto t_write = std::chrono::steady_clock::now();
        const BlockFields b = blocks_->block_fields();
        Frame block = build_frame_box(domain_, b.input, b.rho.data(), b.u.data(), b.owned, u_ref, units_.dx, o.request);
        block.step = step;
        block.time = time;
        o.collective->write(block, b.owned);
        o.collective_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t_write).count();
      }
      if (o.gather) {
        FrameJob job;
        job.step = step;
        job.time = time;
        job.fields = backend_->start_fields_transfer();
        if (root) frames.submit(std::move(job));
        for (std::size_t l = 0; l < o.level_frames.size(); ++l) {
          FrameJob level_job;
          level_job.step = step;
          level_job.time = time;
          level_job.fields = o.levels->level_fields_transfer(int(l) + 1);
          o.level_frames[l]->submit(std::move(level_job));
        }
      }
      frame_times.push_back(time);
    }
    // Every rank stops at the same step when any of them was signalled.
    int signal = stop_requested();
    if (!signal && opt_.stop_check) signal = opt_.stop_check();
    if (opt_.solver.ranks) signal = opt_.solver.ranks->max_over_ranks(signal);
    const bool periodic = schedule_.due(schedule_.checkpoints, step);
    if (periodic || signal) {
      if (!checked) watchdog(step, last_checkpoint);
      write_checkpoint_now(step);
    }
    if (opt_.progress && root) progress.update(step, cd, cl);
    if (signal) {
      r.stopped_by_signal = signal;
      break;
    }
  }
  frames.finish();
  for (auto& lf : o.level_frames) lf->finish();
  write_mean_fields(o.grid, o.attrs, root);
  r.frames = int(frame_times.size());
  r.output_seconds = frames.busy_seconds() + o.collective_seconds;
  r.frame_bytes = frames.bytes_written();
  for (const auto& lf : o.level_frames) r.frame_bytes += lf->bytes_written();
  r.checkpoint_bytes = frames.checkpoint_bytes();
  r.frames_in_flight = o.in_flight;
  if (opt_.progress && root) progress.finish();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.steps = step;
  r.checkpoint_step = last_checkpoint;
  r.mlups = r.wall_seconds > 0 ? cells * double(step - first_step) / r.wall_seconds * 1e-6 : 0.0;
  return r;
}

// The coefficients' statistics over the averaging window into the result, and summary.json (rank 0).
void Simulation::write_summary(const Outputs& o, RunResult& r, bool root) {
  const bool resuming = resume_.has_value();
  const std::int64_t first_step = resuming ? resume_->step : 0;
  const auto& dir = opt_.output_dir;
  const int dims = dimensions(case_.stencil);
  const std::int64_t total = units_.total_steps;
  const ForceHistory& history = history_;
  const std::int64_t step = step_;
  const std::int64_t last_checkpoint = r.checkpoint_step;
  const bool device_frames = o.device_frames;
  const double t_end = double(step) * units_.dt;
  const auto window = history.window(t_end - double(units_.average_steps) * units_.dt - 1e-12);
  r.cd_mean = ForceHistory::mean_cd(window);
  r.cl_mean = ForceHistory::mean_cl(window);
  if (!history.samples().empty()) {
    r.cd_final = history.samples().back().cd;
    r.cl_final = history.samples().back().cl;
  }
  r.window = analyse_window(window, dims, double(units_.average_steps) * units_.dt);
  r.strouhal = r.window.strouhal();

  Json s = Json::object();
  s.set("case", case_.name);
  s.set("description", case_.description);
  s.set("status", r.stopped_by_signal ? "stopped" : "complete");
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
  if (!case_.refinement_boxes.empty()) {
    g.set("refined_levels", std::int64_t(case_.refinement_boxes.size() + 1));
    g.set("cell_updates_per_step", cell_updates_per_step(*backend_, domain_));
  }
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
  s.set("steps_planned", total);
  s.set("restarted_from_step", resuming ? Json(first_step) : Json(nullptr));
  s.set("checkpoint_step", last_checkpoint >= 0 ? Json(last_checkpoint) : Json(nullptr));
  s.set("convective_times", t_end);
  s.set("wall_time_s", r.wall_seconds);
  s.set("mlups", r.mlups);
  s.set("frames", r.frames);
  s.set("output_writer_busy_s", r.output_seconds);
  Json out = Json::object();
  out.set("frame_bytes_written", std::int64_t(r.frame_bytes));
  out.set("checkpoint_bytes_written", std::int64_t(r.checkpoint_bytes));
  out.set("frames_in_flight_max", r.frames_in_flight);
  out.set("fields_computed_on", device_frames ? "device" : "host");
  out.set("precision", case_.output_precision);
  s.set("output", out);
  if (mean_start_ >= 0) {
    Json m = Json::object();
    m.set("written", mean_written_);
    m.set("folder", "mean");
    m.set("samples", mean_.samples);
    m.set("sample_every_steps", mean_.every);
    m.set("window_start_time", mean_.window_start_time);
    m.set("first_sample_step", mean_.samples ? Json(mean_.first_step) : Json(nullptr));
    m.set("last_sample_step", mean_.samples ? Json(mean_.last_step) : Json(nullptr));
    m.set("first_sample_time", mean_.samples ? Json(mean_.first_time) : Json(nullptr));
    m.set("last_sample_time", mean_.samples ? Json(mean_.last_time) : Json(nullptr));
    m.set("restarted_from_step", mean_.restarted_from_step >= 0 ? Json(mean_.restarted_from_step) : Json(nullptr));
    s.set("mean_fields", m);
  } else {
    s.set("mean_fields", Json(nullptr));
  }
  Json co = Json::object();
  co.set("averaging_window_convective_times", double(units_.average_steps) * units_.dt);
  co.set("cd_mean", r.cd_mean);
  co.set("cl_mean", r.cl_mean);
  co.set("cd_final", r.cd_final);
  // The drag's parts over the same window (NaN-free samples only; null when none, e.g. an older checkpoint's).
  const CoefficientStatistics* cdp = r.window.find("cd_pressure");
  const CoefficientStatistics* cdf = r.window.find("cd_friction");
  co.set("cd_pressure_mean", cdp ? Json(cdp->mean) : Json(nullptr));
  co.set("cd_friction_mean", cdf ? Json(cdf->mean) : Json(nullptr));
  co.set("cl_final", r.cl_final);
  // The pitching moment about the moment point (nose-up positive), where the run has one (every body).
  const CoefficientStatistics* cm = r.window.find("cpitch");
  r.cpitch_mean = cm ? std::optional<double>(cm->mean) : std::nullopt;
  co.set("cpitch_mean", cm ? Json(cm->mean) : Json(nullptr));
  co.set("strouhal", r.strouhal ? Json(*r.strouhal) : Json(nullptr));
  add_window_analysis(co, r.window);
  s.set("coefficients", co);
  if (root) write_json_atomically(dir / "summary.json", s);
}

}  // namespace aerolbm
