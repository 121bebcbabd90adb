#pragma once
// What the run loop needs to know about the other MPI ranks, without MPI: which rank this is, the few collective
// decisions it takes (stop on a signal any rank received), and the backend that runs one block per rank (made by
// src/parallel, which implements this). Null in a single-process run.
#include <array>

#include "src/solver/block_fields.hpp"

namespace aerolbm {

class RankContext {
 public:
  virtual ~RankContext() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool root() const { return rank() == 0; }
  // The largest of every rank's value (every rank calls it).
  virtual int max_over_ranks(int value) = 0;
  virtual void barrier() = 0;
  // Ends every rank at once with this exit status (an error on one rank while the others wait in a collective).
  [[noreturn]] virtual void abort(int status) = 0;
  // The backend of the whole grid `d` that runs this rank's block on a `backend` backend, the grid split as `grid`
  // (ranks along x, y, z, as choose_ranks_grid returned it), with its block fields (collective output). Collective:
  // every rank calls it. A split or halo transport that cannot work throws InputError.
  virtual BlockBackend make_backend(BackendKind backend, const std::array<int, 3>& grid, const BackendConfig& cfg,
                                    const DomainData& d, const PhysicsParams& p) = 0;
};

}  // namespace aerolbm
