#pragma once
// The one path from a command's outcome to the process exit status. Every subcommand's callback runs its work
// through exit_status(): an InputError (bad input, src/util/input_error.hpp) prints "error: <message>" and gives
// status 2; any other std::exception prints "error: <command> failed: <message>" and gives status 1; otherwise the
// work's own status stands. The work checks every input before it writes anything, so that bad input leaves
// nothing half-written.
#include <functional>
#include <memory>
#include <string>

namespace aerolbm {
class RankContext;
}

namespace aerolbm::app {

// Exit statuses: 0 ok, 1 run-time failure, 2 bad input or usage, 3 stopped early on purpose with work left that
// the same command continues (`aerolbm sweep --time-limit`, `aerolbm run --time-limit`). (A run stopped by a
// signal: 128 + the signal.)
inline constexpr int kOk = 0, kRunFailure = 1, kBadInput = 2, kStoppedEarly = 3;

// Reports a failed command: its status and its line ("error: ...", no newline).
using ErrorReport = std::function<void(int status, const std::string& line)>;

// The line on stderr, newline and flush.
void print_error(int status, const std::string& line);

// MPI runs (`ranks` as start_ranks() set it, null in one process): before `diverged`, every rank meets the same
// errors and only rank 0 prints; once the ranks may have diverged (rank 0 writes files the others do not), the
// rank that failed prints, "rank N: " before the line on ranks other than 0, and ends every rank with the status
// (the others would wait in the next collective call forever). Both are read when a command fails.
ErrorReport report_on_ranks(const std::shared_ptr<RankContext>& ranks, const bool& diverged);

// Runs `work` and returns its status, or the status of the exception it threw after `report` has had its line.
// `command` names the command in the line of a run-time failure ("run", "bench attention").
int exit_status(const std::string& command, const std::function<int()>& work,
                const ErrorReport& report = print_error);

}  // namespace aerolbm::app
