// MPI start-up, the rank context, and CUDA-awareness detection (AEROLBM_MPI builds only).
#include <dlfcn.h>
// The C API only (Open MPI and MPICH would otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "src/parallel/launcher.hpp"
#include "src/parallel/mpi_comm.hpp"
#include "src/parallel/parallel.hpp"
#include "src/util/input_error.hpp"

namespace aerolbm {
namespace {

class MpiContext final : public RankContext {
 public:
  MpiContext() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int max_over_ranks(int v) override {
    int out = v;
    MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return out;
  }
  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
  [[noreturn]] void abort(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);
  }
  BlockBackend make_backend(BackendKind backend, const std::array<int, 3>& grid, const BackendConfig& cfg,
                            const DomainData& d, const PhysicsParams& p) override {
    DistributedConfig dc;
    dc.backend = backend;
    dc.ranks_grid = grid;
    try {
      return make_distributed_backend(*this, dc, cfg, d, p);
    } catch (const std::invalid_argument& e) {
      throw InputError("--ranks-grid / parallel.ranks_grid: " + std::string(e.what()));
    }
  }

 private:
  int rank_ = 0, size_ = 1;
};

void finalize_at_exit() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

}  // namespace

bool mpi_built() { return true; }

std::shared_ptr<RankContext> start_ranks() {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    // A process not started by a launcher stays a plain process: a singleton MPI start costs time and, in
    // containers, warnings.
    if (launcher_ranks() <= 1 && !std::getenv("AEROLBM_FORCE_MPI")) return nullptr;
    int provided = 0;
    // The frame writer thread makes no MPI calls; only the main thread does.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    std::atexit(finalize_at_exit);
  }
  auto ctx = std::make_shared<MpiContext>();
  if (ctx->size() <= 1) return nullptr;
  return ctx;
}

// Asked of the library loaded at run time, not of the headers compiled against (Debian's Open MPI is built
// without CUDA, a GPU cluster's usually with): Open MPI's MPIX_Query_cuda_support, looked up by name so that a
// library without it still loads.
bool mpi_cuda_aware() {
  using Query = int (*)();
  const auto query = reinterpret_cast<Query>(dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support"));
  return query && query() == 1;
}

int node_local_rank() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

}  // namespace aerolbm
