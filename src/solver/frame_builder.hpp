#pragma once
// Lattice-unit macroscopic fields → an output Frame in free-stream units (u/U, Cp, ωL/U), with the per-cell
// formulas of kernels/physics/frame_fields.hpp (which the CUDA backend's frame kernel runs as well).
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/io/frame.hpp"

namespace aerolbm {

struct FrameRequest {
  bool velocity = true, pressure = true, density = false, vorticity = true, mask = true, q_criterion = false;
  static FrameRequest from_names(const std::vector<std::string>& fields);
  // The fields a backend computes itself (FieldsTransferOptions): all but the mask, which never changes.
  FrameFieldsSpec device_spec(double u_ref, double dx) const;
};

// The mask of the whole grid (1 = solid), the same in every frame.
std::vector<std::uint8_t> frame_mask(const DomainData& d);

// rho: 1 per cell; u: 3 per cell (lattice units). u_ref: reference speed in lattice units; dx: cell size in
// reference lengths.
Frame build_frame(const DomainData& d, const float* rho, const float* u, double u_ref, double dx,
                  const FrameRequest& req);

// The same for a box of the grid (an MPI rank's block): rho and u cover the box `in` (x fastest), the frame
// covers `out` (its arrays x fastest within `out`). `in` must hold `out` and, for the derivatives, every face
// neighbour of an `out` cell that lies inside the grid (one layer; edges and corners are not read). `d` is the
// whole grid's domain (cell types, size). Every value is the one build_frame gives that cell of the whole grid.
// Throws std::invalid_argument when `in` does not hold that.
Frame build_frame_box(const DomainData& d, const GridBox& in, const float* rho, const float* u, const GridBox& out,
                      double u_ref, double dx, const FrameRequest& req);

}  // namespace aerolbm
