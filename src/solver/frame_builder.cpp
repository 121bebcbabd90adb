#include "src/solver/frame_builder.hpp"

#include <algorithm>

#include "kernels/lattice/lattice.hpp"

namespace aerolbm {

FrameRequest FrameRequest::from_names(const std::vector<std::string>& fields) {
  FrameRequest r{false, false, false, false, false, false};
  for (const auto& f : fields) {
    if (f == "velocity") r.velocity = true;
    if (f == "pressure") r.pressure = true;
    if (f == "density") r.density = true;
    if (f == "vorticity") r.vorticity = true;
    if (f == "mask") r.mask = true;
    if (f == "q_criterion") r.q_criterion = true;
  }
  return r;
}

namespace {

bool is_solid(const DomainData& d, std::int64_t n) { return (d.flags[n] & cell::type_mask) == cell::solid; }

// Central differences where both neighbours are fluid, one-sided next to walls and faces.
float derivative(const DomainData& d, const std::vector<float>& u, int comp, std::int64_t x[3], int axis, double h) {
  const std::int64_t dims[3] = {d.nx, d.ny, d.nz};
  const std::int64_t stride[3] = {1, d.nx, d.nx * d.ny};
  const std::int64_t n = x[0] + stride[1] * x[1] + stride[2] * x[2];
  const bool has_lo = x[axis] > 0 && !is_solid(d, n - stride[axis]);
  const bool has_hi = x[axis] + 1 < dims[axis] && !is_solid(d, n + stride[axis]);
  const auto val = [&](std::int64_t m) { return double(u[3 * m + comp]); };
  if (has_lo && has_hi) return float((val(n + stride[axis]) - val(n - stride[axis])) / (2 * h));
  if (has_hi) return float((val(n + stride[axis]) - val(n)) / h);
  if (has_lo) return float((val(n) - val(n - stride[axis])) / h);
  return 0.0f;
}

}  // namespace

Frame build_frame(const DomainData& d, const float* rho, const float* u, double u_ref, double dx,
                  const FrameRequest& req) {
  const std::int64_t N = d.cells();
  const double inv_u = 1.0 / u_ref;
  const double cp_scale = cs2 / (0.5 * u_ref * u_ref);
  Frame f;
  std::vector<float> un(3 * N);
  for (std::int64_t n = 0; n < N; ++n) {
    const bool solid = is_solid(d, n);
    for (int a = 0; a < 3; ++a) un[3 * n + a] = solid ? 0.0f : float(u[3 * n + a] * inv_u);
  }
  if (req.pressure) {
    f.pressure.resize(N);
    for (std::int64_t n = 0; n < N; ++n) f.pressure[n] = is_solid(d, n) ? 0.0f : float((rho[n] - 1.0) * cp_scale);
  }
  if (req.density) f.density.assign(rho, rho + N);
  if (req.mask) {
    f.mask.resize(N);
    for (std::int64_t n = 0; n < N; ++n) f.mask[n] = is_solid(d, n) ? 1 : 0;
  }
  if (req.vorticity) {
    const bool three_d = d.nz > 1;
    f.vorticity_components = three_d ? 3 : 1;
    f.vorticity.assign(N * f.vorticity_components, 0.0f);
#pragma omp parallel for schedule(static)
    for (std::int64_t n = 0; n < N; ++n) {
      if (is_solid(d, n)) continue;
      std::int64_t x[3] = {n % d.nx, (n / d.nx) % d.ny, n / (d.nx * d.ny)};
      const float wz = derivative(d, un, 1, x, 0, dx) - derivative(d, un, 0, x, 1, dx);
      if (!three_d) {
        f.vorticity[n] = wz;
      } else {
        f.vorticity[3 * n + 0] = derivative(d, un, 2, x, 1, dx) - derivative(d, un, 1, x, 2, dx);
        f.vorticity[3 * n + 1] = derivative(d, un, 0, x, 2, dx) - derivative(d, un, 2, x, 0, dx);
        f.vorticity[3 * n + 2] = wz;
      }
    }
  }
  if (req.q_criterion) {
    // Q = ½(|Ω|² − |S|²) = −½ Σ G_ij G_ji for the velocity gradient G_ij = ∂u_i/∂x_j.
    const int D = d.nz > 1 ? 3 : 2;
    f.q_criterion.assign(N, 0.0f);
#pragma omp parallel for schedule(static)
    for (std::int64_t n = 0; n < N; ++n) {
      if (is_solid(d, n)) continue;
      std::int64_t x[3] = {n % d.nx, (n / d.nx) % d.ny, n / (d.nx * d.ny)};
      double G[3][3] = {};
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) G[i][j] = derivative(d, un, i, x, j, dx);
      double q = 0;
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) q -= 0.5 * G[i][j] * G[j][i];
      f.q_criterion[n] = float(q);
    }
  }
  if (req.velocity) f.velocity = std::move(un);
  return f;
}

}  // namespace aerolbm
