#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "src/app/commands.hpp"
#include "src/case/units.hpp"
#include "src/geometry/make_body.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/simulation.hpp"

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
};

// The output folder must be creatable and writable before anything runs. Only checks; creates nothing.
void check_output_dir(const fs::path& dir) {
  fs::path p = fs::absolute(dir);
  std::error_code ec;
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) {
    throw CaseError("--output " + dir.string() + ": exists and is not a directory. Choose another --output.");
  }
  while (!fs::exists(p, ec)) p = p.parent_path();
  if (!fs::is_directory(p, ec) || access(p.c_str(), W_OK | X_OK) != 0) {
    throw CaseError("--output " + dir.string() + ": " + p.string() +
                    " is not writable. Choose a writable --output folder.");
  }
}

int run(const RunArgs& a) {
  Case c = load_case(a.file, a.sets);
  LatticeUnits u = lattice_units(c);
  if (a.steps > 0) {
    u.total_steps = a.steps;
    u.average_steps = std::min(u.average_steps, a.steps);
  }
  const fs::path out = a.output.empty() ? fs::path("runs") / c.name : fs::path(a.output);
  check_output_dir(out);
  auto body = make_body(c);
  std::cout << describe(c, u) << std::flush;

  RunOptions opt;
  opt.backend = a.backend;
  opt.output_dir = out;
  opt.threads = a.threads;
  Simulation sim(c, u, std::move(body), opt);
  spdlog::info("backend {} on {} (kernel: {}), {} steps, output in {}", sim.backend().name(), sim.backend().device(),
               sim.backend().kernel(), u.total_steps, out.string());
  fs::create_directories(out);
  const RunResult r = sim.run();
  spdlog::info("done: {} steps in {:.2f} s, {:.1f} MLUPs; Cd mean {:.4f}, Cl mean {:.4f}{}", r.steps, r.wall_seconds,
               r.mlups, r.cd_mean, r.cl_mean,
               r.strouhal ? fmt::format(", Strouhal {:.4f}", *r.strouhal) : std::string());
  spdlog::info("wrote {}/summary.json, forces.csv{}", out.string(), r.frames ? ", fields (.h5/.xdmf, .pvd/.vti)" : "");
  return kOk;
}

}  // namespace

void add_run_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("run", "Run a case and write its run folder");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("case", a->file, "Case file (YAML)")->required();
  cmd->add_option("--backend", a->backend, "auto (GPU when present) | cpu | cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--output,-o", a->output, "Run folder (default: runs/<case name>)");
  cmd->add_option("--steps", a->steps, "Run exactly this many steps (overrides time.convective_times)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", a->threads, "CPU threads (default: all)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--set", a->sets, "Override a case key: key.path=value (repeatable)");
  cmd->callback([&status, a]() {
    try {
      status = run(*a);
    } catch (const CaseError& e) {
      std::cerr << "error: " << e.what() << "\n";
      status = kBadInput;
    } catch (const BackendUnavailable& e) {
      std::cerr << "error: " << e.what() << "\n";
      status = kBadInput;
    } catch (const std::exception& e) {
      std::cerr << "error: run failed: " << e.what() << "\n";
      status = kRunFailure;
    }
  });
}

}  // namespace aerolbm::app
