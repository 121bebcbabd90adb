#pragma once
// The boundary between the solver and a compute backend. Plain C++ (no CUDA, no I/O libraries), so the CUDA
// backend's .cu files and the solver both include it.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/backend_choice.hpp"
#include "kernels/physics/params.hpp"

namespace aerolbm {

// The discretised domain as the backends need it (host copy; built by src/solver/domain).
struct DomainData {
  std::int64_t nx = 0, ny = 0, nz = 1;
  std::vector<std::uint8_t> flags;       // per cell
  std::vector<std::int32_t> link;        // per cell: row in q, −1 if the cell has no link into the body
  std::vector<std::int64_t> wall_cells;  // row → cell index
  std::vector<float> q;                  // rows × Q: wall fraction along each direction (≤ 0: no wall)
  // An MPI rank's block (src/parallel): global position of local cell (0,0,0) and the global grid size (0: this
  // is the whole grid). Cells flagged cell::ghost are copies of neighbouring ranks' cells.
  std::int64_t origin[3] = {0, 0, 0};
  std::int64_t global_n[3] = {0, 0, 0};
  std::int64_t cells() const { return nx * ny * nz; }
};

// Halo exchange between MPI ranks (src/parallel): a registered list of cells and population directions, packed
// from the current state into a contiguous buffer of stored values (value k = dirs[k / cells.size()] of
// cells[k % cells.size()], population_bytes() each) and unpacked back. The CUDA backend packs on the device;
// `host` is pinned memory there, `device` the device-side copy (null on the CPU backend).
struct HaloBuffer {
  void* host = nullptr;
  void* device = nullptr;
  std::size_t bytes = 0;
};

// The owned cells next to a block's ghost layers: local coordinate lo[a] and hi[a] along axis a (−1: no layer).
struct EdgeLayers {
  int lo[3] = {-1, -1, -1};
  int hi[3] = {-1, -1, -1};
};

struct BackendConfig {
  Stencil stencil = Stencil::D2Q9;
  Precision precision = Precision::FP32;
  KernelVariant kernel = KernelVariant::Auto;
  int threads = 0;  // CPU threads, 0 = OpenMP default
};

// The finished output fields of one frame in free-stream units (kernels/physics/frame_fields.hpp), when the
// backend computes them itself: u/U, Cp, ρ, ωL/U, Q; null where not requested. The mask is not among them (it
// never changes: src/solver/frame_builder.hpp's frame_mask).
struct FrameArrays {
  const float* velocity = nullptr;   // 3 per cell, interleaved
  const float* pressure = nullptr;   // 1 per cell
  const float* density = nullptr;    // 1 per cell (lattice density)
  const float* vorticity = nullptr;  // vorticity_components per cell, interleaved
  int vorticity_components = 1;      // 1 in 2D (z), 3 in 3D
  const float* q_criterion = nullptr;
};

// Which finished fields a backend computes for every frame (FieldsTransferOptions), and the run's scales.
struct FrameFieldsSpec {
  bool velocity = false, pressure = false, density = false, vorticity = false, q_criterion = false;
  double u_ref = 1;  // reference speed in lattice units
  double dx = 1;     // cell size in reference lengths (the derivatives' step)
};

// How start_fields_transfer() works from now on (Backend::configure_fields_transfer).
struct FieldsTransferOptions {
  // Transfers that may be held at once; a further start_fields_transfer() blocks until one is released. On the
  // GPU each holds a pinned host buffer of its own (allocated when first needed).
  int max_in_flight = 2;
  // Compute the finished frame fields (FieldsTransfer::frame()) rather than moving density and velocity.
  bool frame_fields = false;
  FrameFieldsSpec spec;
};

// One moment of the run on its way to the host: density and velocity (lattice units), or the finished frame
// fields when the backend computes them (FieldsTransferOptions::frame_fields). The CUDA backend computes and copies
// them on a stream of its own into pinned buffers while the next steps run; wait() blocks until they have arrived.
// The object owns its buffers until destroyed, then the backend reuses them.
class FieldsTransfer {
 public:
  virtual ~FieldsTransfer() = default;
  virtual void wait() = 0;
  virtual const float* rho() const = 0;  // 1 per cell; null when the transfer carries the finished frame instead
  virtual const float* u() const = 0;    // 3 per cell, interleaved; null likewise
  // The finished frame fields (valid after wait()); null unless the backend computes them.
  virtual const FrameArrays* frame() const { return nullptr; }
};

// Density and velocity of the current state in device memory (Backend::device_fields): the GPU backend's own
// buffers, exported without a copy (the Python module's DLPack and __cuda_array_interface__).
struct DeviceFieldArrays {
  const float* rho = nullptr;  // 1 per cell (lattice units)
  const float* u = nullptr;    // 3 per cell, interleaved
  int device = -1;             // CUDA device ordinal
};

// One momentum-exchange force sample (see Backend::queue_force_sample).
struct ForceSample {
  std::array<double, 3> total{0, 0, 0};  // force on the body, lattice units
  std::array<double, 3> pressure{0, 0, 0};  // its pressure part (wall_pressure_force); total − pressure: friction
  std::vector<double> cells;             // per near-wall cell (wall_force_cells layout) when asked for, else empty
};

// The mean fields' running statistics (output.averages; kernels/physics/field_averages.hpp) on the host: per cell the
// mean of the density and of the three velocity components (lattice units) and the sums of squared deviations from
// those means (Welford; the variance is m2 / samples), in double.
struct FieldAverages {
  static constexpr int kQuantities = 4;  // = field_averages::kQuantities
  std::int64_t samples = 0;
  std::vector<double> mean;  // field_averages::kQuantities × cells: quantity q (ρ, ux, uy, uz) of cell n at q·cells + n
  std::vector<double> m2;    // the same layout
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
  virtual BackendKind kind() const = 0;    // Cpu or Cuda
  std::string name() const { return backend_name(kind()); }  // "cpu" or "cuda"
  virtual std::string device() const = 0;  // human description of where it runs
  virtual std::string kernel() const = 0;  // kernel variant actually used
  // Equilibrium at ρ = 1 with the inflow profile in every fluid cell (rest when there is no inlet).
  virtual void initialize() = 0;
  // The number of steps the current state has had (0 after initialize; a restored checkpoint's step): where the
  // inflow ramp (PhysicsParams::ramp_steps) stands. Every step advances it.
  virtual void set_step(std::int64_t step) = 0;
  virtual void run(std::int64_t steps) = 0;
  // Like run, but may return before the steps are done (the CUDA backend queues them on the device; every later
  // call on this backend is ordered after them). Runs them at once by default.
  virtual void queue_steps(std::int64_t steps) { run(steps); }
  // Takes a force sample of the current state (after the steps queued so far) without waiting for it where the
  // backend can (the CUDA backend computes it on the device into a sample buffer); `per_cell` also keeps the force
  // of every near-wall cell. take_force_samples waits for every sample queued since the last take and returns
  // them in order. By default each sample is computed at once through wall_force / wall_force_cells.
  virtual void queue_force_sample(bool per_cell);
  virtual std::vector<ForceSample> take_force_samples();
  // Seconds that `work` (calls that queue steps and samples) takes on the device: CUDA events around it on the
  // backend's stream; the wall clock by default.
  virtual double timed(const std::function<void()>& work);
  // Runs `steps` steps and returns the seconds they took, timed on the device (CUDA events; the CPU backend uses
  // the wall clock). For benchmarks: no output, no force evaluation in between.
  virtual double timed_run(std::int64_t steps) = 0;
  // Force on the body (lattice units) by momentum exchange, for the current state.
  virtual std::array<double, 3> wall_force() = 0;
  // The pressure part of that force: per link into the body 2 w_i ρ c_ib with ρ the near-wall cell's density
  // (wall_link_pressure_force, kernels/physics/cell_update.hpp); the rest of the force is skin friction.
  virtual std::array<double, 3> wall_pressure_force() = 0;
  // The same force per near-wall cell: 3 × rows values, all x components first (rows in DomainData::wall_cells
  // order), then y, then z. For moments and spanwise loads.
  virtual void wall_force_cells(std::vector<double>& f) = 0;
  // Density (1 per cell) and velocity (3 per cell, interleaved) of the current state.
  virtual void macroscopic(std::vector<float>& rho, std::vector<float>& u) = 0;
  // The same, computed on the device into device memory the backend owns (no copy to the host): complete when the
  // call returns (on any stream), valid until the next device_fields() or macroscopic() call or the backend's end,
  // which overwrite or free it. Backends whose fields live in host memory throw std::logic_error.
  virtual DeviceFieldArrays device_fields() {
    throw std::logic_error("the " + name() + " backend keeps its fields in host memory: device fields need the cuda "
                           "backend (read them with macroscopic())");
  }
  // Scans every cell for NaN/Inf and for speeds above `max_speed` (lattice units). A device reduction on the GPU.
  virtual StateCheck check_state(double max_speed) = 0;
  // Starts moving the current density and velocity (or the finished frame fields) to the host without waiting for
  // them (see FieldsTransfer). Blocks only when max_in_flight transfers are still held.
  virtual std::unique_ptr<FieldsTransfer> start_fields_transfer() = 0;
  // Sets how later transfers work (call it before the first one, or while none is held). Returns whether the
  // backend computes the finished frame fields itself (the CUDA backend does when asked; the CPU backend leaves
  // them to the host's frame builder, which runs the same per-cell code, and returns false).
  virtual bool configure_fields_transfer(const FieldsTransferOptions& /*options*/) { return false; }
  // Mean fields (output.averages): sample_averages adds the current state (after the steps queued so far) as one
  // sample to per-cell running statistics that the backend keeps where the state lives (allocated at the first
  // sample; the CUDA backend computes them on the device, queued behind the steps, and copies nothing);
  // read_averages copies them to the host (under MPI: gathered to rank 0, empty on the other ranks; collective).
  // Backends without them throw std::logic_error.
  virtual void sample_averages() { throw std::logic_error("the " + name() + " backend keeps no mean fields"); }
  virtual void read_averages(FieldAverages& /*out*/) {
    throw std::logic_error("the " + name() + " backend keeps no mean fields");
  }
  // Full state as shifted populations in double, SoA (Q × cells): checkpoints and backend comparisons.
  virtual void read_populations(std::vector<double>& f) = 0;
  virtual void write_populations(const std::vector<double>& f) = 0;

