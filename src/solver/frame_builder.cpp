#include "src/solver/frame_builder.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/physics/frame_fields.hpp"

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

FrameFieldsSpec FrameRequest::device_spec(double u_ref, double dx) const {
  FrameFieldsSpec s;
  s.velocity = velocity;
  s.pressure = pressure;
  s.density = density;
  s.vorticity = vorticity;
  s.q_criterion = q_criterion;
  s.u_ref = u_ref;
  s.dx = dx;
  return s;
}

namespace {

namespace ff = frame_fields;

// Calls fn(o, cell) for every cell of `out` (o: its index in `out`; cell: global coordinates, index in the whole
// grid and in the input box), rows of x in parallel when `parallel`.
template <class Fn>
void for_each_cell(const DomainData& d, const GridBox& in, const GridBox& out, bool parallel, Fn&& fn) {
  const std::int64_t rows = out.n[1] * out.n[2];
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t r = 0; r < rows; ++r) {
    ff::Cell c;
    c.x[1] = out.lo[1] + r % out.n[1];
    c.x[2] = out.lo[2] + r / out.n[1];
    for (std::int64_t i = 0; i < out.n[0]; ++i) {
      c.x[0] = out.lo[0] + i;
      c.g = c.x[0] + d.nx * (c.x[1] + d.ny * c.x[2]);
      c.m = (c.x[0] - in.lo[0]) + in.n[0] * ((c.x[1] - in.lo[1]) + in.n[1] * (c.x[2] - in.lo[2]));
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

std::vector<std::uint8_t> frame_mask(const DomainData& d) {
  std::vector<std::uint8_t> mask(d.flags.size());
  for (std::size_t n = 0; n < mask.size(); ++n) mask[n] = ff::is_solid(d.flags[n]) ? 1 : 0;
  return mask;
}

Frame build_frame(const DomainData& d, const float* rho, const float* u, double u_ref, double dx,
                  const FrameRequest& req) {
  const GridBox all{{0, 0, 0}, {d.nx, d.ny, d.nz}};
  return build_frame_box(d, all, rho, u, all, u_ref, dx, req);
}

// The per-cell formulas are those of kernels/physics/frame_fields.hpp, which the CUDA frame kernel runs too.
Frame build_frame_box(const DomainData& d, const GridBox& in, const float* rho, const float* u, const GridBox& out,
                      double u_ref, double dx, const FrameRequest& req) {
  check_boxes(d, in, out);
  const std::int64_t N = out.cells();
  const ff::Scales s = ff::make_scales(u_ref, dx);
  const ff::Neighbourhood nb{{d.nx, d.ny, d.nz}, d.flags.data(), {in.lo[0], in.lo[1], in.lo[2]},
                             {in.n[0], in.n[1], in.n[2]}, u};
  const auto solid = [&](const ff::Cell& c) { return ff::is_solid(d.flags[c.g]); };
  Frame f;
  if (req.velocity) {
    f.velocity.resize(3 * N);
    for_each_cell(d, in, out, false, [&](std::int64_t o, const ff::Cell& c) {
      for (int a = 0; a < 3; ++a) f.velocity[3 * o + a] = ff::velocity(u[3 * c.m + a], s.inv_u, solid(c));
    });
  }
  if (req.pressure) {
    f.pressure.resize(N);
    for_each_cell(d, in, out, false, [&](std::int64_t o, const ff::Cell& c) {
      f.pressure[o] = ff::pressure(rho[c.m], s.cp_scale, solid(c));
    });
  }
  if (req.density) {
    f.density.resize(N);
    for_each_cell(d, in, out, false, [&](std::int64_t o, const ff::Cell& c) { f.density[o] = rho[c.m]; });
  }
  if (req.mask) {
    f.mask.resize(N);
    for_each_cell(d, in, out, false, [&](std::int64_t o, const ff::Cell& c) { f.mask[o] = solid(c) ? 1 : 0; });
  }
  const bool three_d = d.nz > 1;
  const int D = three_d ? 3 : 2;
  if (req.vorticity) {
    f.vorticity_components = three_d ? 3 : 1;
    f.vorticity.assign(N * f.vorticity_components, 0.0f);
  }
  if (req.q_criterion) f.q_criterion.assign(N, 0.0f);
  if (req.vorticity || req.q_criterion) {
    const int vc = f.vorticity_components;
    for_each_cell(d, in, out, true, [&](std::int64_t o, const ff::Cell& c) {
      if (solid(c)) return;
      float G[3][3];
      ff::velocity_gradient(nb, s, c, D, G);
      if (req.vorticity) ff::vorticity(G, three_d, &f.vorticity[vc * o]);
      if (req.q_criterion) f.q_criterion[o] = ff::q_criterion(G, D);
    });
  }
  return f;
}

}  // namespace aerolbm
