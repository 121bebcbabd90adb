#pragma once
// The GPU side of mesh voxelisation (kernels/cuda/voxelize.cu): the per-cell functions of mesh_voxel.hpp over a
// box of cells or a list of links. Plain C++ declarations; CPU-only builds link a version that reports no device
// (src/solver/mesh_voxelize_cuda_absent.cpp).
#include <cstddef>
#include <cstdint>

#include "kernels/geometry/mesh_voxel.hpp"

namespace aerolbm {

// Inside flags (1/0) of the cell centres (i+½, j+½, k+½) of the box lo … lo+n−1, x fastest, into out (n[0]·n[1]·n[2]
// bytes). `mesh` points to host memory; it is copied to the device. Returns false, doing nothing, when there is
// no CUDA device. Throws std::runtime_error for CUDA errors.
bool cuda_mesh_inside(const MeshView& mesh, const std::int64_t lo[3], const std::int64_t n[3], std::uint8_t* out);

// mesh_intersect for `count` segments given as 6 doubles each (a, then b), into t (count doubles, −1 = none).
// Same return and error behaviour as cuda_mesh_inside.
bool cuda_mesh_intersect(const MeshView& mesh, const double* segments, std::size_t count, double* t);

}  // namespace aerolbm
