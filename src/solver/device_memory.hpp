#pragma once
// Free and total memory of the current CUDA device, for the resource check before a run. Defined in
// kernels/cuda/device_info.cu, and in src/solver/cuda_absent.cpp for CPU-only builds (there it returns false).
#include <cstddef>

namespace aerolbm {

// True and the byte counts when a device answers; false when there is none or the query fails.
bool cuda_device_memory(std::size_t& free_bytes, std::size_t& total_bytes);

}  // namespace aerolbm
