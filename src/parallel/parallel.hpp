#pragma once
// The MPI layer as the rest of the program sees it (no MPI headers): start it, and make the backend that runs one
// block per rank and looks to the solver like a backend of the whole grid. In builds without AEROLBM_MPI these
// report that MPI is absent (src/parallel/mpi_absent.cpp).
#include <memory>
#include <string>

#include "kernels/backend.hpp"
#include "src/parallel/decomposition.hpp"
#include "src/solver/block_fields.hpp"
#include "src/solver/rank_context.hpp"

namespace aerolbm {

bool mpi_built();
// Initialises MPI when this process was started by an MPI launcher (mpirun, mpiexec, srun) with more than one
// rank; null otherwise (a plain single-process run). MPI is finalised at exit.
std::shared_ptr<RankContext> start_ranks();
// Whether the MPI library can take device pointers (Open MPI's MPIX_Query_cuda_support); false without MPI.
bool mpi_cuda_aware();

struct DistributedConfig {
  BackendKind backend = BackendKind::Auto;  // of every rank's block (as --backend)
  RanksGrid ranks_grid{0, 0, 0};  // the split, as choose_ranks_grid returned it
  bool print = true;              // the root rank logs the split
};

// Every rank passes the same global domain; the rank's block is cut from it (decomposition.hpp). The result's
// fields, populations and state checks are those of the whole grid: macroscopic(), start_fields_transfer() and
// read_populations() gather to rank 0 (the other ranks get empty arrays), write_populations() takes the global
// state on every rank, wall_force() and check_state() are reduced over ranks. Every call is collective.
// Throws std::invalid_argument for bad input (a kernel variant or halo transport that cannot work); a ranks grid
// whose ranks are not the ranks there are is a logic error (choose_ranks_grid checks the split). The result's `blocks` is the backend's
// block fields (collective output).
BlockBackend make_distributed_backend(RankContext& ranks, const DistributedConfig& dc, const BackendConfig& cfg,
                                      const DomainData& global, const PhysicsParams& p);

}  // namespace aerolbm
