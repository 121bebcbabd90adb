#pragma once
// Conversion from the case's dimensionless inputs to lattice units.
#include <cstdint>
#include <string>

#include "src/case/case.hpp"

namespace aerolbm {

struct LatticeUnits {
  double length_cells = 0;   // reference length L in cells (chord or diameter)
  double u_lattice = 0;      // mean inflow speed, cells per step = Mach · c_s
  double u_max_lattice = 0;  // largest inflow speed (parabolic profiles peak above the mean)
  double nu_lattice = 0;     // kinematic viscosity = u·L/Re
  double tau = 0;            // 3ν + ½
  double dx = 0;             // cell size in reference lengths (1/L)
  double dt = 0;             // step in convective times (u/L)
  std::int64_t nx = 0, ny = 0, nz = 1;
  std::int64_t steps_per_convective_time = 0;
  std::int64_t total_steps = 0;
  std::int64_t average_steps = 0;
};

// Pure function of the case; validation of the results (τ margin, Mach) happens in load_case.
LatticeUnits lattice_units(const Case& c);

// `--steps N` (N > 0): run exactly N steps, the averaging window at most the whole run. N ≤ 0 changes nothing.
void limit_steps(LatticeUnits& u, std::int64_t steps);

// Multi-line human summary (printed by `run` and `check`).
std::string describe(const Case& c, const LatticeUnits& u);

}  // namespace aerolbm
