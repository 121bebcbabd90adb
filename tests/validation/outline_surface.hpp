#pragma once
// The surface output of a 2D body for a backend's current state, in lattice units (lengths in cells): the outline
// the surface writer uses and its Cp, C_f and shear, probed from the frame the state gives. For tests that
// integrate the surface values against the momentum exchange.
#include <vector>

#include "src/io/surface_values.hpp"
#include "src/solver/frame_builder.hpp"
#include "src/solver/surface_probe.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {

struct OutlineSurface {
  SurfaceMesh mesh;
  SurfaceValues values;
};

inline OutlineSurface outline_surface(SolverSetup& s) {
  std::vector<float> rho, u;
  s.backend->macroscopic(rho, u);
  const Frame f = build_frame(s.d, rho.data(), u.data(), s.u.u_lattice, 1.0, FrameRequest{});
  GridInfo g;
  g.nx = s.d.nx;
  g.ny = s.d.ny;
  OutlineSurface o{surface_outline(s.body->outline(), s.d, g), {}};
  o.mesh.nu_lattice = s.u.nu_lattice;
  o.mesh.u_lattice = s.u.u_lattice;
  o.values = surface_values(o.mesh, f.pressure.data(), f.velocity.data());
  return o;
}

}  // namespace aerolbm::testing
