#pragma once
// An MPI rank's share of a frame, for output written by every rank together (collective HDF5): density and
// velocity of the cells the rank owns plus one layer of its face neighbours' cells, which the derivatives
// (vorticity, Q) read. No MPI here: the distributed backend (src/parallel) provides it.
#include <memory>
#include <vector>

#include "kernels/backend.hpp"
#include "src/io/frame.hpp"

namespace aerolbm {

struct BlockFields {
  GridBox owned;           // the rank's cells, global coordinates
  GridBox input;           // owned plus one layer on every side that is not a face of the whole grid
  std::vector<float> rho;  // over `input`, x fastest (lattice units); edge and corner cells of the layer are 0
  std::vector<float> u;    // over `input`, 3 per cell, interleaved
};

// Implemented by backends that run one block per MPI rank; whoever makes such a backend hands it on beside it
// (BlockBackend), so that nobody has to find out what a Backend is.
class BlockFieldsSource {
 public:
  virtual ~BlockFieldsSource() = default;
  // The current state's fields of this rank's block. Collective: every rank calls it.
  virtual BlockFields block_fields() = 0;
};

// A backend of the whole grid and, where it runs one block per MPI rank, the same object's block fields for
// output written by every rank together; null for a backend of one process.
struct BlockBackend {
  std::unique_ptr<Backend> backend;
  BlockFieldsSource* blocks = nullptr;
};

}  // namespace aerolbm
