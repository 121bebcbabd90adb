#include <iostream>

#include "src/app/commands.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/case_backend.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/refined_levels.hpp"

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
      if (!c.refinement_boxes.empty()) {
        // The levels planned as a run builds them (grids, bands, hand-over tables), so that a box they cannot
        // couple is refused here, before a run; no lattice is allocated.
        const auto plan = plan_case_levels(backend_config(c, 1), c, u, d, physics_params(c, u));
        const RefinedLevels& r = *plan;
        for (int l = 1; l < r.levels(); ++l) {
          const DomainData& g = r.domain(l);
          std::cout << "  level " << l << "           " << g.nx << " × " << g.ny;
          if (dimensions(c.stencil) == 3) std::cout << " × " << g.nz;
          std::cout << " cells (with its 2-cell band), " << u.length_cells * double(1 << l)
                    << " cells per reference length, " << (1 << l) << " steps per step\n";
        }
        std::cout << "  cell updates      " << r.cell_updates_per_step() << " per step of level 0 (every level's "
                  << "own cells times its steps)\n";
      }
      std::cout << *file << ": OK\n";
      return kOk;
    });
  });
}

}  // namespace aerolbm::app
