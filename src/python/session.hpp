#pragma once
// The solver as the Python module sees it (python/module.cpp binds this with pybind11): cases, simulations,
// compare and predict behind standard C++ types only, so that the binding compiles without the solver's
// dependencies (yaml-cpp, HDF5, VTK, CUDA) and can be rebuilt for another Python against an installed
// libaerolbm_session.so. Everything goes through the command line's code paths: src/case's loader (the same
// validation and messages), src/solver's Simulation (the same steps, force samples and watchdog), src/app's
// run-folder checks, compare and predict.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/util/input_error.hpp"

#define AEROLBM_SESSION_API __attribute__((visibility("default")))

namespace aerolbm::session {

// Bad input, exit status 2 on the command line (a case key, a file, an output folder, a backend that is not
// there): the command line's own error (CaseError, CompareInputError, ... derive from it) with its message, which
// names the file, line, key, what was expected and what to do. Standard library only.
using InputError = aerolbm::InputError;

// A failure while running, exit status 1 on the command line: divergence, I/O errors, --fail-above exceeded.
class AEROLBM_SESSION_API RunFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BuildInfo {
  std::string version;
  bool cuda = false;        // the CUDA backend is compiled in
  int cuda_devices = 0;     // usable CUDA devices now
  std::string devices;      // one line per device, or why there is none
};
AEROLBM_SESSION_API BuildInfo build_info();

// A velocity set: c (Q × 3, row-major) and the weights, as the kernels use them (kernels/lattice/lattice.hpp).
struct LatticeInfo {
  std::string name;
  int d = 0, q = 0;
  std::vector<int> c;
  std::vector<double> w;
};
AEROLBM_SESSION_API LatticeInfo lattice_info(const std::string& name);  // D2Q9 | D3Q19 | D3Q27

// Device-to-device copy bandwidth (GB/s, bytes read + written), median of `repeats` copies timed with CUDA
// events; 0 without CUDA. Host memcpy bandwidth likewise (OpenMP threads as the CPU backend uses).
AEROLBM_SESSION_API double device_copy_bandwidth(std::size_t bytes, int repeats);
AEROLBM_SESSION_API double host_copy_bandwidth(std::size_t bytes, int repeats, int threads);

// A validated case (src/case). Cheap to copy (shared, immutable).
class AEROLBM_SESSION_API Case {
 public:
  // `aerolbm run FILE --set KEY=VALUE ...`: the same reading, overrides and checks. Throws InputError.
  static Case from_file(const std::string& file, const std::vector<std::string>& overrides);
  // The case as YAML text (Python's dicts arrive as JSON, which is YAML). `label` names it in messages where a
  // file name would stand; relative paths in it resolve against `base_dir`.
  static Case from_text(const std::string& text, const std::string& label, const std::string& base_dir,
                        const std::vector<std::string>& overrides);
  std::string name() const;
  std::string source() const;    // the file, or the label
  std::string yaml() const;      // the case as run, after overrides (RUN/case.yaml)
  std::string describe() const;  // the lattice-unit summary `aerolbm run` and `aerolbm check` print
  std::string lattice() const;   // D2Q9 | D3Q19 | D3Q27
  // Lattice units: reference_length_cells, u_lattice, nu_lattice, tau, dx, dt, nx, ny, nz, total_steps,
  // average_steps, steps_per_convective_time; and reynolds, mach, angle_of_attack_deg.
  std::map<std::string, double> lattice_units() const;

  struct Impl;
  std::shared_ptr<const Impl> impl;
};

struct SimulationOptions {
  std::string backend = "auto";  // auto | cpu | cuda
  int threads = 0;               // CPU threads, 0: the OpenMP default
  std::int64_t steps = 0;        // > 0: exactly this many steps (--steps), else the case's
  bool progress = false;         // run(): the command line's progress display
};

struct Forces {
  std::int64_t step = 0;
  double time = 0;                  // convective times
  double cd = 0, cl = 0, cs = 0;    // coefficients as forces.csv has them
};

struct History {  // the force samples so far, every forces.every steps (forces.csv's rows)
  std::vector<std::int64_t> step;
  std::vector<double> time, cd, cl, cs;
};

struct RunSummary {  // summary.json's figures
  std::string output, backend, device, kernel;
  std::int64_t steps = 0, first_step = 0;
  double wall_seconds = 0, mlups = 0;
  double cd_mean = 0, cl_mean = 0, cd_final = 0, cl_final = 0;
  bool has_strouhal = false;
  double strouhal = 0;
  int frames = 0;
  int stopped_by_signal = 0;  // the stop request's signal (SIGINT: Ctrl-C) when the run stopped early
  std::int64_t checkpoint_step = -1;
};

struct Field {  // one output field, x fastest: index = i + nx (j + ny k), `components` values per cell
  std::vector<float> values;
  std::vector<std::uint8_t> bytes;  // the mask (1 = solid) instead of values
  int components = 1;
};

struct DeviceFields {  // see Simulation::device_fields
  std::uintptr_t density = 0, velocity = 0;
  int device = -1;
};

// One simulation: the domain and backend of a case, stepped on demand (advance) or run into a run folder (run).
// Calls from several threads are serialised (one lock), so that a call made while another thread's advance()
// holds the simulation waits for it.
class AEROLBM_SESSION_API Simulation {
 public:
  Simulation(const Case& c, const SimulationOptions& options);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  std::string backend() const;  // cpu | cuda
  std::string device() const;
  std::string kernel() const;
  std::array<std::int64_t, 3> grid() const;  // nx, ny, nz
  std::string lattice() const;
  std::int64_t step() const;
  std::int64_t total_steps() const;  // the case's run length (or SimulationOptions::steps)
  double dt() const;                 // one step in convective times

