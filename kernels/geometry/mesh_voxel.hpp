#pragma once
// Per-cell work of voxelising a closed triangle mesh, written once for the CPU (StlBody, OpenMP loops) and the GPU
// (kernels/cuda/voxelize.cu): the inside test of a cell centre (parity of the crossings of a ray in +z) and the
// fraction along a lattice link at which it first meets the surface. Plain arithmetic on plain arrays, and the
// CUDA side is compiled with -fmad=false, so both give bit-identical answers.
#include <cmath>
#include <cstdint>

#include "kernels/physics/hd.hpp"

namespace aerolbm {

// A uniform grid over the mesh's box in CSR layout: cell c lists triangle ids ids[start[c]] … ids[start[c+1]−1].
struct MeshGridView {
  std::uint64_t n[3] = {1, 1, 1};  // cells per axis (a 2D column grid has n[2] = 1)
  double inv_h[3] = {0, 0, 0};     // cells per lattice unit along each axis (0 for a flat extent)
  const std::uint32_t* start = nullptr;
  const std::uint32_t* ids = nullptr;
};

struct MeshView {
  const double* tri = nullptr;               // 9 per triangle: vertices a, b, c (x, y, z), lattice coordinates
  const std::uint8_t* edge_forward = nullptr;  // per triangle, bit e: edge e (vertex e → e+1) runs in its
                                               // canonical x-y direction (its first vertex is x-y smaller)
  std::uint32_t n_tri = 0;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // box of the mesh
  MeshGridView columns;  // x-y columns: the triangles whose x-y box overlaps each column (for the +z rays)
  MeshGridView cells;    // 3D cells: the triangles whose box overlaps each cell (for the links)
};

AEROLBM_HD std::uint64_t mesh_grid_index(const MeshGridView& g, double x, int axis, const double* lo) {
  const double f = floor((x - lo[axis]) * g.inv_h[axis]);
  if (!(f > 0)) return 0;  // also NaN
  const auto i = static_cast<std::uint64_t>(f < 1e15 ? f : 1e15);
  return i < g.n[axis] - 1 ? i : g.n[axis] - 1;
}

// Sign of the orientation of q relative to the directed x-y line lo → hi (lo x-y smaller than hi), with ties
// broken as if q were moved by (ε, ε²) — simulation of simplicity: +1 left, −1 right; 0 only for a zero-length
// edge. `value` gets the raw orientation.
AEROLBM_HD int mesh_edge_side(const double* lo, const double* hi, double qx, double qy, double& value) {
  const double ex = hi[0] - lo[0], ey = hi[1] - lo[1];
  value = ex * (qy - lo[1]) - ey * (qx - lo[0]);
  if (value > 0) return 1;
  if (value < 0) return -1;
  // d/dε of the orientation is −ey, d/dε² is ex; lo < hi makes ey ≠ 0 or ex > 0 unless lo == hi.
  if (ey != 0) return ey < 0 ? 1 : -1;
  return ex > 0 ? 1 : 0;
}

// True when p lies inside the closed mesh: parity of the triangles crossed by the ray from p in +z. Points exactly
// on an edge or vertex of the x-y projection are decided by simulation of simplicity with one shared sign per
// edge, so a ray crosses a closed surface an even number of times. Points on the surface itself may go either way.
AEROLBM_HD_COLD bool mesh_inside(const MeshView& m, double px, double py, double pz) {
  if (!(px >= m.lo[0] && px <= m.hi[0]) || !(py >= m.lo[1] && py <= m.hi[1]) || !(pz >= m.lo[2] && pz <= m.hi[2]))
    return false;
  const std::uint64_t col =
      mesh_grid_index(m.columns, py, 1, m.lo) * m.columns.n[0] + mesh_grid_index(m.columns, px, 0, m.lo);
  bool in = false;
  for (std::uint32_t k = m.columns.start[col]; k < m.columns.start[col + 1]; ++k) {
    const std::uint32_t t = m.columns.ids[k];
    const double* v = m.tri + 9 * static_cast<std::uint64_t>(t);
    // w[e]: signed value of edge e at p along its canonical direction, so both triangles on an edge see the same
    // number; it is the barycentric weight of the opposite vertex e+2.
    double w[3];
    int side[3];
    for (int e = 0; e < 3; ++e) {
      const double* a = v + 3 * e;
      const double* b = v + 3 * ((e + 1) % 3);
      const bool fwd = (m.edge_forward[t] >> e) & 1u;
      side[e] = fwd ? mesh_edge_side(a, b, px, py, w[e]) : -mesh_edge_side(b, a, px, py, w[e]);
      if (!fwd) w[e] = -w[e];
    }
    if (side[0] == 0 || side[0] != side[1] || side[1] != side[2]) continue;
    const double sum = w[0] + w[1] + w[2];
    if (sum == 0) continue;
    const double z = (w[1] * v[2] + w[2] * v[5] + w[0] * v[8]) / sum;
    if (z > pz) in = !in;
  }
  return in;
}

// Möller–Trumbore for one triangle: updates best (< 0: none yet) with the smaller crossing fraction in [0, 1].
// Hits within 1e-9 of a triangle's edge count, so a segment through an edge or a vertex is not missed.
AEROLBM_HD void mesh_segment_triangle(const double* v, const double* a, const double* d, double& best) {
  const double e1[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]};
  const double e2[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
  const double pv[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
  const double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
  if (det == 0 || !(fabs(det) <= 1.7976931348623157e308)) return;  // parallel (neighbours catch it) or not finite
  const double inv = 1.0 / det;
  const double tv[3] = {a[0] - v[0], a[1] - v[1], a[2] - v[2]};
  const double u = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) * inv;
  const double eps = 1e-9;
  if (u < -eps || u > 1 + eps) return;
  const double qv[3] = {tv[1] * e1[2] - tv[2] * e1[1], tv[2] * e1[0] - tv[0] * e1[2], tv[0] * e1[1] - tv[1] * e1[0]};
  const double w = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) * inv;
  if (w < -eps || u + w > 1 + eps) return;
  const double s = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) * inv;
  if (s < -1e-12 || s > 1 + 1e-12) return;
  const double c = s < 0 ? 0.0 : s > 1 ? 1.0 : s;
  if (best < 0 || c < best) best = c;
}

