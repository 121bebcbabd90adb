#pragma once
// Helpers shared by the MPI sources (included only by src/parallel/mpi_*.cpp).
namespace aerolbm {
// This rank's index among the ranks on the same node (MPI_COMM_TYPE_SHARED): the GPU it takes.
int node_local_rank();
}  // namespace aerolbm
