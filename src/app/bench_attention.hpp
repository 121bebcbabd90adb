#pragma once
#include <CLI/CLI.hpp>

namespace aerolbm::app {

// Registers `bench attention` under the `bench` subcommand; returns it so that `bench` can tell it was chosen.
CLI::App* add_bench_attention_command(CLI::App& bench, int& status);

}  // namespace aerolbm::app
