// aerolbm sweep: a parameter sweep of 2D NACA sections into one dataset.h5 for the surrogate.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "src/app/commands.hpp"
#include "src/solver/backend_select.hpp"
#include "src/surrogate/dataset_writer.hpp"
#include "src/surrogate/sweep_progress.hpp"
#include "src/surrogate/sweep_runner.hpp"

namespace aerolbm::app {
namespace fs = std::filesystem;

namespace {

struct SweepArgs {
  std::string file, backend = "auto", output;
  int concurrent = 0, threads = 0;
  double time_limit = 0;  // seconds; 0: none
  bool dry_run = false;
};

int sweep(const SweepArgs& a) {
  const auto t_start = std::chrono::steady_clock::now();  // --time-limit counts from here
  const surrogate::SweepSpec s = surrogate::read_sweep(a.file);
  const auto cases = surrogate::expand_sweep(s);
  if (cases.empty()) throw CaseError(a.file + ": the sweep expands to no cases. Give count >= 1 or values.");
  const std::vector<Case> built = surrogate::build_sweep_cases(s, cases);
  const fs::path out = a.output.empty() ? fs::path(s.output) : fs::path(a.output);
  {
    std::error_code ec;
    const fs::path folder = fs::absolute(out).parent_path();
    if (fs::is_directory(out, ec))
      throw CaseError("--out " + out.string() + " is a folder; give the dataset's file name, e.g. dataset.h5.");
    if (!fs::is_directory(folder, ec) || access(folder.c_str(), W_OK | X_OK) != 0)
      throw CaseError("--out " + out.string() + ": the folder " + folder.string() +
                      " does not exist or is not writable. Create it or choose another --out.");
  }
  const BackendKind backend_asked = parse_backend(a.backend);
  require_backend(backend_asked);
  int counts[3] = {0, 0, 0};
  for (const auto& c : cases) ++counts[c.split];
  spdlog::info("sweep {}: {} cases ({} train, {} test, {} angle-of-attack extrapolation) from {}", a.file,
               cases.size(), counts[0], counts[1], counts[2], s.base_case.string());
  if (a.dry_run) {
    for (std::size_t i = 0; i < cases.size(); ++i)
      std::cout << i << " " << cases[i].code << " aoa " << cases[i].params[3] << " Re " << cases[i].params[4]
                << " split " << cases[i].split << "\n";
    return kOk;
  }
  // Finished cases are kept in the progress store beside the dataset at once; a second call continues there.
  surrogate::SweepProgress store(out, s);
  std::vector<surrogate::CaseResult> results;
  std::vector<bool> have;
  std::vector<std::string> backends;
  const std::size_t stored = store.load(cases.size(), std::size_t(s.grid.points()), results, have, backends);
  double longest_stored = 0;
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (have[i]) longest_stored = std::max(longest_stored, results[i].wall);
  if (stored > 0)
    spdlog::info("progress store {}: {} of {} cases done, {} left", store.folder().string(), stored, cases.size(),
                 cases.size() - stored);
  surrogate::SweepOptions opt;
  opt.backend = backend_asked;
  opt.concurrent = a.concurrent;
  opt.threads = a.threads;
  if (a.time_limit > 0) {
    opt.deadline = t_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(a.time_limit));
    opt.expected_case_wall = longest_stored;
    const double left = std::chrono::duration<double>(*opt.deadline - std::chrono::steady_clock::now()).count();
    if (stored < cases.size() && longest_stored > 0 && 1.1 * longest_stored > left)
      throw CaseError(fmt::format("--time-limit {:g}: {:.1f} s are left, less than the longest finished case took "
                                  "({:.1f} s, plus 10 %), so no case would start. Give a longer --time-limit.",
                                  a.time_limit, left, longest_stored));
  }
  std::string backend;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t ran = surrogate::run_sweep_cases(
      s, built, have, opt, results,
      [&](std::size_t i, const surrogate::CaseResult& r) { store.save(i, r, backend); }, &backend);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (ran > 0 && std::find(backends.begin(), backends.end(), backend) == backends.end()) backends.push_back(backend);
  if (stored + ran < cases.size()) {
    spdlog::warn("stopped before the time limit ({:g} s): {} of {} cases done ({} in this call, {:.1f} s), {} left "
                 "in {}; run the same command again to continue (exit status {})",
                 a.time_limit, stored + ran, cases.size(), ran, wall, cases.size() - stored - ran,
                 store.folder().string(), kStoppedEarly);
    return kStoppedEarly;
  }
  std::size_t ok = 0;
  double solver = 0;
  for (const auto& r : results)
    if (r.ok) {
      ++ok;
      solver += r.seconds;
    }
  if (ok == 0) {
    store.remove();  // a rerun then runs them all again, as a fresh sweep would
    std::cerr << "error: every case of the sweep failed (first: " << results.front().error
              << "); nothing written.\n";
    return kRunFailure;
  }
  std::string backend_text;
  for (const auto& b : backends) backend_text += (backend_text.empty() ? "" : ",") + b;
  surrogate::write_dataset(out, s, cases, results, backend_text);
  store.remove();
  spdlog::info("wrote {}: {} cases ({} in this call, in {:.1f} s wall; {:.1f} s of solver time in all, {:.2f} s "
               "per case on average)",
               out.string(), ok, ran, wall, solver, solver / double(ok));
  if (ok < results.size()) {
    spdlog::error("{} of {} cases failed and are not in the dataset (attribute failed_cases lists them)",
                  results.size() - ok, results.size());
    return kRunFailure;
  }
  return kOk;
}

}  // namespace

void add_sweep_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("sweep", "Run a parameter sweep of NACA sections into a surrogate dataset");
  auto a = std::make_shared<SweepArgs>();
  cmd->add_option("sweep", a->file, "Sweep file (YAML, postprocess/surrogate/SCHEMA.md)")->required();
  cmd->add_option("--backend", a->backend, "auto (GPU when present) | cpu | cuda")
      ->check(CLI::IsMember(enum_names(kBackendNames)));
  cmd->add_option("--out,--output,-o", a->output, "Dataset file (default: the sweep's output, else dataset.h5)");
  cmd->add_option("--concurrent", a->concurrent, "Cases at once (default: 8 on CUDA, one per CPU thread on the CPU)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--threads", a->threads, "CPU threads in all (default: all)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--time-limit", a->time_limit,
                  "Seconds: start no case that would not end within them (judged from the finished cases' wall "
                  "times), then exit 3; the same command continues (progress store DATASET.partial)")
      ->check(CLI::Range(0.001, 1e9));
  cmd->add_flag("--dry-run", a->dry_run, "List the cases and their splits; run nothing");
  cmd->callback([&status, a]() { status = exit_status("sweep", [&] { return sweep(*a); }); });
}

}  // namespace aerolbm::app
