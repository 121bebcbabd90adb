#pragma once
// Progress display: one rewritten line on a terminal, plain log lines (every 10 %) otherwise.
#include <chrono>
#include <cstdint>

namespace aerolbm {

class Progress {
 public:
  Progress(std::int64_t total_steps, double cells);
  void update(std::int64_t step, double cd, double cl);
  void finish();

 private:
  std::int64_t total_;
  double cells_;
  bool tty_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point start_, last_print_;
};

}  // namespace aerolbm
