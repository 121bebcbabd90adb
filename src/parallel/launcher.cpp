#include "src/parallel/launcher.hpp"

#include <cstdlib>
#include <string>

namespace aerolbm {

int launcher_ranks() {
  // SLURM_STEP_NUM_TASKS is set in tasks started by srun, not in the batch script itself.
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS"}) {
    const char* v = std::getenv(var);
    if (!v || !*v) continue;
    try {
      const int n = std::stoi(v);
      if (n > 0) return n;
    } catch (...) {
    }
  }
  return 0;
}

}  // namespace aerolbm
