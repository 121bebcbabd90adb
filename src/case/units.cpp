#include "src/case/units.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "kernels/physics/collision.hpp"
#include "src/case/diagnostics.hpp"

namespace aerolbm {
namespace {

constexpr double kSoundSpeed = 0.57735026918962576;  // c_s = 1/sqrt(3) in lattice units, for every stencil here

const char* length_name(GeometryType g) {
  return g == GeometryType::Cylinder                              ? "diameter"
         : g == GeometryType::None || g == GeometryType::Stl   ? "reference length"
         : g == GeometryType::Wing                             ? "root chord"
                                                               : "chord";
}

// 1234567 -> "1,234,567": step and cell counts are read by eye.
std::string grouped(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

}  // namespace

LatticeUnits lattice_units(const Case& c) {
  LatticeUnits u;
  const double L = c.chord_cells;
  const bool three_d = dimensions(c.stencil) == 3;
  u.length_cells = L;
  u.u_lattice = c.mach * kSoundSpeed;
  // Peak over mean of a parabolic profile: 3/2 across a channel, (3/2)^2 for the product profile of a duct.
  u.u_max_lattice = c.inlet_profile == InletProfile::Parabolic ? u.u_lattice * (three_d ? 2.25 : 1.5) : u.u_lattice;
  u.nu_lattice = u.u_lattice * L / c.reynolds;
  u.tau = 3.0 * u.nu_lattice + 0.5;
  u.dx = 1.0 / L;
  u.dt = u.u_lattice / L;
  u.nx = std::llround(c.size_chords[0] * L);
  u.ny = std::llround(c.size_chords[1] * L);
  u.nz = three_d ? std::llround(c.size_chords[2] * L) : 1;
  const double steps_per_time = L / u.u_lattice;
  u.steps_per_convective_time = std::llround(steps_per_time);
  u.total_steps = c.steps > 0 ? c.steps : std::llround(c.convective_times * steps_per_time);
  u.average_steps = std::min<std::int64_t>(u.total_steps, std::llround(c.average_last * steps_per_time));
  return u;
}

void limit_steps(LatticeUnits& u, std::int64_t steps) {
  if (steps <= 0) return;
  u.total_steps = steps;
  u.average_steps = std::min(u.average_steps, steps);
}

std::string describe(const Case& c, const LatticeUnits& u) {
  const bool three_d = dimensions(c.stencil) == 3;
  const double cells = double(u.nx) * double(u.ny) * double(u.nz);
  std::ostringstream s;
  s << "case        " << c.name;
  if (!c.description.empty()) s << " (" << c.description << ")";
  s << "\n";
  s << "grid        " << u.nx << " × " << u.ny;
  if (three_d) s << " × " << u.nz;
  s << " = " << grouped(std::llround(cells)) << " cells (" << stencil_name(c.stencil) << ", "
    << collision_name(c.collision) << ", " << precision_name(c.precision) << ")\n";
  s << "reference   L = " << format_significant(u.length_cells, 6) << " cells per " << length_name(c.geometry)
    << " (dx = " << format_significant(u.dx, 4) << " L)\n";
  s << "flow        Re = " << format_significant(c.reynolds, 6) << ", Ma = " << format_significant(c.mach, 4)
    << ", angle of attack = " << format_significant(c.angle_of_attack_deg, 4) << " deg\n";
  s << "velocity    u_lattice = " << format_significant(u.u_lattice, 5)
    << ", u_max = " << format_significant(u.u_max_lattice, 5) << " cells/step\n";
  s << "relaxation  ν_lattice = " << format_significant(u.nu_lattice, 5) << ", τ = " << format_significant(u.tau, 6)
    << " (ω = 1/τ = " << format_significant(1.0 / u.tau, 6) << ", τ_min = " << format_significant(c.tau_min, 4)
    << ")\n";
  if (c.collision == Collision::TRT) {
    const double magic = c.inlet == FaceBC::Velocity ? stable_trt_magic(c.trt_magic, u.tau, u.u_max_lattice)
                                                     : c.trt_magic;
    s << "trt         Λ = " << format_significant(magic, 4);
    if (magic < c.trt_magic)
      s << " (lattice.trt_magic " << format_significant(c.trt_magic, 4)
        << " lowered to ½(τ − ½)²/u_max², which keeps the inlet stable: docs/numerics.md)";
    s << "\n";
  }
  s << "time        " << grouped(u.steps_per_convective_time)
    << " steps per convective time (dt = " << format_significant(u.dt, 4) << " convective times per step)\n";
  s << "run         " << grouped(u.total_steps) << " steps";
  if (c.steps > 0)
    s << " (set by time.steps)";
  else
    s << " (" << format_significant(c.convective_times, 6) << " convective times)";
  s << ", averaging the last " << grouped(u.average_steps) << " steps\n";
  if (c.averages)
    s << "mean fields sampled every " << grouped(c.averages_every)
      << " steps over the averaging window (output.averages), written to RUN/mean/\n";
  return s.str();
}

}  // namespace aerolbm
