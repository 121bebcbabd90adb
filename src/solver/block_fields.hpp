#pragma once
// An MPI rank's share of a frame, for output written by every rank together (collective HDF5): density and
// velocity of the cells the rank owns plus one layer of its face neighbours' cells, which the derivatives
// (vorticity, Q) read. No MPI here: the distributed backend (src/parallel) provides it.
#include <vector>

#include "src/io/frame.hpp"

namespace aerolbm {

struct BlockFields {
  GridBox owned;           // the rank's cells, global coordinates
  GridBox input;           // owned plus one layer on every side that is not a face of the whole grid
  std::vector<float> rho;  // over `input`, x fastest (lattice units); edge and corner cells of the layer are 0
  std::vector<float> u;    // over `input`, 3 per cell, interleaved
};

// Implemented by backends that run one block per MPI rank (find it with dynamic_cast on the Backend).
class BlockFieldsSource {
 public:
  virtual ~BlockFieldsSource() = default;
  // The current state's fields of this rank's block. Collective: every rank calls it.
  virtual BlockFields block_fields() = 0;
};

}  // namespace aerolbm
