#include <iostream>

#include "src/app/commands.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/domain.hpp"

namespace aerolbm::app {

void add_check_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("check", "Validate a case file and print its lattice-unit summary; runs nothing");
  auto file = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  cmd->add_option("case", *file, "Case file (YAML)")->required();
  cmd->add_option("--set", *sets, "Override a case key: key.path=value (repeatable)");
  cmd->callback([&status, file, sets]() {
    status = exit_status("check", [&] {
      const Case c = load_case(*file, *sets);
      const LatticeUnits u = lattice_units(c);
      const auto body = make_body(c);
      const DomainData d = build_domain(c, u, body.get());
      std::cout << describe(c, u);
      std::int64_t solid = 0;
      for (auto f : d.flags) solid += (f & cell::type_mask) == cell::solid;
      std::cout << "  body cells        " << solid << " solid, " << d.wall_cells.size() << " next to the wall\n";
      std::cout << *file << ": OK\n";
      return kOk;
    });
  });
}

}  // namespace aerolbm::app
