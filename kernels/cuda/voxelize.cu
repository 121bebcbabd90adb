// Mesh voxelisation on the GPU: one thread per cell (inside test) or per link (wall fraction), calling the same
// functions as the CPU (kernels/geometry/mesh_voxel.hpp). With -fmad=false both give the same bits.
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/geometry/mesh_voxel_cuda.hpp"

namespace aerolbm {
namespace {

bool have_device() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return n > 0;
}

// The mesh's arrays on the device and a view that points to them.
struct DeviceMesh {
  cuda::DeviceBuffer<double> tri;
  cuda::DeviceBuffer<std::uint8_t> edges;
  cuda::DeviceBuffer<std::uint32_t> col_start, col_ids, cell_start, cell_ids;
  MeshView view;

  static void copy_grid(const MeshGridView& host, cuda::DeviceBuffer<std::uint32_t>& start,
                        cuda::DeviceBuffer<std::uint32_t>& ids, MeshGridView& dev) {
    const std::size_t total = host.n[0] * host.n[1] * host.n[2];
    start.resize(total + 1);
    start.upload(host.start, total + 1);
    const std::size_t count = host.start[total];
    ids.resize(count > 0 ? count : 1);
    ids.upload(host.ids, count);
    dev = host;
    dev.start = start.data();
    dev.ids = ids.data();
  }

  explicit DeviceMesh(const MeshView& host) : view(host) {
    tri.resize(9 * std::size_t(host.n_tri));
    tri.upload(host.tri, 9 * std::size_t(host.n_tri));
    edges.resize(host.n_tri);
    edges.upload(host.edge_forward, host.n_tri);
    view.tri = tri.data();
    view.edge_forward = edges.data();
    copy_grid(host.columns, col_start, col_ids, view.columns);
    copy_grid(host.cells, cell_start, cell_ids, view.cells);
  }
};

__global__ void inside_kernel(MeshView m, long long lx, long long ly, long long lz, long long nx, long long ny,
                              long long total, std::uint8_t* out) {
  const long long c = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (c >= total) return;
  const long long x = c % nx, y = (c / nx) % ny, z = c / (nx * ny);
  out[c] = mesh_inside(m, double(lx + x) + 0.5, double(ly + y) + 0.5, double(lz + z) + 0.5) ? 1 : 0;
}

__global__ void intersect_kernel(MeshView m, const double* seg, long long count, double* t) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  t[i] = mesh_intersect(m, seg + 6 * i, seg + 6 * i + 3);
}

constexpr int kBlock = 128;

}  // namespace

bool cuda_mesh_inside(const MeshView& mesh, const std::int64_t lo[3], const std::int64_t n[3], std::uint8_t* out) {
  if (!have_device()) return false;
  const long long total = static_cast<long long>(n[0]) * n[1] * n[2];
  if (total <= 0) return true;
  DeviceMesh dm(mesh);
  cuda::DeviceBuffer<std::uint8_t> flags(static_cast<std::size_t>(total));
  const long long blocks = (total + kBlock - 1) / kBlock;
  inside_kernel<<<static_cast<unsigned>(blocks), kBlock>>>(dm.view, lo[0], lo[1], lo[2], n[0], n[1], total,
                                                           flags.data());
  AEROLBM_CUDA_LAUNCH_CHECK();
  AEROLBM_CUDA_CHECK(cudaDeviceSynchronize());
  flags.download(out, static_cast<std::size_t>(total));
  return true;
}

bool cuda_mesh_intersect(const MeshView& mesh, const double* segments, std::size_t count, double* t) {
  if (!have_device()) return false;
  if (count == 0) return true;
  DeviceMesh dm(mesh);
  cuda::DeviceBuffer<double> seg(6 * count), out(count);
  seg.upload(segments, 6 * count);
  const long long blocks = (static_cast<long long>(count) + kBlock - 1) / kBlock;
  intersect_kernel<<<static_cast<unsigned>(blocks), kBlock>>>(dm.view, seg.data(), static_cast<long long>(count),
                                                              out.data());
  AEROLBM_CUDA_LAUNCH_CHECK();
  AEROLBM_CUDA_CHECK(cudaDeviceSynchronize());
  out.download(t, count);
  return true;
}

}  // namespace aerolbm
