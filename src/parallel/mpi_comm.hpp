#pragma once
// Helpers shared by the MPI sources (included only by src/parallel/mpi_*.cpp).
#include <cstdint>
#include <vector>

#include "src/parallel/decomposition.hpp"
#include "src/solver/block_fields.hpp"

namespace aerolbm {
// This rank's index among the ranks on the same node (MPI_COMM_TYPE_SHARED): the GPU it takes.
int node_local_rank();

// The rank's owned cells of block `b` (grid of n cells) with one layer from each face neighbour
// (src/parallel/mpi_block_fields.cpp). lrho, lu: the rank's local arrays (ln cells from global position
// `origin`, ghosts included). Collective: every rank calls it.
BlockFields owned_fields_with_layer(const Block& b, const std::int64_t (&n)[3], const std::int64_t (&origin)[3],
                                    const std::int64_t (&ln)[3], const std::vector<float>& lrho,
                                    const std::vector<float>& lu);
}  // namespace aerolbm
