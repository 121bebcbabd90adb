// aerolbm compare RUN_A RUN_B | CASE.yaml: the comparison report of two run folders, or of a case run on the CPU
// and on the GPU. Everything is read and checked before anything is written (bad input: exit 2, no files); the
// reports are written atomically, last; --fail-above turns a large error into exit status 1.
#include <spdlog/spdlog.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "src/app/commands.hpp"
#include "src/app/entry_points.hpp"
#include "src/case/units.hpp"
#include "src/compare/comparison.hpp"
#include "src/compare/input_error.hpp"
#include "src/compare/plots.hpp"
#include "src/compare/report.hpp"
#include "src/case/make_body.hpp"
#include "src/io/atomic_file.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/simulation.hpp"

namespace aerolbm::app {
namespace fs = std::filesystem;

namespace {

// Runs the case once per backend into out/cpu and out/gpu. Needs a CUDA device.
std::pair<fs::path, fs::path> run_case_twice(const CompareArgs& a, const Case& c, const fs::path& out) {
  LatticeUnits u = lattice_units(c);
  limit_steps(u, a.steps);
  if (cuda_device_count() == 0) {
    throw CompareInputError(
        "compare " + a.inputs[0] + ": running a case on the CPU and the GPU needs a CUDA device, and there is none (" +
        cuda_device_summary() + "). Run the case into two folders yourself (for example `aerolbm run " + a.inputs[0] +
        " --backend cpu -o runs/a` here and `aerolbm run " + a.inputs[0] +
        " --backend cuda -o runs/b` on a GPU host), then `aerolbm compare runs/a runs/b`.");
  }
  std::cout << describe(c, u) << std::flush;
  std::pair<fs::path, fs::path> dirs{out / "cpu", out / "gpu"};
  for (const auto& [backend, dir] : {std::pair{BackendKind::Cpu, dirs.first}, std::pair{BackendKind::Cuda, dirs.second}}) {
    RunOptions opt;
    opt.solver.backend = backend;
    opt.solver.threads = a.threads;
    opt.output_dir = dir;
    Simulation sim(c, u, make_body(c), opt);
    fs::create_directories(dir);
    spdlog::info("compare: running on {} ({}) into {}", sim.backend().name(), sim.backend().device(), dir.string());
    const RunResult r = sim.run();
    spdlog::info("{}: {} steps in {:.2f} s, {:.1f} MLUPs", backend_name(backend), r.steps, r.wall_seconds, r.mlups);
  }
  return dirs;
}

}  // namespace

int compare(const CompareArgs& a, const std::optional<Case>& given) {
  const fs::path out = a.output;
  if (fs::exists(out) && !fs::is_directory(out))
    throw CompareInputError("--output " + out.string() + ": exists and is not a folder. Choose another --output.");
  fs::path dir_a, dir_b;
  if (given) {
    std::tie(dir_a, dir_b) = run_case_twice(a, *given, out);
  } else if (a.inputs.size() == 1) {
    if (fs::is_directory(a.inputs[0]))
      throw CompareInputError(a.inputs[0] + " is a folder: give two run folders (compare RUN_A RUN_B) or one case "
                              "file (compare CASE.yaml).");
    std::tie(dir_a, dir_b) = run_case_twice(a, load_case(a.inputs[0], a.sets), out);
  } else if (a.inputs.size() == 2) {
    dir_a = a.inputs[0];
    dir_b = a.inputs[1];
  } else {
    throw CompareInputError("expected two run folders (compare RUN_A RUN_B) or one case file (compare CASE.yaml), got " +
                            std::to_string(a.inputs.size()) + " arguments.");
  }

  const RunFolder ra = load_run_folder(dir_a);
  const RunFolder rb = load_run_folder(dir_b);
  CompareOptions opt = a.options;
  if (a.fail_above >= 0) opt.fail_above = a.fail_above;
  const Comparison c = compare_runs(ra, rb, opt);

  // Only now, with every input read and checked, does anything get written.
  fs::create_directories(out);
  fs::path errors;
  if (c.maps.present) {
    errors = out / "errors.h5";
    const fs::path tmp = out / "errors.h5.tmp";
    try {
      write_error_maps(tmp, c.maps);
      publish_file(tmp, errors);
    } catch (...) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw;
    }
  }
  bool masks = c.fields_compared;
  for (const RunFolder* r : {&ra, &rb})
    masks = masks && !r->frames.empty() &&
            std::find(r->frames.back().fields.begin(), r->frames.back().fields.end(), "mask") != r->frames.back().fields.end();
  ReportImages images;
  if (a.plots)
    images = make_compare_plots(dir_a, dir_b, errors, masks, out);
  else
    images.note = "Images skipped (--no-plots).";
  write_json_atomically(out / "report.json", report_json(c, images));
  write_file_atomically(out / "report.md", report_markdown(c, images));

  std::cout << "A: " << dir_a.string() << " (" << ra.backend << ", " << ra.wall_time_s << " s, " << ra.mlups
            << " MLUPs)\nB: " << dir_b.string() << " (" << rb.backend << ", " << rb.wall_time_s << " s, " << rb.mlups
            << " MLUPs)\n";
  std::printf("speed-up of B over A: %.2fx (wall time), %.2fx (MLUPs)\n", c.speedup, c.mlups_ratio);
  std::cout << c.verdict << "\n";
  if (!images.note.empty()) std::cout << images.note << "\n";
  std::cout << "wrote " << (out / "report.md").string() << " and report.json\n";
  if (opt.fail_above && !(c.largest_error <= *opt.fail_above)) {
    std::fprintf(stderr, "error: largest error %.3e (%s) exceeds --fail-above %.3e\n", c.largest_error,
                 c.largest_what.c_str(), *opt.fail_above);
    return kRunFailure;
  }
  return kOk;
}

void add_compare_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare two run folders (RUN_A RUN_B), or run a case on the CPU and the GPU and compare (CASE.yaml)");
  auto a = std::make_shared<CompareArgs>();
  cmd->add_option("inputs", a->inputs, "RUN_A RUN_B (run folders; A is the reference) or CASE.yaml")
      ->required()
      ->expected(1, 2);
  cmd->add_option("--output,-o", a->output, "Report folder (default: ./compare)");
  cmd->add_option("--field-tol", a->options.field_tol, "Tolerance on each field's relative L2 error (default 1e-3)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--force-tol", a->options.force_tol, "Tolerance on |ΔCd|, |ΔCl|, mean and final (default 1e-3)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--strouhal-tol", a->options.strouhal_tol, "Relative tolerance on the Strouhal number (default 1e-2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--fail-above", a->fail_above,
                  "Exit with status 1 when a field's relative L2 error or |ΔCd|/|ΔCl| exceeds this")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("!--no-plots", a->plots, "Do not call the Python plotting scripts");
  cmd->add_option("--steps", a->steps, "CASE.yaml mode: run exactly this many steps")->check(CLI::PositiveNumber);
  cmd->add_option("--threads", a->threads, "CASE.yaml mode: CPU threads (default: all)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--set", a->sets, "CASE.yaml mode: override a case key: key.path=value (repeatable)");
  cmd->callback([&status, a]() { status = exit_status("compare", [&] { return compare(*a); }); });
}

}  // namespace aerolbm::app
