#pragma once
// Lattice-unit macroscopic fields → an output Frame in free-stream units (u/U, Cp, ωL/U).
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/io/frame.hpp"

namespace aerolbm {

struct FrameRequest {
  bool velocity = true, pressure = true, density = false, vorticity = true, mask = true, q_criterion = false;
  static FrameRequest from_names(const std::vector<std::string>& fields);
};

// rho: 1 per cell; u: 3 per cell (lattice units). u_ref: reference speed in lattice units; dx: cell size in
// reference lengths.
Frame build_frame(const DomainData& d, const float* rho, const float* u, double u_ref, double dx,
                  const FrameRequest& req);

}  // namespace aerolbm
