#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <optional>
#include <iostream>

#include "src/app/commands.hpp"
#include "src/app/entry_points.hpp"
#include "src/app/run_folder.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/backend_select.hpp"
#include "src/io/checkpoint.hpp"
#include "src/parallel/parallel.hpp"
#include "src/solver/resources.hpp"
#include "src/solver/simulation.hpp"
#include "src/solver/stop_request.hpp"

namespace aerolbm::app {
namespace fs = std::filesystem;

namespace {

struct RunArgs {
  std::string file;
  std::string backend = "auto";
  std::string output;
  std::int64_t steps = 0;
  int threads = 0;
  std::vector<std::string> sets;
  std::string restart;  // run folder to continue
  bool overwrite = false;
  bool ignore_resources = false;
  std::string ranks_grid;  // --ranks-grid AxBxC (MPI)
  double time_limit = 0;   // seconds of wall time for the steps; 0: none
};

// The stop check's value when --time-limit has run out: SIGALRM, which aerolbm never receives otherwise (it installs
// no handler for it, so a real one would end the process).
constexpr int kTimeLimitSignal = SIGALRM;

// Set once the ranks may have diverged (rank 0 writes files the others do not): an error from then on, on one
// rank, must end them all (the others would wait in the next collective call forever).
bool g_ranks_started = false;
std::shared_ptr<RankContext> g_ranks;

int run(const RunArgs& a) {
  const auto t_start = std::chrono::steady_clock::now();  // --time-limit counts from here
  g_ranks = start_ranks();
  const bool root = !g_ranks || g_ranks->root();
  if (!root) spdlog::set_level(spdlog::level::warn);  // one log: rank 0's
  Case c = load_case(a.file, a.sets);
  const BackendKind backend = parse_backend(a.backend);
  const bool cuda = resolve_backend(backend) == BackendKind::Cuda;
  RanksGrid ranks_grid = c.ranks_grid;
  if (!a.ranks_grid.empty()) {
    try {
      ranks_grid = parse_ranks_grid(a.ranks_grid);
    } catch (const std::invalid_argument& e) {
      throw CaseError("--ranks-grid: " + std::string(e.what()) + ".");
    }
  }
  if (g_ranks && c.kernel != KernelVariant::Auto && c.kernel != KernelVariant::Pull)
    throw CaseError(c.source_file.string() + ": lattice.kernel: '" + kernel_name(c.kernel) +
                    "' is not available in a run over several MPI ranks (the halo exchange works on the "
                    "two-lattice layout). Use lattice.kernel: pull or auto (--set lattice.kernel=pull).");
  if (g_ranks && c.les_model == "wale")
    throw CaseError(c.source_file.string() + ": lattice.les.model: 'wale' is not available in a run over several "
                    "MPI ranks yet (its velocity field has no halo exchange). Run on one rank, or use "
                    "lattice.les.model: smagorinsky.");
  if (g_ranks && c.wall == WallModel::WallFunction)
    throw CaseError(c.source_file.string() + ": boundaries.wall: 'wall_model' is not available in a run over several "
                    "MPI ranks yet. Run on one rank, or use boundaries.wall: interpolated.");
  if (g_ranks && (c.lateral == FaceBC::WallModel || c.span == FaceBC::WallModel))
    throw CaseError(c.source_file.string() + ": boundaries.lateral/span: 'wall_model' is not available in a run over "
                    "several MPI ranks yet. Run on one rank, or use wall faces.");
  LatticeUnits u = lattice_units(c);
  limit_steps(u, a.steps);
  if (g_ranks) {
    // The split is chosen here, before anything is created; the backend takes it as it is.
    const std::int64_t n[3] = {u.nx, u.ny, u.nz};
    try {
      ranks_grid = choose_ranks_grid(n, dimensions(c.stencil), g_ranks->size(), ranks_grid, cuda);
    } catch (const std::invalid_argument& e) {
      throw CaseError(std::string(a.ranks_grid.empty() && c.ranks_grid[0] == 0 ? "MPI: " : "--ranks-grid / parallel.ranks_grid: ") +
                      e.what());
    }
  }
  fs::path out = a.output.empty() ? fs::path("runs") / c.name : fs::path(a.output);
  if (!a.restart.empty()) {
    if (!a.output.empty() && fs::weakly_canonical(a.output) != fs::weakly_canonical(a.restart))
      throw CaseError("--restart " + a.restart + " continues the run in that folder; --output " + a.output +
                      " names another. Leave out --output, or give the same folder.");
    if (a.overwrite) throw CaseError("--restart continues a run and --overwrite replaces one; give only one.");
    out = a.restart;
  }
  check_output_dir(out);

  // What the folder holds decides what may happen to it, before anything is written.
  std::optional<Checkpoint> checkpoint;
  if (!a.restart.empty()) {
    try {
      checkpoint = read_checkpoint(out / "checkpoint.h5");
    } catch (const std::exception& e) {
      throw CaseError("--restart " + a.restart + ": cannot read its checkpoint: " + std::string(e.what()) +
                      ". A run writes checkpoint.h5 every checkpoint.every steps and when stopped with Ctrl-C "
                      "or SIGTERM; without one it cannot be continued.");
    }
  } else if (!a.overwrite) {
    refuse_existing_run(out);
  }
  auto body = make_body(c);
  if (root) std::cout << describe(c, u) << std::flush;

  ResourceNeeds need = estimate_resources(c, u, cuda, checkpoint ? checkpoint->step : 0);
  // MPI: each rank's device holds one block of the lattice. (Host memory stays the estimate for the whole grid:
  // every rank builds the global domain, and rank 0 gathers frames and checkpoints.)
  if (g_ranks) need.device_bytes /= g_ranks->size();
  spdlog::info("estimated needs: host memory {}, {}disk {} ({} frames, checkpoint {})", format_bytes(need.host_bytes),
               cuda ? "GPU memory " + format_bytes(need.device_bytes) + ", " : std::string(),
               format_bytes(need.disk_bytes), need.frames, format_bytes(need.checkpoint_bytes));
  if (!a.ignore_resources) check_resources(need, available_resources(out, cuda), out);

  RunOptions opt;
  opt.solver.backend = backend;
  opt.solver.threads = a.threads;
  opt.solver.ranks = g_ranks;
  opt.solver.ranks_grid = ranks_grid;
  opt.output_dir = out;
  opt.progress = root;
  if (a.time_limit > 0)
    opt.stop_check = [t_start, limit = a.time_limit] {
      const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
      return used >= limit ? kTimeLimitSignal : 0;
    };
  // One process: the solver is set up before the folder is touched, so that what only setting it up finds (a
  // refined box its levels cannot couple, a backend that is not there) leaves nothing behind. MPI ranks set theirs
  // up together once every rank has checked the folder (below).
  std::optional<Simulation> sim;
  if (!g_ranks) sim.emplace(c, u, std::move(body), opt);

  // Every rank has checked the folder before rank 0 changes it.
  if (g_ranks) g_ranks->barrier();
  std::optional<RunFolderLock> lock;
  if (root) {
    fs::create_directories(out);
    lock.emplace(out);
    if (a.overwrite) remove_run_outputs(out);
  }
  if (g_ranks) {
    g_ranks->barrier();
    g_ranks_started = true;
  }
  install_stop_handlers();

  if (g_ranks) sim.emplace(c, u, std::move(body), opt);
  if (checkpoint) {
    const std::int64_t at = checkpoint->step;
    sim->resume(std::move(*checkpoint));
    checkpoint.reset();
    spdlog::info("continuing {} from its checkpoint at step {}", out.string(), at);
  }
  spdlog::info("backend {} on {} (kernel: {}), {} steps, output in {}", sim->backend().name(), sim->backend().device(),
               sim->backend().kernel(), u.total_steps, out.string());
  const RunResult r = sim->run();
  if (r.stopped_by_signal == kTimeLimitSignal) {
    spdlog::warn("stopped at the time limit ({:g} s) at step {} of {}; checkpoint written. Continue with: aerolbm run "
                 "{} --restart {} (and the same --set options)",
                 a.time_limit, r.steps, u.total_steps, a.file, out.string());
    return kStoppedEarly;
  }
  if (r.stopped_by_signal) {
    spdlog::warn("stopped by signal {} at step {} of {}; checkpoint written. Continue with: aerolbm run {} "
                 "--restart {}",
                 r.stopped_by_signal, r.steps, u.total_steps, a.file, out.string());
    return 128 + r.stopped_by_signal;
  }
  spdlog::info("done: {} steps in {:.2f} s, {:.1f} MLUPs; Cd mean {:.4f}, Cl mean {:.4f}{}", r.steps - r.first_step,
               r.wall_seconds, r.mlups, r.cd_mean, r.cl_mean,
               r.strouhal ? fmt::format(", Strouhal {:.4f}", *r.strouhal) : std::string());
  spdlog::info("{}", statistics_line(r.window));
  if (r.window.convergence.converged) {
    spdlog::info("{}", verdict_line(r.window, ""));
  } else {
    std::string hint;
    if (r.window.convergence.more_convective_times) {
      const double until = r.window.window.end_time + *r.window.convergence.more_convective_times;
      std::string end = a.steps > 0 ? fmt::format("--steps {}", std::int64_t(std::ceil(until / u.dt)))
                                    : fmt::format("--set time.convective_times={:g}", std::ceil(until));
      if (r.window.convergence.longer_window)
        end += fmt::format(" --set time.average_last={:g}", *r.window.convergence.longer_window);
      hint = r.checkpoint_step >= 0
                 ? fmt::format("aerolbm run {} --restart {} {} (and the same --set options)", a.file, out.string(), end)
                 : fmt::format("rerun with {} (this run wrote no checkpoint to continue from)", end);
    }
    spdlog::warn("{}", verdict_line(r.window, hint));
  }
  spdlog::info("wrote {}/summary.json, forces.csv{}{}", out.string(), r.frames ? ", fields (.h5/.xdmf, .pvd/.vti)" : "",
               r.checkpoint_step >= 0 ? ", checkpoint.h5" : "");
  return kOk;
}

}  // namespace

void add_run_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("run", "Run a case and write its run folder");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("case", a->file, "Case file (YAML)")->required();
  cmd->add_option("--backend", a->backend, "auto (GPU when present) | cpu | cuda")
      ->check(CLI::IsMember(enum_names(kBackendNames)));
  cmd->add_option("--output,-o", a->output, "Run folder (default: runs/<case name>)");
  cmd->add_option("--steps", a->steps, "Run exactly this many steps (overrides time.convective_times)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", a->threads, "CPU threads (default: all)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--set", a->sets, "Override a case key: key.path=value (repeatable)");
  cmd->add_option("--restart", a->restart, "Continue the run in this folder from its checkpoint.h5");
  cmd->add_flag("--overwrite", a->overwrite, "Replace the run already in the output folder");
  cmd->add_option("--time-limit", a->time_limit,
                  "Seconds of wall time: then stop as SIGTERM would (checkpoint, outputs) and exit 3; --restart "
                  "continues (leave room for the checkpoint: its size is in the log)")
      ->check(CLI::Range(0.001, 1e9));
  cmd->add_option("--ranks-grid", a->ranks_grid,
                  "MPI runs: ranks along x, y, z as AxBxC (default: parallel.ranks_grid, else chosen)");
  cmd->add_flag("--ignore-resources", a->ignore_resources,
                "Start even when the memory or disk estimate says the run does not fit");
  cmd->callback([&status, a]() {
    // MPI: before the run starts every rank meets the same errors, and rank 0 reports them; later an error may
    // be one rank's alone, so that rank reports it and ends all ranks.
    status = exit_status("run", [&] { return run(*a); }, report_on_ranks(g_ranks, g_ranks_started));
  });
}

}  // namespace aerolbm::app
