#pragma once
// `aerolbm bench --case CASE.yaml`: the MLUPs of a real case (its grid, body, boundaries and force sampling, no
// field output) beside a periodic box of the same lattice, storage and cell count, and the copy bandwidth, all
// measured in one process.
#include <string>
#include <vector>

namespace aerolbm::app {

struct BenchCaseArgs {
  std::string file;
  std::vector<std::string> sets;         // --set overrides
  std::vector<std::string> precisions;   // empty: the case's own
  std::vector<std::string> variants;     // empty: the case's own (auto = pull)
  std::string backend = "cuda";
  int steps = 200;                       // steps per timed repeat
  int repeats = 5;
  std::string json;
  // > 0: also run the case through the run loop (Simulation) with a frame every this many steps, into
  // `output_dir`, beside the same run without frames, and measure the disk's write bandwidth there afterwards.
  std::int64_t frames_every = 0;
  std::string output_dir = "bench-output";
};

int run_bench_case(const BenchCaseArgs& a);

}  // namespace aerolbm::app
