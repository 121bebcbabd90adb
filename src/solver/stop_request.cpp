#include "src/solver/stop_request.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>

namespace aerolbm {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_stop_signal(int sig) {
  if (g_signal.exchange(sig) != 0) ::_exit(128 + sig);  // the second signal: stop now
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

void clear_stop_request() { g_signal.store(0); }

}  // namespace aerolbm
