#pragma once
#include <CLI/CLI.hpp>

#include "src/app/exit_status.hpp"

namespace aerolbm::app {

// Each registers its subcommand; its callback sets `status`, the process exit status, through exit_status().
void add_run_command(CLI::App& app, int& status);
void add_check_command(CLI::App& app, int& status);
void add_info_command(CLI::App& app, int& status);
void add_bench_command(CLI::App& app, int& status);
void add_compare_command(CLI::App& app, int& status);
void add_sweep_command(CLI::App& app, int& status);
void add_predict_command(CLI::App& app, int& status);

}  // namespace aerolbm::app
