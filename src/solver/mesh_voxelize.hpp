#pragma once
// Voxelisation of triangle-mesh bodies (wings, STL): the cell-centre inside test over a box and the wall fraction
// of a list of links, on the GPU when this build has CUDA and a device is present, otherwise on the CPU (OpenMP).
// Both run the same per-cell functions (kernels/geometry/mesh_voxel.hpp) and give identical results.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/geometry/mesh_voxel.hpp"

namespace aerolbm {

enum class VoxelDevice { Auto, Cpu, Cuda };

// Inside flags (1/0) of the cell centres of the box lo … lo+n−1, x fastest, for the mesh of a triangle-mesh body
// (Body::mesh()). Returns where it ran ("cpu" or
// "cuda"). VoxelDevice::Cuda without a device throws std::runtime_error.
std::string mesh_inside_cells(const MeshView& mesh, const std::int64_t lo[3], const std::int64_t n[3],
                              std::vector<std::uint8_t>& inside, VoxelDevice device = VoxelDevice::Auto);

// Fractions t ∈ [0, 1] at which each segment (6 doubles: a, then b) first meets the surface, −1 where it does
// not. Returns where it ran.
std::string mesh_link_fractions(const MeshView& mesh, const std::vector<double>& segments, std::vector<double>& t,
                                VoxelDevice device = VoxelDevice::Auto);

}  // namespace aerolbm
