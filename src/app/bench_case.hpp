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
};

int run_bench_case(const BenchCaseArgs& a);

}  // namespace aerolbm::app
