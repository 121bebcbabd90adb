#include "src/solver/assemble_solver.hpp"

#include "src/solver/backend_select.hpp"
#include "src/solver/case_backend.hpp"
#include "src/solver/domain.hpp"

namespace aerolbm {

Solver assemble_solver(const Case& c, const LatticeUnits& u, const Body* body, const SolverOptions& opt) {
  Solver s;
  s.domain = build_domain(c, u, body);
  const BackendConfig cfg = backend_config(c, opt.threads);
  const PhysicsParams p = physics_params(c, u);
  if (opt.ranks && !c.refinement_boxes.empty())
    throw CaseError(c.source_file.string() + ": refinement.boxes: refined levels run in one process, not under MPI "
                    "yet. Run the case without mpirun, or remove the refinement section.");
  if (opt.ranks) {
    BlockBackend b = opt.ranks->make_backend(opt.backend, opt.ranks_grid, cfg, s.domain, p);
    s.backend = std::move(b.backend);
    s.blocks = b.blocks;
  } else {
    s.backend = make_case_backend(opt.backend, cfg, c, u, s.domain, p);
  }
  s.backend->initialize();
  return s;
}

}  // namespace aerolbm
