#pragma once
// A backend's two lattices (pull), for work that reads and writes populations in place beside its steps (the
// refined levels' hand-over, kernels/level_coupling.hpp): population i of cell n at i × stride + n, in the
// backend's memory (host for the CPU backend, device for CUDA, on its stream: Backend::stream_handle).
#include <cstdint>

namespace aerolbm {

struct Lattices {
  void* current = nullptr;  // the state as the work queued so far leaves it
  void* other = nullptr;    // the lattice the next step writes
  std::int64_t stride = 0;
};

class LatticeOwner {
 public:
  virtual ~LatticeOwner() = default;
  // The lattices after the work queued so far. Work queued that reads the state and has not gone out yet (a
  // deferred force sample) goes out first, so that what the caller queues next may change the state. Two-lattice
  // (pull) backends only.
  virtual Lattices lattices() = 0;
};

}  // namespace aerolbm
