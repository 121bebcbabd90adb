// CPU-only builds: the GPU voxeliser reports that there is no device, and the CPU loops run instead.
#ifndef AEROLBM_HAVE_CUDA
#include "kernels/geometry/mesh_voxel_cuda.hpp"

namespace aerolbm {

bool cuda_mesh_inside(const MeshView&, const std::int64_t*, const std::int64_t*, std::uint8_t*) { return false; }
bool cuda_mesh_intersect(const MeshView&, const double*, std::size_t, double*) { return false; }

}  // namespace aerolbm
#endif
