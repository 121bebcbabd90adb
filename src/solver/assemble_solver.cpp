#include "src/solver/assemble_solver.hpp"

#include "src/solver/backend_select.hpp"
#include "src/solver/domain.hpp"

namespace aerolbm {

Solver assemble_solver(const Case& c, const LatticeUnits& u, const Body* body, const SolverOptions& opt) {
  Solver s;
  s.domain = build_domain(c, u, body);
  const BackendConfig cfg = backend_config(c, opt.threads);
  const PhysicsParams p = physics_params(c, u);
  if (opt.ranks) {
    BlockBackend b = opt.ranks->make_backend(opt.backend, opt.ranks_grid, cfg, s.domain, p);
    s.backend = std::move(b.backend);
    s.blocks = b.blocks;
  } else {
    s.backend = select_backend(opt.backend, cfg, s.domain, p);
  }
  s.backend->initialize();
  return s;
}

}  // namespace aerolbm
