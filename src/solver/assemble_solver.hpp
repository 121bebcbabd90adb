#pragma once
// The one place a case becomes a running solver: its domain (build_domain), the physics the kernels need
// (physics_params) and a backend, initialised. Every command, the sweep runner, the MPI run and the Python module
// assemble their solver here; what differs is only the options.
#include <array>
#include <memory>

#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"
#include "src/solver/block_fields.hpp"
#include "src/solver/rank_context.hpp"

namespace aerolbm {

struct SolverOptions {
  BackendKind backend = BackendKind::Auto;  // resolve_backend decides Auto
  int threads = 0;                          // CPU threads, 0 = default
  // MPI runs (src/parallel): the ranks, and the split of the grid over them (choose_ranks_grid). With ranks, the
  // backend is the ranks' (RankContext::make_backend): one block per rank behind the interface of the whole grid.
  std::shared_ptr<RankContext> ranks;
  std::array<int, 3> ranks_grid{0, 0, 0};
};

struct Solver {
  DomainData domain;                    // the whole grid's (every rank builds it)
  std::unique_ptr<Backend> backend;     // initialised: the equilibrium start state
  BlockFieldsSource* blocks = nullptr;  // MPI: the backend's block fields (collective output); else null
};

// Throws CaseError for a body that does not fit the domain, BackendUnavailable for a backend that is not there,
// InputError for an MPI split that cannot work.
Solver assemble_solver(const Case& c, const LatticeUnits& u, const Body* body, const SolverOptions& opt);

}  // namespace aerolbm
