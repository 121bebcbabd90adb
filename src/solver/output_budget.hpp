#pragma once
// The memory bound of the output pipeline (src/solver/async_frame_writer.hpp): how many frames may be in flight
// between the solver and the disk at once. Shared by the run and by the resource check before it starts.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace aerolbm {

// Host memory the frames in flight may hold together.
inline constexpr double kOutputMemoryBudget = 2.0 * 1024 * 1024 * 1024;

// Host bytes one frame holds while in flight: its float fields (velocity 3, vorticity 3 in 3D and 1 in 2D,
// pressure, density, Q: 1 per cell) and, when it is built on the host (CPU backend, MPI gathers), the density and
// velocity it is built from (16 bytes per cell) and its mask (1). Frames computed on the GPU share one mask.
inline double frame_host_bytes(const std::vector<std::string>& fields, bool three_d, double cells,
                               bool built_on_host) {
  double floats = 0;
  bool mask = false;
  for (const auto& f : fields) {
    if (f == "mask") mask = true;
    else floats += f == "velocity" ? 3 : (f == "vorticity" && three_d) ? 3 : 1;
  }
  return cells * (4 * floats + (built_on_host ? 16 + (mask ? 1 : 0) : 0));
}

// As many frames as fit in kOutputMemoryBudget, at least 2 (one written while the next arrives) and at most 8.
inline int frames_in_flight(double frame_bytes) {
  if (!(frame_bytes > 0)) return 8;
  return int(std::clamp(kOutputMemoryBudget / frame_bytes, 2.0, 8.0));
}

}  // namespace aerolbm
