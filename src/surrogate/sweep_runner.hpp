#pragma once
// `aerolbm sweep` without the command line: every case of a sweep built from the base case, run to its time
// average (several at once), sampled onto the sample grid, and collected for dataset.h5.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/backend_choice.hpp"
#include "src/case/case.hpp"
#include "src/surrogate/sweep_file.hpp"

namespace aerolbm::surrogate {

struct SweepOptions {
  BackendKind backend = BackendKind::Auto;
  int concurrent = 0;  // cases at once; 0: 8 on CUDA, one per CPU thread on the CPU
  int threads = 0;     // CPU threads in all (split between concurrent cases); 0: all
  // Stop cleanly before this time: a case starts only when the longest one finished so far in this call (else
  // `expected_case_wall`, else none known), plus 10 %, would end by then; the first case of the call always
  // starts. Cases in flight run to their end.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  double expected_case_wall = 0;  // seconds; e.g. the longest of the cases finished by earlier calls
};

// One case's row of the dataset (SCHEMA.md, dataset.h5).
struct CaseResult {
  std::vector<float> u, v, p, sdf;  // [ny, nx]
  std::vector<std::uint8_t> mask;
  std::vector<float> sx, sy, scp;   // [S]
  double cl = 0, cd = 0, seconds = 0;
  double cm = 0;    // the pitching moment about the quarter chord (nose-up positive), same window
  double wall = 0;  // the case's wall time in the sweep (setup and sampling included); not in dataset.h5
  bool ok = false;
  std::string error;  // why it failed (divergence)
};

// The cases as Case objects: the base case with the sweep's set entries, time window, code, Re, angle and name.
// Throws CaseError (exit 2) for any case the loader refuses, naming the case and its parameters, and when the
// sample grid does not fit inside the domain.
std::vector<Case> build_sweep_cases(const SweepSpec& s, const std::vector<SweepCase>& cases);

// Runs every case; results in case order. Failed (diverged) cases have ok = false.
std::vector<CaseResult> run_sweep(const SweepSpec& s, const std::vector<Case>& cases, const SweepOptions& opt,
                                  std::string* backend_used = nullptr);

// Runs the cases whose `results[i]` is not yet there (`have[i]` false), in case order, into `results`, calling
// `finished(i, result)` as each one ends (one call at a time, from the worker threads). The threads per case are
// chosen from the whole sweep, as run_sweep chooses them, so a case runs the same whether it is run alone or
// with all the others. Returns the number of cases it ran; fewer than the missing ones when opt.deadline stopped it.
using CaseFinished = std::function<void(std::size_t, const CaseResult&)>;
std::size_t run_sweep_cases(const SweepSpec& s, const std::vector<Case>& cases, const std::vector<bool>& have,
                            const SweepOptions& opt, std::vector<CaseResult>& results, const CaseFinished& finished,
                            std::string* backend_used = nullptr);

}  // namespace aerolbm::surrogate
