#include "src/solver/stop_request.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>

namespace aerolbm {
namespace {

std::atomic<int> g_signal{0};
std::atomic<std::int64_t> g_first_ns{0};  // CLOCK_MONOTONIC of the first signal
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
static_assert(std::atomic<std::int64_t>::is_always_lock_free, "the signal handler needs a lock-free time");

// Signals closer together than this are one request: `timeout` (without --foreground), a batch system or a
// terminal may deliver the same stop to the process and to its process group within microseconds.
constexpr std::int64_t kSameRequestNs = 500'000'000;

std::int64_t monotonic_ns() {  // clock_gettime is async-signal-safe
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

extern "C" void on_stop_signal(int sig) {
  const std::int64_t now = monotonic_ns();
  int expected = 0;
  if (!g_signal.compare_exchange_strong(expected, sig)) {
    const std::int64_t first = g_first_ns.load();     // 0: the first one's handler is still running
    if (first == 0 || now - first < kSameRequestNs) return;  // the same request, delivered twice
    ::_exit(128 + sig);                                      // a second request: stop now
  }
  g_first_ns.store(now);
  static const char msg[] =
      "\naerolbm: stop requested: finishing the current steps, writing a checkpoint and the outputs "
      "(signal again to stop at once)\n";
  const ssize_t ignored = ::write(STDERR_FILENO, msg, sizeof(msg) - 1);
  (void)ignored;
}

}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // interrupted system calls (file writes) resume instead of failing with EINTR
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGXFSZ, SIG_IGN);
}

int stop_requested() { return g_signal.load(); }

void clear_stop_request() {
  g_signal.store(0);
  g_first_ns.store(0);
}

}  // namespace aerolbm
