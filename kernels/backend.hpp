#pragma once
// The boundary between the solver and a compute backend. Plain C++ (no CUDA, no I/O libraries), so the CUDA
// backend's .cu files and the solver both include it.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/physics/params.hpp"

namespace aerolbm {

// The discretised domain as the backends need it (host copy; built by src/solver/domain).
struct DomainData {
  std::int64_t nx = 0, ny = 0, nz = 1;
  std::vector<std::uint8_t> flags;       // per cell
  std::vector<std::int32_t> link;        // per cell: row in q, −1 if the cell has no link into the body
  std::vector<std::int64_t> wall_cells;  // row → cell index
  std::vector<float> q;                  // rows × Q: wall fraction along each direction (≤ 0: no wall)
  std::int64_t cells() const { return nx * ny * nz; }
};

struct BackendConfig {
  Stencil stencil = Stencil::D2Q9;
  Precision precision = Precision::FP32;
  std::string kernel = "auto";  // kernel variant (CUDA): auto | pull | tiled
  int threads = 0;              // CPU threads, 0 = OpenMP default
};

// Density and velocity of one moment of the run on their way to the host. The CUDA backend copies them on a
// stream of its own into pinned buffers while the next steps run; wait() blocks until they have arrived. The
// object owns its buffers until destroyed, then the backend reuses them (double buffering).
class FieldsTransfer {
 public:
  virtual ~FieldsTransfer() = default;
  virtual void wait() = 0;
  virtual const float* rho() const = 0;  // 1 per cell
  virtual const float* u() const = 0;    // 3 per cell, interleaved
};

// Result of the divergence watchdog's scan.
struct StateCheck {
  bool ok = true;
  std::int64_t first_bad_cell = -1;  // lowest index of a cell with non-finite values or a speed over the bound
  double speed = 0;                  // that cell's speed (NaN when non-finite)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;    // "cpu" or "cuda"
  virtual std::string device() const = 0;  // human description of where it runs
  virtual std::string kernel() const = 0;  // kernel variant actually used
  // Equilibrium at ρ = 1 with the inflow profile in every fluid cell (rest when there is no inlet).
  virtual void initialize() = 0;
  virtual void run(std::int64_t steps) = 0;
  // Runs `steps` steps and returns the seconds they took, timed on the device (CUDA events; the CPU backend uses
  // the wall clock). For benchmarks: no output, no force evaluation in between.
  virtual double timed_run(std::int64_t steps) = 0;
  // Force on the body (lattice units) by momentum exchange, for the current state.
  virtual std::array<double, 3> wall_force() = 0;
  // The same force per near-wall cell: 3 × rows values, all x components first (rows in DomainData::wall_cells
  // order), then y, then z. For moments and spanwise loads.
  virtual void wall_force_cells(std::vector<double>& f) = 0;
  // Density (1 per cell) and velocity (3 per cell, interleaved) of the current state.
  virtual void macroscopic(std::vector<float>& rho, std::vector<float>& u) = 0;
  // Scans every cell for NaN/Inf and for speeds above `max_speed` (lattice units). A device reduction on the GPU.
  virtual StateCheck check_state(double max_speed) = 0;
  // Starts moving the current density and velocity to the host without waiting for them (see FieldsTransfer).
  // Blocks only when every transfer buffer is still held by an earlier, unreleased transfer.
  virtual std::unique_ptr<FieldsTransfer> start_fields_transfer() = 0;
  // Full state as shifted populations in double, SoA (Q × cells): checkpoints and backend comparisons.
  virtual void read_populations(std::vector<double>& f) = 0;
  virtual void write_populations(const std::vector<double>& f) = 0;
};

std::unique_ptr<Backend> make_cpu_backend(const BackendConfig&, const DomainData&, const PhysicsParams&);

// CUDA backend: available when built with CUDA and a device is present. In CPU-only builds these report none.
int cuda_device_count();
std::string cuda_device_summary();  // one line per device, or why there is none
std::unique_ptr<Backend> make_cuda_backend(const BackendConfig&, const DomainData&, const PhysicsParams&);

int lattice_q(Stencil s);

// Device-to-device copy bandwidth in GB/s (bytes read + written per second), median of `repeats` copies of
// `bytes` bytes timed with CUDA events. 0 in CPU-only builds.
double cuda_copy_bandwidth_gbs(std::size_t bytes, int repeats);

}  // namespace aerolbm
