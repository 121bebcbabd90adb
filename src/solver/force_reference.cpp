#include "src/solver/force_reference.hpp"

namespace aerolbm {

std::optional<ForceReference> force_reference(const Case& c, const LatticeUnits& u, const Body* body) {
  if (!body) return std::nullopt;
  const int dims = dimensions(c.stencil);
  std::optional<ForceReference> ref = body->reference();
  if (!ref) {
    ForceReference r0;
    r0.length = u.length_cells;
    r0.area = u.length_cells * (dims == 3 ? double(u.nz) : 1.0);
    for (int a = 0; a < 3; ++a) r0.moment_point[a] = c.body_position_chords[a] * u.length_cells;
    if (c.has_moment_point)
      for (int a = 0; a < 2; ++a) r0.moment_point[a] += c.forces_moment_point[a] * u.length_cells;
    ref = r0;
  }
  if (dims == 2) ref->moment_point[2] = 0.5;
  return ref;
}

}  // namespace aerolbm
