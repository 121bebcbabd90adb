#pragma once
// Drives one run: owns the backend, advances it, samples forces every K steps, writes frames every N steps,
// checks the state every W steps (watchdog), writes checkpoints, stops gracefully on SIGINT/SIGTERM, and
// finishes with summary.json. Everything it writes goes into the run folder.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"
#include "src/io/checkpoint.hpp"
#include "src/solver/assemble_solver.hpp"
#include "src/solver/block_fields.hpp"
#include "src/solver/body_loads.hpp"
#include "src/solver/force_history.hpp"
#include "src/solver/mean_frame.hpp"
#include "src/solver/rank_context.hpp"
#include "src/solver/step_schedule.hpp"
#include "src/solver/window_analysis.hpp"

namespace aerolbm {

struct RunOptions {
  // The backend, CPU threads and, for MPI runs, the ranks (assemble_solver). Under MPI only rank 0 writes files and
  // prints; every rank makes the same backend calls (they are collective).
  SolverOptions solver;
  std::filesystem::path output_dir;  // the run folder (must exist and be writable)
  bool progress = true;
  // Asked after every chunk of steps, beside SIGINT/SIGTERM (stop_request.hpp): a signal number (not 0) stops the
  // run as that signal would. The Python module passes Ctrl-C on this way, its own handler left in place.
  std::function<int()> stop_check;
};

struct RunResult {
  std::string backend, device, kernel;
  std::int64_t steps = 0;        // the step the run reached
  std::int64_t first_step = 0;   // where it started (the checkpoint's step on a restart)
  double wall_seconds = 0;   // whole loop, output included
  double mlups = 0;          // cells × steps / wall time
  double cd_mean = 0, cl_mean = 0, cd_final = 0, cl_final = 0;
  std::optional<double> strouhal;  // = window.strouhal()
  std::optional<double> cpitch_mean;  // the window's mean pitching moment coefficient (runs with a body)
  WindowAnalysis window;             // statistics of the averaging window and the convergence verdict
  int frames = 0;            // frames in the run folder, those of earlier parts of the run included
  double output_seconds = 0;  // time frames and checkpoints were on their way to the disk (overlapped with the steps)
  std::uint64_t frame_bytes = 0;       // bytes of frame files and their index files written by this run
  std::uint64_t checkpoint_bytes = 0;  // bytes of checkpoints written by this run
  int frames_in_flight = 0;            // the output pipeline's bound (src/solver/output_budget.hpp)
  int stopped_by_signal = 0;  // SIGINT/SIGTERM: the run stopped early after writing a checkpoint
  std::int64_t checkpoint_step = -1;  // step of the checkpoint in the folder, -1 if none
};

class Simulation {
 public:
  Simulation(const Case& c, const LatticeUnits& u, std::unique_ptr<Body> body, RunOptions opt);
  ~Simulation();
  // Continue from a checkpoint instead of the initial state. Throws CaseError when the checkpoint belongs to
  // another lattice, grid or geometry, or is at or past the end of this run.
  void resume(Checkpoint c);
  // The whole run into RunOptions::output_dir, from the initial state or the checkpoint given to resume(). Once per
  // Simulation, and not after advance(): throws std::logic_error then.
  RunResult run();
  // Advances the state by `steps` steps without a run folder (the Python module's Simulation.step): the chunks,
  // force samples (into history()) and watchdog scans of run(), nothing written. `stop` (may be empty) is asked
  // after every chunk (at most watchdog.every steps); true ends the call there. Returns the steps done. Throws
  // RunError when the state diverges, as run() does.
  std::int64_t advance(std::int64_t steps, const std::function<bool()>& stop = {});
  // `steps` bare steps, no force samples and no watchdog, timed on the device (Backend::timed_run): benchmarks.
  double timed_steps(std::int64_t steps) {
    const double seconds = backend_->timed_run(steps);
    step_ += steps;
    return seconds;
  }
  std::int64_t step() const { return step_; }  // steps done so far (the checkpoint's step after resume())
  const ForceHistory& history() const { return history_; }  // Cd, Cl, Cs every forces.every steps
  // Force on the body now (lattice units) and its coefficients, as a sample of the history would have them.
  CoefficientSample coefficients_now();
  const Case& config() const { return case_; }
  const LatticeUnits& units() const { return units_; }
  // Where run() writes (the Python module chooses it after construction). Before run().
  void set_output_dir(const std::filesystem::path& dir) { opt_.output_dir = dir; }
  Backend& backend() { return *backend_; }
  const DomainData& domain() const { return domain_; }

 private:
  struct Sample {  // one force sample: what forces.csv gets
    std::int64_t step = 0;
    std::array<double, 3> force{};
    double cd = 0, cl = 0, cs = 0;
    std::vector<double> extra;  // Cd_pressure, Cd_friction, then for 3D bodies LoadIntegrator::csv_values
  };
  struct Outputs;
  // run(), in its three parts: the run folder's outputs, the step schedule's frames, checkpoints and mean fields,
  // the stepping itself, then the summary.
  Outputs open_outputs(bool root);
  void plan_steps(bool root);
  RunResult run_steps(Outputs& o, bool root);
  void write_summary(const Outputs& o, RunResult& r, bool root);
  std::vector<Sample> advance_chunk(std::int64_t next, std::int64_t last_checkpoint, bool& checked,
                                    std::vector<double>& per_cell);
  void write_mean_fields(const GridInfo& grid, const Attributes& attrs, bool root);
  void watchdog(std::int64_t step, std::int64_t last_checkpoint);
  Checkpoint checkpoint_identity() const;
  Case case_;
  LatticeUnits units_;
  std::unique_ptr<Body> body_;
  RunOptions opt_;
  DomainData domain_;
  std::unique_ptr<Backend> backend_;
  BlockFieldsSource* blocks_ = nullptr;  // MPI: backend_'s block fields (collective HDF5 output); else null
  std::optional<Checkpoint> resume_;  // populations already in the backend; the rest is used by run()
  // Forces: every body's moments (and a 3D body's spanwise loads) come from the per-cell forces (loads_); in 3D
  // the force too, in 2D the backend's totals (as before moments were added). coef_ turns a force into a
  // coefficient (1 / (½ U² A)).
  std::optional<LoadIntegrator> loads_;
  int dims_ = 2;
  std::optional<ForceReference> ref_;
  double u_ref_ = 1, area_ = 1, coef_ = 1;
  // Refined levels: loads_ works in the lattice units of the level that holds the body (its grid, its reference
  // scaled); its forces and moments times these are level 0's (2^{−(D−1)ℓ} and 2^{−Dℓ}).
  double load_force_scale_ = 1, load_moment_scale_ = 1;
  ForceHistory history_;
  std::int64_t step_ = 0;
  bool ran_ = false;
  StepSchedule schedule_;  // force samples and watchdog scans; run() adds frames, checkpoints, mean fields
  // The mean fields (output.averages), set up by run(): a sample at every multiple of mean_.every from
  // mean_start_ on and at the run's end (−1: off; advance() takes none).
  std::int64_t mean_start_ = -1;
  MeanWindow mean_;
  bool mean_written_ = false;
};

// Run failed while running (divergence, I/O error): exit status 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace aerolbm
