// aerolbm: lattice-Boltzmann airflow solver. Subcommands live in src/app/cmd_*.cpp.
#include <spdlog/spdlog.h>

#include "src/app/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"aerolbm: lattice-Boltzmann airflow over airfoils and wings (CPU and CUDA backends)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", AEROLBM_VERSION);
  spdlog::set_pattern("[%H:%M:%S] %^%l%$ %v");
  int status = aerolbm::app::kOk;
  aerolbm::app::add_run_command(app, status);
  aerolbm::app::add_check_command(app, status);
  aerolbm::app::add_info_command(app, status);
  aerolbm::app::add_bench_command(app, status);
  aerolbm::app::add_compare_command(app, status);
  aerolbm::app::add_sweep_command(app, status);
  aerolbm::app::add_predict_command(app, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : aerolbm::app::kBadInput;
  }
  return status;
}
