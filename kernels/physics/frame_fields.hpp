#pragma once
// The output fields of a frame, cell by cell, from the lattice-unit density and velocity: u/U, the pressure
// coefficient Cp, the vorticity ωL/U and the Q-criterion, in free-stream units. Written once as host/device
// functions: the host frame builder (src/solver/frame_builder.cpp: CPU runs, MPI blocks) and the CUDA frame kernel
// (kernels/cuda/frame_fields.cu) call this code, so a frame made on the GPU equals the host's bit for bit: the same
// IEEE operations in the same order (fp64 where the host uses fp64, correctly rounded division and conversions),
// and no multiply-add contraction on either side (-fmad=false for the CUDA sources; C++20 without GNU extensions
// and x86-64 without FMA on the host).
#include <cstdint>

#include "kernels/lattice/lattice.hpp"
#include "kernels/physics/hd.hpp"
#include "kernels/physics/params.hpp"

namespace aerolbm::frame_fields {

// The scale factors of one run.
struct Scales {
  double inv_u;     // 1 / U, U the reference speed in lattice units
  double cp_scale;  // c_s² / (½ U²): Cp = (ρ − 1) · cp_scale
  double h;         // cell size in reference lengths: the step of the derivatives
};

inline Scales make_scales(double u_ref, double dx) { return Scales{1.0 / u_ref, cs2 / (0.5 * u_ref * u_ref), dx}; }

AEROLBM_HD bool is_solid(std::uint8_t flags) { return (flags & cell::type_mask) == cell::solid; }

// One velocity component in units of U (0 in solid cells).
AEROLBM_HD float velocity(float u, double inv_u, bool solid) { return solid ? 0.0f : float(u * inv_u); }

// Pressure coefficient from the lattice density (p = c_s² ρ; 0 in solid cells).
AEROLBM_HD float pressure(float rho, double cp_scale, bool solid) {
  return solid ? 0.0f : float((rho - 1.0) * cp_scale);
}

// What the derivatives read: the whole grid's size and cell flags, and the lattice-unit velocity over a box of the
// grid (the whole grid, or an MPI block plus one layer of its neighbours), x fastest, 3 values per cell.
struct Neighbourhood {
  std::int64_t dims[3];       // whole grid: nx, ny, nz
  const std::uint8_t* flags;  // whole grid
  std::int64_t lo[3];         // the velocity box: global coordinates of its first cell
  std::int64_t n[3];          //   and its size
  const float* u;             // over the box (lattice units)
};

// One cell: its global coordinates, its index in the whole grid (g) and in the velocity box (m).
struct Cell {
  std::int64_t x[3];
  std::int64_t g;
  std::int64_t m;
};

// ∂(u_comp/U)/∂x_axis at cell c: central differences where both neighbours are fluid, one-sided next to walls and
// the faces of the whole grid, 0 with neither. Reads the velocity of c and of its fluid neighbours only.
AEROLBM_HD float derivative(const Neighbourhood& v, const Scales& s, const Cell& c, int comp, int axis) {
  const std::int64_t gs = axis == 0 ? 1 : axis == 1 ? v.dims[0] : v.dims[0] * v.dims[1];
  const std::int64_t ms = axis == 0 ? 1 : axis == 1 ? v.n[0] : v.n[0] * v.n[1];
  const bool has_lo = c.x[axis] > 0 && !is_solid(v.flags[c.g - gs]);
  const bool has_hi = c.x[axis] + 1 < v.dims[axis] && !is_solid(v.flags[c.g + gs]);
  if (has_lo && has_hi) {
    const double hi = velocity(v.u[3 * (c.m + ms) + comp], s.inv_u, false);
    const double lo = velocity(v.u[3 * (c.m - ms) + comp], s.inv_u, false);
    return float((hi - lo) / (2 * s.h));
  }
  if (has_hi) {
    const double hi = velocity(v.u[3 * (c.m + ms) + comp], s.inv_u, false);
    const double mid = velocity(v.u[3 * c.m + comp], s.inv_u, false);
    return float((hi - mid) / s.h);
  }
  if (has_lo) {
    const double mid = velocity(v.u[3 * c.m + comp], s.inv_u, false);
    const double lo = velocity(v.u[3 * (c.m - ms) + comp], s.inv_u, false);
    return float((mid - lo) / s.h);
  }
  return 0.0f;
}

// The velocity gradient G[i][j] = ∂u_i/∂x_j (in U/L) of a fluid cell, for i, j < D (D = 2 or 3).
AEROLBM_HD void velocity_gradient(const Neighbourhood& v, const Scales& s, const Cell& c, int D, float G[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) G[i][j] = i < D && j < D ? derivative(v, s, c, i, j) : 0.0f;
}

// Vorticity ω = ∇ × u (ωL/U): the z component alone in 2D (w[0]), x, y, z in 3D.
AEROLBM_HD void vorticity(const float G[3][3], bool three_d, float* w) {
  const float wz = G[1][0] - G[0][1];
  if (!three_d) {
    w[0] = wz;
    return;
  }
  w[0] = G[2][1] - G[1][2];
  w[1] = G[0][2] - G[2][0];
  w[2] = wz;
}

// Q = ½(|Ω|² − |S|²) = −½ Σ G_ij G_ji, in (U/L)²: positive where rotation beats strain (vortex cores).
AEROLBM_HD float q_criterion(const float G[3][3], int D) {
  double q = 0;
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j) q -= 0.5 * double(G[i][j]) * double(G[j][i]);
  return float(q);
}

}  // namespace aerolbm::frame_fields