  // `steps` more steps without a run folder: force samples every forces.every steps and the watchdog every
  // watchdog.every, as `aerolbm run` takes them. `stop` is asked between chunks of at most watchdog.every steps;
  // true ends the call there. Returns the steps done. Throws RunFailure when the state diverges.
  std::int64_t advance(std::int64_t steps, const std::function<bool()>& stop);
  // `aerolbm run` into `output` (default runs/<case name>): the same folder checks (InputError: an existing run
  // without `overwrite`, an unwritable folder, not enough memory or disk unless `ignore_resources`), lock and
  // files. Only on a simulation that has not been advanced. `stop` is asked between chunks: a signal number
  // stops the run as that signal would (a checkpoint is written; RunSummary::stopped_by_signal says so).
  RunSummary run(const std::string& output, bool overwrite, bool ignore_resources, const std::function<int()>& stop);
  // `steps` bare steps (no force samples, no watchdog) timed on the device (CUDA events; the CPU: wall clock),
  // in seconds: benchmarks.
  double timed_steps(std::int64_t steps);

  Forces forces();  // the force on the body now
  History history() const;

  // Density (1 per cell) and velocity (3 per cell) in lattice units.
  void macroscopic(std::vector<float>& rho, std::vector<float>& u);
  // The output fields of a frame in free-stream units (velocity u/U, pressure Cp, density, vorticity ωL/U,
  // q_criterion, mask), as the run folder's files hold them; `names` empty: the case's output.fields.
  std::map<std::string, Field> frame(const std::vector<std::string>& names);
  // The state: shifted populations f − w in double, Q × cells (direction-major), as checkpoints hold it.
  void read_populations(std::vector<double>& f);
  void write_populations(const std::vector<double>& f);
  // The CUDA backend's density and velocity in its own device memory, computed now; valid until the next
  // device_fields(), macroscopic() or frame() call. Throws InputError on the CPU backend.
  DeviceFields device_fields();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `aerolbm compare`: RUN_A RUN_B, or a case run on the CPU and the GPU (`given`, or inputs[0] a case file).
// Prints what the command prints, writes the report folder; returns the exit status (0, or 1 when fail_above is
// exceeded). Throws InputError for bad input.
struct CompareOptions {
  std::vector<std::string> inputs;
  std::string output = "compare";
  double field_tol = 1e-3, force_tol = 1e-3, strouhal_tol = 1e-2;
  double fail_above = -1;  // < 0: none
  bool plots = true;
  std::int64_t steps = 0;
  int threads = 0;
  std::vector<std::string> sets;
};
AEROLBM_SESSION_API int compare(const CompareOptions& options, const Case* given);

// `aerolbm predict CASE --model MODEL`: writes the run folder and returns the prediction.
struct PredictOptions {
  std::string model, backend = "auto", output;
  int repeats = 5;
  bool overwrite = false;
};
struct Prediction {
  std::string output, backend, device;
  double seconds = 0, first_seconds = 0, wall_seconds = 0;
  double cl = 0, cd = 0;                     // as summary.json's cl_mean, cd_mean: the model's coefficient head
                                             // (model.h5 version 2), else the field-integrated values
  double cl_field = 0, cd_field = 0;         // from the predicted field (SCHEMA.md's method)
  std::string coefficients_source;           // "network" (the head) or "field" (a version-1 model)
  std::array<std::int64_t, 3> grid{};        // the sample grid: nx, ny, 1
  std::array<double, 3> origin{}, spacing{}; // reference lengths, body pivot at 0
  std::map<std::string, Field> fields;       // velocity, pressure, vorticity, mask on the sample grid
};
AEROLBM_SESSION_API Prediction predict(const Case& c, const PredictOptions& options);

}  // namespace aerolbm::session
