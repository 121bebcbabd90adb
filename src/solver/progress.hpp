#pragma once
// Progress display: one rewritten line on a terminal, plain log lines (every 10 %) otherwise.
#include <chrono>
#include <cstdint>

namespace aerolbm {

class Progress {
 public:
  // first_step: where the run starts (a restart), so that speed and ETA count only the steps made here.
  Progress(std::int64_t total_steps, double cells, std::int64_t first_step = 0);
  void update(std::int64_t step, double cd, double cl);
  void finish();

 private:
  std::int64_t total_, first_;
  double cells_;
  bool tty_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point start_, last_print_;
};

}  // namespace aerolbm
