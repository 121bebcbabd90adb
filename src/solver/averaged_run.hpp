#pragma once
// A run without a run folder, for parameter sweeps: steps a backend to the end of the case, samples the force
// every K steps and accumulates the time average of density and velocity over the case's averaging window
// (time.average_last) by sampling them every A steps on the backend (Backend::sample_averages, the mean fields of
// output.averages: on the GPU kept in device memory, nothing copied per sample). Nothing is written to disk; the
// divergence watchdog still runs. Several of these can run at once in separate threads (each owns its backend; the
// CUDA backend runs each on its own non-blocking stream).
#include <limits>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/geometry/body.hpp"

namespace aerolbm {

struct AveragedRunOptions {
  BackendKind backend = BackendKind::Cpu;
  int threads = 0;              // CPU backend threads (0: OpenMP default)
  int field_samples = 64;       // about this many field samples over the averaging window
};

struct AveragedRun {
  DomainData domain;                 // cell flags (solid mask) of the run
  std::vector<double> rho, ux, uy;   // time averages per cell, lattice units
  int samples = 0;                   // field samples in the averages
  double cd_mean = 0, cl_mean = 0;   // momentum-exchange coefficients averaged over the same window
  double cpitch_mean = std::numeric_limits<double>::quiet_NaN();  // 2D bodies: the pitching moment about the
                                                                  // quarter chord (force_reference), same window
  std::int64_t steps = 0;
  double seconds = 0;                // wall time of the stepping loop (sampling included)
  std::string backend, device;
};

// Force samples every forces.every steps rounded up to a multiple of 20 (the CUDA backend replays 20-step
// graphs; shorter chunks would launch step by step). Throws RunError when the run diverges.
AveragedRun run_averaged(const Case& c, const LatticeUnits& u, const Body* body, const AveragedRunOptions& opt);

}  // namespace aerolbm