// Smallest fraction t ∈ [0, 1] along a → b at which the segment meets the surface; −1 if it does not.
AEROLBM_HD_COLD double mesh_intersect(const MeshView& m, const double* a, const double* b) {
  const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  double best = -1;
  std::uint64_t i0[3], i1[3];
  for (int k = 0; k < 3; ++k) {
    const double mn = a[k] < b[k] ? a[k] : b[k], mx = a[k] < b[k] ? b[k] : a[k];
    if (mx < m.lo[k] || mn > m.hi[k]) return -1;
    i0[k] = mesh_grid_index(m.cells, mn, k, m.lo);
    i1[k] = mesh_grid_index(m.cells, mx, k, m.lo);
  }
  // A long segment that covers more grid cells than there are triangles tests every triangle instead.
  const double span = static_cast<double>(i1[0] - i0[0] + 1) * static_cast<double>(i1[1] - i0[1] + 1) *
                      static_cast<double>(i1[2] - i0[2] + 1);
  if (span > static_cast<double>(m.n_tri)) {
    for (std::uint32_t t = 0; t < m.n_tri; ++t) mesh_segment_triangle(m.tri + 9 * static_cast<std::uint64_t>(t), a, d, best);
    return best;
  }
  for (std::uint64_t z = i0[2]; z <= i1[2]; ++z)
    for (std::uint64_t y = i0[1]; y <= i1[1]; ++y)
      for (std::uint64_t x = i0[0]; x <= i1[0]; ++x) {
        const std::uint64_t c = (z * m.cells.n[1] + y) * m.cells.n[0] + x;
        for (std::uint32_t k = m.cells.start[c]; k < m.cells.start[c + 1]; ++k)
          mesh_segment_triangle(m.tri + 9 * static_cast<std::uint64_t>(m.cells.ids[k]), a, d, best);
      }
  return best;
}

}  // namespace aerolbm
