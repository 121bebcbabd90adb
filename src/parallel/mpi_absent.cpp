// Built instead of the mpi_*.cpp files when AEROLBM_MPI is off.
#include <stdexcept>
#include <string>

#include "src/parallel/launcher.hpp"
#include "src/parallel/parallel.hpp"

namespace aerolbm {

bool mpi_built() { return false; }
std::shared_ptr<RankContext> start_ranks() {
  // Several copies of a serial build would each run the whole case into the same folder.
  if (launcher_ranks() > 1)
    throw std::runtime_error("started by an MPI launcher with " + std::to_string(launcher_ranks()) +
                             " ranks, but this aerolbm was built without MPI. Rebuild with -DAEROLBM_MPI=ON "
                             "(bash scripts/setup.sh does when Open MPI is installed), or run a single process.");
  return nullptr;
}
bool mpi_cuda_aware() { return false; }

BlockBackend make_distributed_backend(RankContext&, const DistributedConfig&, const BackendConfig&, const DomainData&,
                                      const PhysicsParams&) {
  throw std::logic_error("aerolbm was built without MPI (configure with -DAEROLBM_MPI=ON)");
}

}  // namespace aerolbm
