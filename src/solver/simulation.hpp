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
#include "src/solver/rank_context.hpp"
#include "src/solver/window_analysis.hpp"

namespace aerolbm {

struct RunOptions {
  std::string backend = "auto";      // auto | cpu | cuda
  std::filesystem::path output_dir;  // the run folder (must exist and be writable)
  int threads = 0;                   // CPU threads, 0 = default
  bool progress = true;
  // MPI runs (src/parallel): the ranks, and the backend of the whole grid that runs this rank's block. Only rank 0
  // writes files and prints; every rank makes the same backend calls (they are collective).
  std::shared_ptr<RankContext> ranks;
  std::function<std::unique_ptr<Backend>(const BackendConfig&, const DomainData&, const PhysicsParams&)> make_backend;
};

struct RunResult {
  std::string backend, device, kernel;
  std::int64_t steps = 0;        // the step the run reached
  std::int64_t first_step = 0;   // where it started (the checkpoint's step on a restart)
  double wall_seconds = 0;   // whole loop, output included
  double mlups = 0;          // cells × steps / wall time
  double cd_mean = 0, cl_mean = 0, cd_final = 0, cl_final = 0;
  std::optional<double> strouhal;  // = window.strouhal()
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
  RunResult run();
  Backend& backend() { return *backend_; }
  const DomainData& domain() const { return domain_; }

 private:
  void watchdog(std::int64_t step, std::int64_t last_checkpoint);
  Checkpoint checkpoint_identity() const;
  Case case_;
  LatticeUnits units_;
  std::unique_ptr<Body> body_;
  RunOptions opt_;
  DomainData domain_;
  std::unique_ptr<Backend> backend_;
  std::optional<Checkpoint> resume_;  // populations already in the backend; the rest is used by run()
};

// Run failed while running (divergence, I/O error): exit status 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace aerolbm
