#include "src/solver/mesh_voxelize.hpp"

#include <stdexcept>

#include <spdlog/spdlog.h>

#include "kernels/geometry/mesh_voxel_cuda.hpp"

namespace aerolbm {
namespace {

bool want_gpu(VoxelDevice d) { return d != VoxelDevice::Cpu; }

// Runs the GPU version; with VoxelDevice::Auto a CUDA failure (a device busy or out of memory) falls back to the
// CPU, which gives the same result, instead of stopping the run.
template <class F>
bool try_gpu(VoxelDevice d, const F& f) {
  if (d != VoxelDevice::Auto) return f();
  try {
    return f();
  } catch (const std::runtime_error& e) {
    spdlog::warn("voxelisation on the GPU failed ({}); using the CPU", e.what());
    return false;
  }
}

void no_gpu(VoxelDevice d) {
  if (d == VoxelDevice::Cuda) throw std::runtime_error("mesh voxelisation on CUDA was asked for, but there is no CUDA device");
}

}  // namespace

std::string mesh_inside_cells(const MeshView& m, const std::int64_t lo[3], const std::int64_t n[3],
                              std::vector<std::uint8_t>& inside, VoxelDevice device) {
  const std::int64_t total = n[0] * n[1] * n[2];
  inside.assign(static_cast<std::size_t>(total), 0);
  if (want_gpu(device) && try_gpu(device, [&] { return cuda_mesh_inside(m, lo, n, inside.data()); })) return "cuda";
  no_gpu(device);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t c = 0; c < total; ++c) {
    const std::int64_t x = c % n[0], y = (c / n[0]) % n[1], z = c / (n[0] * n[1]);
    inside[c] = mesh_inside(m, double(lo[0] + x) + 0.5, double(lo[1] + y) + 0.5, double(lo[2] + z) + 0.5) ? 1 : 0;
  }
  return "cpu";
}

std::string mesh_link_fractions(const MeshView& m, const std::vector<double>& segments, std::vector<double>& t,
                                VoxelDevice device) {
  const std::size_t count = segments.size() / 6;
  t.assign(count, -1.0);
  if (want_gpu(device) && try_gpu(device, [&] { return cuda_mesh_intersect(m, segments.data(), count, t.data()); }))
    return "cuda";
  no_gpu(device);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i)
    t[i] = mesh_intersect(m, segments.data() + 6 * i, segments.data() + 6 * i + 3);
  return "cpu";
}

}  // namespace aerolbm
