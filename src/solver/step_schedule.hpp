#pragma once
// When a run stops stepping, and what is due at a step: the one step schedule of Simulation (run() and advance())
// and run_averaged (sweeps). A run steps in chunks that end at the chunk events (watchdog scans, frames,
// checkpoints); inside a chunk, in pieces that end at the piece events (force samples, mean-field samples). Every
// event recurs at the multiples of its interval from a first step on, and is also due at the run's last step.
#include <algorithm>
#include <cstdint>
#include <limits>

namespace aerolbm {

// At the multiples of `every` at or after step `from`, and at the run's last step. every = 0: never.
struct Recurring {
  std::int64_t every = 0;
  std::int64_t from = 0;
};

struct StepSchedule {
  std::int64_t total = 0;                   // the run's last step
  Recurring watchdog, frames, checkpoints;  // end a chunk
  Recurring forces, means;                  // end a piece inside a chunk

  static std::int64_t next_multiple(std::int64_t step, std::int64_t every) { return (step / every + 1) * every; }

  // Whether `e` is due at `step`.
  bool due(const Recurring& e, std::int64_t step) const {
    return e.every > 0 && step >= e.from && (step % e.every == 0 || step == total);
  }
  // Where the chunk that starts at `step` ends: the next chunk event, and the run's last step while short of it.
  std::int64_t chunk_end(std::int64_t step) const {
    const std::int64_t end = std::min({stop(watchdog, step), stop(frames, step), stop(checkpoints, step)});
    return step < total ? std::min(end, total) : end;
  }
  // Where the piece that starts at `step` ends inside a chunk that ends at `end`: the next piece event.
  std::int64_t piece_end(std::int64_t step, std::int64_t end) const {
    return std::min({end, stop(forces, step), stop(means, step)});
  }

 private:
  // The next multiple of e.every after `step` when that is at or after e.from (the pieces before e.from are not
  // cut for it); otherwise, and for an event that is off, no stop.
  static std::int64_t stop(const Recurring& e, std::int64_t step) {
    if (e.every <= 0) return std::numeric_limits<std::int64_t>::max();
    const std::int64_t m = next_multiple(step, e.every);
    return m >= e.from ? m : std::numeric_limits<std::int64_t>::max();
  }
};

}  // namespace aerolbm
