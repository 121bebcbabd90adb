#pragma once
namespace aerolbm {
// Ranks announced by the MPI launcher in the environment (Open MPI's mpirun, Hydra/PMI, Slurm's srun), 0 when
// the process was not started by one.
int launcher_ranks();
}  // namespace aerolbm
