#pragma once
#include <CLI/CLI.hpp>

namespace aerolbm::app {

// Each registers its subcommand; the callback's return value is the process exit status.
void add_run_command(CLI::App& app, int& status);
void add_check_command(CLI::App& app, int& status);
void add_info_command(CLI::App& app, int& status);
void add_bench_command(CLI::App& app, int& status);
void add_compare_command(CLI::App& app, int& status);
void add_sweep_command(CLI::App& app, int& status);
void add_predict_command(CLI::App& app, int& status);

// Exit statuses: 0 ok, 1 run-time failure, 2 bad input or usage.
inline constexpr int kOk = 0, kRunFailure = 1, kBadInput = 2;

}  // namespace aerolbm::app
