#pragma once
// The mean fields (output.averages), cell by cell: each sample adds a cell's density and velocity to running
// statistics (Welford's update of the mean and of the sum of squared deviations from it), and at the end the
// statistics become the mean and RMS fields in free-stream units. Written once as host/device functions: the CPU
// backend (kernels/cpu/cpu_backend_impl.hpp) and the CUDA kernel (kernels/cuda/average_kernels.cuh) call the same
// sample_cell, and the host builds the mean frame with the same finishing functions (src/solver/mean_frame.cpp).
//
// Why Welford in double: the statistics are per cell over up to ~10⁵ samples. Sums of x and x² in float would
// lose the fluctuations (δρ ~ 1e-5 against ρ ≈ 1 is at float round-off, and the variance E[x²] − E[x]² cancels
// catastrophically); Welford's form carries the deviation from the running mean instead, and double keeps ~16
// digits, so the RMS of a pressure fluctuation of 1e-6 ρ is still right to many digits. Every operation is an IEEE
// add, multiply or correctly rounded divide, with no multiply-add contraction on either side (-fmad=false for the
// CUDA sources; C++20 without GNU extensions and x86-64 without FMA on the host), so the CPU and the GPU hold the
// same bits after the same samples.
#include <cmath>
#include <cstdint>

#include "kernels/physics/cell_update.hpp"
#include "kernels/physics/hd.hpp"

namespace aerolbm::field_averages {

// The quantities kept per cell: density, then the three velocity components (lattice units).
constexpr int kQuantities = 4;

// Where the statistics live: kQuantities arrays of `cells` doubles each for the mean and for the sum of squared
// deviations (quantity q of cell n at q * cells + n, the same layout on both backends).
struct View {
  double* mean;
  double* m2;
  std::int64_t cells;
};

// Welford's update with sample number `count` (1 for the first sample) of the value x. After N samples mean is
// their mean and m2 = Σ (x − mean)², so the variance is m2 / N. m2 never decreases: delta and x − mean (new) have
// the same sign, since the new mean lies between the old one and x.
AEROLBM_HD void welford_add(double& mean, double& m2, double x, double count) {
  const double delta = x - mean;
  mean += delta / count;
  m2 += delta * (x - mean);
}

// One sample of cell n from its density and velocity as the frames get them (float).
AEROLBM_HD void add_cell(const View& v, std::int64_t n, float rho, const float (&u)[3], double count) {
  welford_add(v.mean[n], v.m2[n], double(rho), count);
  AEROLBM_UNROLL
  for (int a = 0; a < 3; ++a) {
    const std::int64_t k = (a + 1) * v.cells + n;
    welford_add(v.mean[k], v.m2[k], double(u[a]), count);
  }
}

// One sample of cell n of the current state: its density and velocity by cell_macroscopic (the half-force shift
// included), rounded to float exactly as a frame rounds them (so the mean of a steady flow is its frame, bit for
// bit), then added. Solid and ghost cells are sampled too (the step leaves them unchanged); the mean frame shows
// solids as 0 and leaves ghosts out.
template <class L, class R, class Acc>
AEROLBM_HD void sample_cell(const StepConstants<R>& k, const Acc& acc, std::int64_t n, const View& v, double count) {
  R rho, u[3];
  cell_macroscopic<L, R>(k, acc, n, rho, u);
  const float uf[3] = {float(u[0]), float(u[1]), float(u[2])};
  add_cell(v, n, float(rho), uf, count);
}

// The finished fields (0 in solid cells), with the scales of kernels/physics/frame_fields.hpp (inv_u = 1/U,
// cp_scale = c_s² / (½ U²)):
//   mean velocity  ū/U                  mean pressure  C̄p = (ρ̄ − 1) · cp_scale
//   RMS            √(m2 / N) · scale: the root mean square of the fluctuation about the mean (the population
//                  standard deviation over the N samples), with scale = 1/U for a velocity component and
//                  cp_scale for the pressure.
AEROLBM_HD float mean_velocity(double mean, double inv_u, bool solid) { return solid ? 0.0f : float(mean * inv_u); }

AEROLBM_HD float mean_pressure(double mean_rho, double cp_scale, bool solid) {
  return solid ? 0.0f : float((mean_rho - 1.0) * cp_scale);
}

AEROLBM_HD float rms(double m2, double samples, double scale, bool solid) {
  return solid || !(samples > 0) ? 0.0f : float(sqrt(m2 / samples) * scale);
}

}  // namespace aerolbm::field_averages
