#pragma once
// A CUDA backend's two lattices, for device work queued beside its steps on its stream (the refined levels'
// hand-over, kernels/cuda/level_coupling.cu), which reads and writes populations in place rather than through halo
// buffers: each lattice is Q rows of `cells` values (population i of cell n at i × cells + n).
#include <cstdint>

namespace aerolbm::cuda {

struct DeviceLattices {
  void* current = nullptr;  // the state as the work queued so far leaves it
  void* other = nullptr;    // the lattice the next step writes
  std::int64_t cells = 0;
};

class DeviceLatticeOwner {
 public:
  virtual ~DeviceLatticeOwner() = default;
  // The lattices after the work queued so far, on the backend's stream (Backend::stream_handle). Work queued that
  // reads the state and has not gone out yet (a deferred force sample) goes out first, so that what the caller
  // queues next may change the state. Two-lattice (pull) backends only.
  virtual DeviceLattices device_lattices() = 0;
};

}  // namespace aerolbm::cuda
