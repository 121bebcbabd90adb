#include "src/solver/progress.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace aerolbm {

Progress::Progress(std::int64_t total_steps, double cells, std::int64_t first_step)
    : total_(total_steps), first_(first_step), cells_(cells), tty_(isatty(fileno(stderr)) != 0) {
  start_ = last_print_ = std::chrono::steady_clock::now();
}

void Progress::update(std::int64_t step, double cd, double cl) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double mlups = elapsed > 0 ? double(step - first_) * cells_ / elapsed * 1e-6 : 0.0;
  const double frac = total_ > 0 ? double(step) / double(total_) : 1.0;
  const double done_here = double(step - first_);
  const double eta = done_here > 0 ? elapsed * double(total_ - step) / done_here : 0.0;
  if (tty_) {
    if (std::chrono::duration<double>(now - last_print_).count() < 0.2 && step < total_) return;
    last_print_ = now;
    std::fprintf(stderr, "\r  step %lld/%lld  %5.1f%%  %8.1f MLUPs  ETA %6.0f s  Cd %.4f  Cl %.4f   ",
                 static_cast<long long>(step), static_cast<long long>(total_), 100.0 * frac, mlups, eta, cd, cl);
    std::fflush(stderr);
    return;
  }
  const int decile = int(frac * 10.0);
  if (decile == last_decile_) return;
  last_decile_ = decile;
  spdlog::info("step {}/{} ({:.0f}%), {:.1f} MLUPs, ETA {:.0f} s, Cd {:.4f}, Cl {:.4f}", step, total_, 100.0 * frac,
               mlups, eta, cd, cl);
}

void Progress::finish() {
  if (tty_) std::fprintf(stderr, "\n");
}

}  // namespace aerolbm