  // Halo exchange (see HaloBuffer). Backends without it throw std::logic_error.
  virtual std::size_t population_bytes() const { throw std::logic_error(name() + ": no halo exchange"); }
  virtual int halo_register(const std::vector<std::int64_t>& /*cells*/, const std::vector<int>& /*dirs*/) {
    throw std::logic_error(name() + ": no halo exchange");
  }
  virtual HaloBuffer halo_buffer(int /*list*/) { throw std::logic_error(name() + ": no halo exchange"); }
  // State → buffer. to_host: also copy it into buffer.host (waits for it); else it is left in buffer.device
  // (CUDA-aware MPI), complete when the call returns.
  virtual void halo_pack(int /*list*/, bool /*to_host*/) { throw std::logic_error(name() + ": no halo exchange"); }
  // Buffer → state; from_host: the values are in buffer.host, else in buffer.device.
  virtual void halo_unpack(int /*list*/, bool /*from_host*/) { throw std::logic_error(name() + ": no halo exchange"); }
  // The CUDA stream the backend's work goes on (a cudaStream_t; null where there is none), and putting this
  // backend's work on `other`'s stream instead (refined levels: one stream for every level, no waits between them;
  // `other` must outlive this backend's work). A no-op where there are no streams.
  virtual void* stream_handle() { return nullptr; }
  virtual void join_stream(Backend& /*other*/) {}
  // One step whose halo exchange overlaps the update: the edge layers are updated first, then `exchange` runs
  // (its halo_pack/halo_unpack act on the new state) while the other cells are updated. The CUDA backend does so
  // on two streams; this default runs the step, then the exchange.
  virtual void step_overlapped(const EdgeLayers& /*edges*/, const std::function<void()>& exchange) {
    run(1);
    exchange();
  }
  // step_overlapped may return while the device still updates the interior (every later call on this backend is
  // ordered after it); this waits until it has finished (before reading a clock).
  virtual void finish_steps() {}
  // Work that `work` queues on this backend's stream (and on the streams joined to it), recorded once and then
  // replayed as one launch (CUDA graphs; the refined levels record two coarse steps of every level with their
  // hand-overs). The recording queues nothing: the caller replays it, and after each later replay tells every
  // backend whose steps it holds (replayed_steps). Null where the backend cannot record (the CPU backend): the caller
  // queues the work itself.
  class Recording {
   public:
    virtual ~Recording() = default;
    virtual void replay() = 0;
  };
  virtual std::unique_ptr<Recording> record(const std::function<void()>& /*work*/) { return nullptr; }
  // Whether the steps queued next may go into a recording: the same kernels with the same constants each time (no
  // inflow ramp, no force sample waiting to go out with the next step, WALE's velocity fields current).
  virtual bool steps_recordable() const { return false; }
  // The host's side of `steps` steps that a replay issued: which lattice (or layout) holds the state, the ramp's count.
  virtual void replayed_steps(std::int64_t /*steps*/) {}

