#pragma once
// Forces, moments and spanwise loads of a body from the momentum exchange of each near-wall cell (2D: one layer of
// cells, the moment about z alone, per cell of span).
// Axes: x along the free stream (drag), y up (lift), z along the span. Coefficients use q = ½ρU² with ρ = 1 and
// the body's ForceReference: forces over q·S, the rolling (about x) and yawing (about y) moments over q·S·b with
// b = S/c̄, the pitching moment (about z) over q·S·c̄ with the sign flipped so that nose-up is positive.
// Each cell's force acts at its centre (half a cell from the wall at most).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

struct BodyLoads {
  std::array<double, 3> force{};         // lattice units
  std::array<double, 3> moment{};        // lattice units, about the reference point, about the x, y, z axes
  std::array<double, 3> coefficients{};  // CD, CL, CS
  std::array<double, 3> moment_coefficients{};  // C_roll (x), C_yaw (y), C_pitch (z, nose-up positive)
};

// One slice of the span: the cells of one layer along the span axis.
struct SpanSlice {
  double position = 0;             // slice centre along the span axis, reference lengths from the moment point
  std::array<double, 3> force{};   // lattice units
  double cl_c = 0, cd_c = 0;       // sectional lift and drag per unit span over q·c̄: c_l·c/c̄ and c_d·c/c̄
};

class LoadIntegrator {
 public:
  // `u_ref` is the free-stream speed in lattice units; `ref` is what the body reports (complete, see body.hpp).
  LoadIntegrator(const DomainData& d, const ForceReference& ref, double u_ref);

  // `per_cell`: Backend::wall_force_cells output (3 × rows).
  BodyLoads loads(const std::vector<double>& per_cell) const;
  std::vector<SpanSlice> spanwise(const std::vector<double>& per_cell) const;

  // forces.csv columns after Cd,Cl,Cs and the matching values: 3D Mx, My, Mz, Croll, Cyaw, Cpitch; 2D Mz, Cpitch.
  // The first moment_columns(dims) are dimensional moments.
  static std::vector<std::string> csv_columns(int dims);
  static std::vector<double> csv_values(const BodyLoads& l, int dims);
  static std::size_t moment_columns(int dims) { return dims == 3 ? 3 : 1; }

 private:
  std::vector<std::array<double, 3>> arm_;  // cell centre − reference point, per wall row
  std::vector<int> slice_;                  // layer index along the span axis, per wall row
  int layers_ = 0;
  ForceReference ref_;
  double q_ = 1;
};

// The load integrator of a run's body. A refined run (RefinedLevels) takes its per-cell forces on the level that
// holds the body, in that level's lattice units and grid: the integrator works there (the reference length, area
// and moment point scaled to it), and force_scale and moment_scale bring its forces and dimensional moments back
// to level 0's units (its coefficients need nothing). `level0`: the run's grid (Solver::domain).
struct BodyLoadIntegrator {
  LoadIntegrator loads;
  double force_scale = 1, moment_scale = 1;
};
BodyLoadIntegrator body_load_integrator(const Backend& backend, const DomainData& level0, const ForceReference& ref,
                                        int dims, double u_ref);

// spanwise/spanwise_NNNNNN.csv: one line per slice. Written atomically.
void write_spanwise_csv(const std::string& path, std::int64_t step, double time, const std::vector<SpanSlice>& s);

}  // namespace aerolbm
