#pragma once
// One output frame on the host, in the dimensionless units a CFD engineer reads (not lattice units).
// Arrays are point data on a uniform grid, x fastest: index = i + nx*(j + ny*k).
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace aerolbm {

struct GridInfo {
  std::int64_t nx = 0, ny = 0, nz = 1;
  std::array<double, 3> origin = {0, 0, 0};   // position of cell (0,0,0) in reference lengths (body pivot at 0)
  std::array<double, 3> spacing = {1, 1, 1};  // cell size in reference lengths
  std::int64_t cells() const { return nx * ny * nz; }
};

// A box of cells of the grid: its first cell in global coordinates and its size along x, y, z (an MPI rank's
// block, or the whole grid).
struct GridBox {
  std::int64_t lo[3] = {0, 0, 0};
  std::int64_t n[3] = {1, 1, 1};
  std::int64_t cells() const { return n[0] * n[1] * n[2]; }
  static GridBox whole(const GridInfo& g) { return GridBox{{0, 0, 0}, {g.nx, g.ny, g.nz}}; }
};

// Attributes attached to the file/frames: lattice parameters and units, so a file explains itself.
struct Attributes {
  std::vector<std::pair<std::string, double>> numbers;
  std::vector<std::pair<std::string, std::string>> strings;
};

struct Frame {
  std::int64_t step = 0;
  double time = 0;                      // convective times (t·U/L)
  // Present only if requested (empty vector = not written).
  std::vector<float> velocity;          // 3 components per point, interleaved (u/U, v/U, w/U)
  std::vector<float> pressure;          // pressure coefficient Cp = (p − p∞)/(½ρU²)
  std::vector<float> density;           // lattice density ρ (dimensionless, 1 = free stream)
  std::vector<float> vorticity;         // ω·L/U; 1 component in 2D (z), 3 interleaved in 3D
  int vorticity_components = 1;
  std::vector<float> q_criterion;       // Q = ½(|Ω|² − |S|²) in (U/L)²: > 0 where rotation beats strain (vortex cores)
  std::vector<std::uint8_t> mask;       // 1 = solid, 0 = fluid
};

}  // namespace aerolbm
