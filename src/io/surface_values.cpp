#include "src/io/surface_values.hpp"

#include <cmath>
#include <stdexcept>

#include "kernels/physics/wall_function.hpp"

namespace aerolbm {

void check_surface_mesh(const SurfaceMesh& m) {
  const std::size_t P = m.points.size();
  if (P == 0) throw std::invalid_argument("surface output: the body has no surface");
  if (m.normals.size() != P || m.probe_cells.size() != 8 * P || m.probe_weights.size() != 8 * P ||
      m.probe_distance.size() != P)
    throw std::invalid_argument("surface output: normals or probes do not match the points");
  for (double d : m.probe_distance)
    if (!(d > 0)) throw std::invalid_argument("surface output: a probe distance is not positive");
  if (!(m.nu_lattice > 0) || !(m.u_lattice > 0))
    throw std::invalid_argument("surface output: the viscosity and speed in lattice units must be positive");
}

SurfaceValues surface_values(const SurfaceMesh& mesh, const std::vector<FieldView>& fields) {
  const float *pressure = nullptr, *velocity = nullptr;
  for (const FieldView& f : fields) {
    if (f.name == "pressure" && f.type == FieldType::Float32) pressure = static_cast<const float*>(f.data);
    if (f.name == "velocity" && f.type == FieldType::Float32) velocity = static_cast<const float*>(f.data);
  }
  if (!pressure || !velocity)
    throw std::invalid_argument("surface output needs the pressure and velocity fields in the frame");
  return surface_values(mesh, pressure, velocity);
}

std::vector<FieldView> surface_fields_of(const Frame& frame) {
  if (frame.pressure.empty() || frame.velocity.size() != 3 * frame.pressure.size())
    throw std::invalid_argument("surface output needs the pressure and velocity fields in the frame");
  GridInfo g;  // the grid as one row of cells: the writer does not know its shape
  g.nx = std::int64_t(frame.pressure.size());
  g.ny = 1;
  FieldPointers p;
  p.velocity = frame.velocity.data();
  p.pressure = frame.pressure.data();
  return present_fields(p, g, frame.time);
}

SurfaceValues surface_values(const SurfaceMesh& m, const float* pressure, const float* velocity) {
  const std::size_t P = m.points.size();
  SurfaceValues v;
  v.cp.assign(P, 0.0f);
  v.cf.assign(P, 0.0f);
  v.shear.assign(3 * P, 0.0f);
  for (std::size_t p = 0; p < P; ++p) {
    double cp = 0, u[3] = {0, 0, 0};
    for (int k = 0; k < 8; ++k) {
      const float w = m.probe_weights[8 * p + k];
      if (w == 0.0f) continue;
      const auto c = std::size_t(m.probe_cells[8 * p + k]);
      cp += double(w) * double(pressure[c]);
      for (int a = 0; a < 3; ++a) u[a] += double(w) * double(velocity[3 * c + std::size_t(a)]);
    }
    v.cp[p] = float(cp);
    const auto& n = m.normals[p];
    const double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
    const double ut[3] = {u[0] - un * n[0], u[1] - un * n[1], u[2] - un * n[2]};
    const double speed = std::sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]);  // over U
    if (!(speed > 0)) continue;
    const double u_tau = friction_velocity<double>(speed * m.u_lattice, m.probe_distance[p], m.nu_lattice);
    const double cf = 2.0 * (u_tau / m.u_lattice) * (u_tau / m.u_lattice);
    v.cf[p] = float(cf);
    for (int a = 0; a < 3; ++a) v.shear[3 * p + std::size_t(a)] = float(cf * ut[a] / speed);
  }
  return v;
}

}  // namespace aerolbm
