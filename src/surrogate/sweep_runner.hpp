#pragma once
// `aerolbm sweep` without the command line: every case of a sweep built from the base case, run to its time
// average (several at once), sampled onto the sample grid, and collected for dataset.h5.
#include <cstdint>
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
};

// One case's row of the dataset (SCHEMA.md, dataset.h5).
struct CaseResult {
  std::vector<float> u, v, p, sdf;  // [ny, nx]
  std::vector<std::uint8_t> mask;
  std::vector<float> sx, sy, scp;   // [S]
  double cl = 0, cd = 0, seconds = 0;
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

}  // namespace aerolbm::surrogate
