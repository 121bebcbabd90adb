#pragma once
// Drives one run: owns the backend, advances it, samples forces every K steps, writes frames every N steps, and
// finishes with summary.json. Everything it writes goes into the run folder.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

struct RunOptions {
  std::string backend = "auto";      // auto | cpu | cuda
  std::filesystem::path output_dir;  // the run folder (must exist and be writable)
  int threads = 0;                   // CPU threads, 0 = default
  bool progress = true;
};

struct RunResult {
  std::string backend, device, kernel;
  std::int64_t steps = 0;
  double wall_seconds = 0;   // whole loop, output included
  double mlups = 0;          // cells × steps / wall time
  double cd_mean = 0, cl_mean = 0, cd_final = 0, cl_final = 0;
  std::optional<double> strouhal;
  int frames = 0;
  double output_seconds = 0;  // time the writer thread spent on frames (overlapped with the steps)
};

class Simulation {
 public:
  Simulation(const Case& c, const LatticeUnits& u, std::unique_ptr<Body> body, RunOptions opt);
  ~Simulation();
  RunResult run();
  Backend& backend() { return *backend_; }
  const DomainData& domain() const { return domain_; }

  static constexpr std::int64_t kWatchEvery = 100;  // one extra pass over the state: about 1 % of the run

 private:
  void watchdog(std::int64_t step);
  Case case_;
  LatticeUnits units_;
  std::unique_ptr<Body> body_;
  RunOptions opt_;
  DomainData domain_;
  std::unique_ptr<Backend> backend_;
};

// Run failed while running (divergence, I/O error): exit status 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace aerolbm