 private:
  std::vector<ForceSample> queued_samples_;  // the default queue_force_sample's results, until taken
};

// start_fields_transfer() of a backend whose fields are on the host (the CPU backend; the MPI layer, gathered to
// rank 0): macroscopic() copied at once, nothing to wait for.
std::unique_ptr<FieldsTransfer> host_fields_transfer(Backend& b);

std::unique_ptr<Backend> make_cpu_backend(const BackendConfig&, const DomainData&, const PhysicsParams&);

// CUDA backend: available when built with CUDA and a device is present. In CPU-only builds these report none.
int cuda_device_count();
std::string cuda_device_summary();  // one line per device, or why there is none
std::unique_ptr<Backend> make_cuda_backend(const BackendConfig&, const DomainData&, const PhysicsParams&);
// Makes device `ordinal` the current one for this process (MPI: one rank per GPU). No-op in CPU-only builds.
void cuda_use_device(int ordinal);
// Free and total memory of the current device, for the resource check before a run: true and the byte counts
// when a device answers; false when there is none or the query fails (always, in CPU-only builds).
bool cuda_device_memory(std::size_t& free_bytes, std::size_t& total_bytes);

int lattice_q(Stencil s);

// Device-to-device copy bandwidth in GB/s (bytes read + written per second), median of `repeats` copies of
// `bytes` bytes timed with CUDA events. 0 in CPU-only builds.
double cuda_copy_bandwidth_gbs(std::size_t bytes, int repeats);

// Host copy bandwidth in GB/s (bytes read + written per second): median of `repeats` copies (after a warm-up) of
// `bytes` bytes, each of `threads` OpenMP threads (0: the OpenMP default, as the CPU backend) copying its own
// contiguous share with memcpy. kernels/cpu/host_bandwidth.cpp.
double host_copy_bandwidth_gbs(std::size_t bytes, int repeats, int threads = 0);

}  // namespace aerolbm
