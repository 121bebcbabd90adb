#include "src/solver/frame_builder.hpp"

#include <algorithm>
#include <stdexcept>

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

// One cell of the output box: its global coordinates, its index in the whole grid and in the input box.
struct At {
  std::int64_t x[3];
  std::int64_t g;  // whole grid
  std::int64_t m;  // input box
};

// Index arithmetic of the whole grid and of the input box.
struct Boxes {
  std::int64_t dims[3], gstride[3], istride[3];
  Boxes(const DomainData& d, const GridBox& in)
      : dims{d.nx, d.ny, d.nz}, gstride{1, d.nx, d.nx * d.ny}, istride{1, in.n[0], in.n[0] * in.n[1]} {}
};

// Central differences where both neighbours are fluid, one-sided next to walls and faces of the whole grid.
float derivative(const DomainData& d, const Boxes& b, const std::vector<float>& u, int comp, const At& c, int axis,
                 double h) {
  const bool has_lo = c.x[axis] > 0 && !is_solid(d, c.g - b.gstride[axis]);
  const bool has_hi = c.x[axis] + 1 < b.dims[axis] && !is_solid(d, c.g + b.gstride[axis]);
  const std::int64_t s = b.istride[axis];
  const auto val = [&](std::int64_t m) { return double(u[3 * m + comp]); };
  if (has_lo && has_hi) return float((val(c.m + s) - val(c.m - s)) / (2 * h));
  if (has_hi) return float((val(c.m + s) - val(c.m)) / h);
  if (has_lo) return float((val(c.m) - val(c.m - s)) / h);
  return 0.0f;
}

// Calls fn(o, At) for every cell of `out` (o: its index in `out`), rows of x in parallel when `parallel`.
template <class Fn>
void for_each_cell(const GridBox& in, const GridBox& out, const Boxes& b, bool parallel, Fn&& fn) {
  const std::int64_t rows = out.n[1] * out.n[2];
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t r = 0; r < rows; ++r) {
    At c;
    c.x[1] = out.lo[1] + r % out.n[1];
    c.x[2] = out.lo[2] + r / out.n[1];
    for (std::int64_t i = 0; i < out.n[0]; ++i) {
      c.x[0] = out.lo[0] + i;
      c.g = c.x[0] + b.gstride[1] * c.x[1] + b.gstride[2] * c.x[2];
      c.m = (c.x[0] - in.lo[0]) + b.istride[1] * (c.x[1] - in.lo[1]) + b.istride[2] * (c.x[2] - in.lo[2]);
      fn(r * out.n[0] + i, c);
    }
  }
}

void check_boxes(const DomainData& d, const GridBox& in, const GridBox& out) {
  const std::int64_t dims[3] = {d.nx, d.ny, d.nz};
  for (int a = 0; a < 3; ++a) {
    const std::int64_t need_lo = std::max<std::int64_t>(0, out.lo[a] - 1);
    const std::int64_t need_hi = std::min(dims[a], out.lo[a] + out.n[a] + 1);
    if (out.n[a] < 1 || out.lo[a] < 0 || out.lo[a] + out.n[a] > dims[a] || in.lo[a] > need_lo ||
        in.lo[a] + in.n[a] < need_hi || in.lo[a] < 0 || in.lo[a] + in.n[a] > dims[a])
      throw std::invalid_argument("build_frame_box: the input box does not hold the output box and its neighbours "
                                  "along axis " + std::to_string(a));
  }
}

}  // namespace

Frame build_frame(const DomainData& d, const float* rho, const float* u, double u_ref, double dx,
                  const FrameRequest& req) {
  const GridBox all{{0, 0, 0}, {d.nx, d.ny, d.nz}};
  return build_frame_box(d, all, rho, u, all, u_ref, dx, req);
}

Frame build_frame_box(const DomainData& d, const GridBox& in, const float* rho, const float* u, const GridBox& out,
                      double u_ref, double dx, const FrameRequest& req) {
  check_boxes(d, in, out);
  const Boxes b(d, in);
  const std::int64_t N = out.cells();
  const double inv_u = 1.0 / u_ref;
  const double cp_scale = cs2 / (0.5 * u_ref * u_ref);
  Frame f;
  // Velocity in units of U over the input box (the derivatives read the neighbours' values), zero in solids.
  std::vector<float> un(3 * in.cells());
  for_each_cell(in, in, b, false, [&](std::int64_t, const At& c) {
    const bool solid = is_solid(d, c.g);
    for (int a = 0; a < 3; ++a) un[3 * c.m + a] = solid ? 0.0f : float(u[3 * c.m + a] * inv_u);
  });
  if (req.pressure) {
    f.pressure.resize(N);
    for_each_cell(in, out, b, false, [&](std::int64_t o, const At& c) {
      f.pressure[o] = is_solid(d, c.g) ? 0.0f : float((rho[c.m] - 1.0) * cp_scale);
    });
  }
  if (req.density) {
    f.density.resize(N);
    for_each_cell(in, out, b, false, [&](std::int64_t o, const At& c) { f.density[o] = rho[c.m]; });
  }
  if (req.mask) {
    f.mask.resize(N);
    for_each_cell(in, out, b, false, [&](std::int64_t o, const At& c) { f.mask[o] = is_solid(d, c.g) ? 1 : 0; });
  }
  if (req.vorticity) {
    const bool three_d = d.nz > 1;
    f.vorticity_components = three_d ? 3 : 1;
    f.vorticity.assign(N * f.vorticity_components, 0.0f);
    for_each_cell(in, out, b, true, [&](std::int64_t o, const At& c) {
      if (is_solid(d, c.g)) return;
      const float wz = derivative(d, b, un, 1, c, 0, dx) - derivative(d, b, un, 0, c, 1, dx);
      if (!three_d) {
        f.vorticity[o] = wz;
      } else {
        f.vorticity[3 * o + 0] = derivative(d, b, un, 2, c, 1, dx) - derivative(d, b, un, 1, c, 2, dx);
        f.vorticity[3 * o + 1] = derivative(d, b, un, 0, c, 2, dx) - derivative(d, b, un, 2, c, 0, dx);
        f.vorticity[3 * o + 2] = wz;
      }
    });
  }
  if (req.q_criterion) {
    // Q = ½(|Ω|² − |S|²) = −½ Σ G_ij G_ji for the velocity gradient G_ij = ∂u_i/∂x_j.
    const int D = d.nz > 1 ? 3 : 2;
    f.q_criterion.assign(N, 0.0f);
    for_each_cell(in, out, b, true, [&](std::int64_t o, const At& c) {
      if (is_solid(d, c.g)) return;
      double G[3][3] = {};
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) G[i][j] = derivative(d, b, un, i, c, j, dx);
      double q = 0;
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) q -= 0.5 * G[i][j] * G[j][i];
      f.q_criterion[o] = float(q);
    });
  }
  if (req.velocity) {
    if (in.cells() == N) {
      f.velocity = std::move(un);  // the whole grid (in = out)
    } else {
      f.velocity.resize(3 * N);
      for_each_cell(in, out, b, false, [&](std::int64_t o, const At& c) {
        for (int a = 0; a < 3; ++a) f.velocity[3 * o + a] = un[3 * c.m + a];
      });
    }
  }
  return f;
}

}  // namespace aerolbm
