#include "src/app/exit_status.hpp"

#include <exception>
#include <iostream>

#include "src/solver/rank_context.hpp"
#include "src/util/input_error.hpp"

namespace aerolbm::app {

void print_error(int, const std::string& line) { std::cerr << line << "\n" << std::flush; }

ErrorReport report_on_ranks(const std::shared_ptr<RankContext>& ranks, const bool& diverged) {
  return [&ranks, &diverged](int status, const std::string& line) {
    if (!ranks) return print_error(status, line);
    if (ranks->root()) print_error(status, line);
    else if (diverged) print_error(status, "rank " + std::to_string(ranks->rank()) + ": " + line);
    if (diverged) ranks->abort(status);
  };
}

int exit_status(const std::string& command, const std::function<int()>& work, const ErrorReport& report) {
  int status = kOk;
  std::string line;
  try {
    return work();
  } catch (const InputError& e) {
    status = kBadInput;
    line = "error: " + std::string(e.what());
  } catch (const std::exception& e) {
    status = kRunFailure;
    line = "error: " + command + " failed: " + e.what();
  }
  // Reported here, outside the handlers: `report` may end the process (MPI abort).
  report(status, line);
  return status;
}

}  // namespace aerolbm::app
