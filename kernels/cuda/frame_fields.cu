// The frame kernel: one thread per cell, the per-cell formulas of kernels/physics/frame_fields.hpp. Compiled with
// -fmad=false like the other LBM sources, so that no multiply-add is contracted and the fields equal the host's.
#include "kernels/cuda/frame_fields.cuh"

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/physics/frame_fields.hpp"

namespace aerolbm::cuda {
namespace {

namespace ff = frame_fields;

struct FrameOut {
  float* velocity;
  float* pressure;
  float* density;
  float* vorticity;
  float* q_criterion;
};

__global__ void __launch_bounds__(256) frame_fields_kernel(ff::Neighbourhood nb, ff::Scales s,
                                                           const float* __restrict__ rho, FrameOut out) {
  const std::int64_t cells = nb.dims[0] * nb.dims[1] * nb.dims[2];
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= cells) return;
  ff::Cell c;
  c.x[0] = n % nb.dims[0];
  c.x[1] = (n / nb.dims[0]) % nb.dims[1];
  c.x[2] = n / (nb.dims[0] * nb.dims[1]);
  c.g = n;
  c.m = n;  // the velocity covers the whole grid
  const bool solid = ff::is_solid(nb.flags[n]);
  if (out.velocity)
    for (int a = 0; a < 3; ++a) out.velocity[3 * n + a] = ff::velocity(nb.u[3 * n + a], s.inv_u, solid);
  if (out.pressure) out.pressure[n] = ff::pressure(rho[n], s.cp_scale, solid);
  if (out.density) out.density[n] = rho[n];
  if (!out.vorticity && !out.q_criterion) return;
  const bool three_d = nb.dims[2] > 1;
  const int vc = three_d ? 3 : 1;
  if (solid) {
    if (out.vorticity)
      for (int a = 0; a < vc; ++a) out.vorticity[vc * n + a] = 0.0f;
    if (out.q_criterion) out.q_criterion[n] = 0.0f;
    return;
  }
  const int D = three_d ? 3 : 2;
  float G[3][3];
  ff::velocity_gradient(nb, s, c, D, G);
  if (out.vorticity) {
    float w[3];
    ff::vorticity(G, three_d, w);
    for (int a = 0; a < vc; ++a) out.vorticity[vc * n + a] = w[a];
  }
  if (out.q_criterion) out.q_criterion[n] = ff::q_criterion(G, D);
}

}  // namespace

void launch_frame_fields(const std::uint8_t* flags, std::int64_t nx, std::int64_t ny, std::int64_t nz,
                         const float* rho, const float* u, double u_ref, double dx, float* velocity, float* pressure,
                         float* density, float* vorticity, float* q_criterion, cudaStream_t stream) {
  const std::int64_t cells = nx * ny * nz;
  if (cells <= 0) return;
  const ff::Neighbourhood nb{{nx, ny, nz}, flags, {0, 0, 0}, {nx, ny, nz}, u};
  const ff::Scales s = ff::make_scales(u_ref, dx);
  const FrameOut out{velocity, pressure, density, vorticity, q_criterion};
  const int block = 256;
  frame_fields_kernel<<<unsigned((cells + block - 1) / block), block, 0, stream>>>(nb, s, rho, out);
  AEROLBM_CUDA_LAUNCH_CHECK();
}

}  // namespace aerolbm::cuda
