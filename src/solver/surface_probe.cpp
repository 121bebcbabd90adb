#include "src/solver/surface_probe.hpp"

#include <cmath>
#include <map>

namespace aerolbm {
namespace {

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

bool fluid_cell(const DomainData& d, std::int64_t x, std::int64_t y, std::int64_t z) {
  if (x < 0 || y < 0 || z < 0 || x >= d.nx || y >= d.ny || z >= d.nz) return false;
  return (d.flags[std::size_t(x + d.nx * (y + d.ny * z))] & cell::type_mask) != cell::solid;
}

// Trilinear weights over the 8 cell centres around p (lattice coordinates), solid cells left out and the rest
// renormalised. False when no fluid cell surrounds p.
bool probe(const DomainData& d, const Vec3& p, std::int64_t* cells, float* weights) {
  const double c[3] = {p[0] - 0.5, p[1] - 0.5, p[2] - 0.5};
  const std::int64_t i0[3] = {std::int64_t(std::floor(c[0])), std::int64_t(std::floor(c[1])),
                              std::int64_t(std::floor(c[2]))};
  const double t[3] = {c[0] - double(i0[0]), c[1] - double(i0[1]), c[2] - double(i0[2])};
  double w[8], sum = 0;
  for (int k = 0; k < 8; ++k) {
    const std::int64_t x = i0[0] + (k & 1), y = i0[1] + ((k >> 1) & 1), z = i0[2] + ((k >> 2) & 1);
    const double wk = ((k & 1) ? t[0] : 1 - t[0]) * (((k >> 1) & 1) ? t[1] : 1 - t[1]) *
                      (((k >> 2) & 1) ? t[2] : 1 - t[2]);
    const bool ok = fluid_cell(d, x, y, z);
    w[k] = ok ? wk : 0.0;
    cells[k] = ok ? x + d.nx * (y + d.ny * z) : 0;
    sum += w[k];
  }
  if (!(sum > 1e-9)) return false;
  for (int k = 0; k < 8; ++k) weights[k] = float(w[k] / sum);
  return true;
}

// The probe of point p at `v` (lattice coordinates) along the unit normal `n`: one cell out clears the interpolated
// wall; thin trailing edges may need more.
void place_probe(SurfaceMesh& m, std::size_t p, const DomainData& d, const Vec3& v, const Vec3& n) {
  for (double dist : {1.0, 1.5, 2.0, 3.0}) {
    const Vec3 s = {v[0] + dist * n[0], v[1] + dist * n[1], v[2] + dist * n[2]};
    m.probe_distance[p] = dist;
    if (probe(d, s, &m.probe_cells[8 * p], &m.probe_weights[8 * p])) break;
  }
}

void size_probes(SurfaceMesh& m, std::size_t P) {
  m.points.resize(P);
  m.normals.resize(P);
  m.probe_cells.assign(8 * P, 0);
  m.probe_weights.assign(8 * P, 0.0f);
  m.probe_distance.assign(P, 1.0);
}

}  // namespace

SurfaceMesh surface_mesh(const std::vector<Triangle>& triangles, const DomainData& d, const GridInfo& g) {
  SurfaceMesh m;
  std::map<Vec3, std::int64_t> index;
  std::vector<Vec3> lattice_points, normal_sum;
  for (const auto& t : triangles) {
    std::array<std::int64_t, 3> ids{};
    for (int v = 0; v < 3; ++v) {
      auto [it, added] = index.emplace(t[v], std::int64_t(lattice_points.size()));
      if (added) {
        lattice_points.push_back(t[v]);
        normal_sum.push_back({0, 0, 0});
      }
      ids[v] = it->second;
    }
    // Area-weighted: the cross product's length is twice the triangle's area.
    const Vec3 n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    for (auto id : ids)
      for (int a = 0; a < 3; ++a) normal_sum[std::size_t(id)][a] += n[a];
    m.triangles.push_back(ids);
  }
  const std::size_t P = lattice_points.size();
  size_probes(m, P);
  for (std::size_t p = 0; p < P; ++p) {
    const Vec3& v = lattice_points[p];
    const double len = std::sqrt(normal_sum[p][0] * normal_sum[p][0] + normal_sum[p][1] * normal_sum[p][1] +
                                 normal_sum[p][2] * normal_sum[p][2]);
    Vec3 n = {0, 0, 0};
    if (len > 0) n = {normal_sum[p][0] / len, normal_sum[p][1] / len, normal_sum[p][2] / len};
    m.normals[p] = n;
    for (int a = 0; a < 3; ++a) m.points[p][a] = g.origin[a] + (v[a] - 0.5) * g.spacing[a];
    place_probe(m, p, d, v, n);
  }
  return m;
}

SurfaceMesh surface_outline(const std::vector<Vec3>& outline, const DomainData& d, const GridInfo& g) {
  SurfaceMesh m;
  const std::size_t P = outline.size();
  size_probes(m, P);
  if (P < 3) return m;
  double area2 = 0;  // twice the signed area: > 0 when the outline runs counter-clockwise
  for (std::size_t p = 0; p < P; ++p) {
    const Vec3& a = outline[p];
    const Vec3& b = outline[(p + 1) % P];
    area2 += a[0] * b[1] - b[0] * a[1];
  }
  const double side = area2 > 0 ? 1.0 : -1.0;
  for (std::size_t p = 0; p < P; ++p) {
    const Vec3& prev = outline[(p + P - 1) % P];
    const Vec3& next = outline[(p + 1) % P];
    const double tx = next[0] - prev[0], ty = next[1] - prev[1];
    const double len = std::hypot(tx, ty);
    const Vec3 n = len > 0 ? Vec3{side * ty / len, -side * tx / len, 0.0} : Vec3{0, 0, 0};
    // The one layer of a 2D grid: its cell centres at z = ½.
    const Vec3 v = {outline[p][0], outline[p][1], 0.5};
    m.normals[p] = n;
    m.points[p] = {g.origin[0] + (v[0] - 0.5) * g.spacing[0], g.origin[1] + (v[1] - 0.5) * g.spacing[1], 0.0};
    place_probe(m, p, d, v, n);
  }
  return m;
}

}  // namespace aerolbm
