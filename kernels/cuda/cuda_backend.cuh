#pragma once
// The CUDA backend of one lattice: structure of arrays, two lattices or one in place, fp32 or fp16 storage
// (arithmetic in fp32), the one-pass kernels of lbm_kernels.cuh, steps replayed from CUDA graphs so small grids are
// not launch-bound, force samples queued on the device, frames copied on a stream of their own, and the MPI halo
// exchange with the overlapped step. Included by one .cu file per lattice (cuda_backend_d2q9.cu, …), which
// compile in parallel.
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/backend_factory.hpp"
#include "kernels/lattice_owner.hpp"
#include "kernels/cuda/average_kernels.cuh"
#include "kernels/cuda/cuda_backend_factory.hpp"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/field_transfer.cuh"
#include "kernels/cuda/halo_kernels.cuh"
#include "kernels/cuda/lbm_kernels.cuh"
#include "kernels/cuda/step_rules.cuh"
#include "kernels/physics/wall_masks.hpp"
#include "kernels/storage/aa_rows.hpp"

namespace aerolbm {
namespace {

using cuda::BoundaryPass;

// A non-blocking stream at the device's highest priority, and two events without timing for its joins: for work
// beside a step that fills every SM (the MPI edge layers and halo exchange, the force samples), whose blocks must
// start as soon as the step's blocks make room instead of queuing behind all of them.
inline void create_priority_stream(cudaStream_t& stream, cudaEvent_t& a, cudaEvent_t& b) {
  int least = 0, greatest = 0;
  AEROLBM_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  AEROLBM_CUDA_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest));
  AEROLBM_CUDA_CHECK(cudaEventCreateWithFlags(&a, cudaEventDisableTiming));
  AEROLBM_CUDA_CHECK(cudaEventCreateWithFlags(&b, cudaEventDisableTiming));
}

template <class L, class T>
class CudaBackend final : public Backend, public LatticeOwner {
  using R = float;

 public:
  CudaBackend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p)
      : k_(make_step_constants<R>(p)), ramp_{p}, nrows_(std::int64_t(d.wall_cells.size())) {
    variant_ = cfg.kernel == KernelVariant::Auto ? KernelVariant::Pull : cfg.kernel;
    aa_ = variant_ == KernelVariant::AA;
    wale_ = k_.coll.wale > R(0);
    wall_fn_ = k_.wall_function;
    if (wale_ && variant_ != KernelVariant::Pull)
      throw std::invalid_argument("lattice.les.model: wale runs with the pull kernel (lattice.kernel: pull or auto); "
                                  "the aa and tiled kernels have no WALE path.");
    if (wall_fn_ && variant_ != KernelVariant::Pull)
      throw std::invalid_argument("boundaries.wall: wall_model runs with the pull kernel (lattice.kernel: pull or "
                                  "auto); the aa and tiled kernels have no wall-model path.");
    int dev = 0;
    AEROLBM_CUDA_CHECK(cudaGetDevice(&dev));
    device_ordinal_ = dev;
    cudaDeviceProp prop{};
    AEROLBM_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    programmatic_launch_ = prop.major >= 9;
    device_ = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
              std::to_string(prop.multiProcessorCount) + " SMs)";
    const std::size_t need =
        d.cells() * ((aa_ ? 1 : 2) * L::Q * sizeof(T) + 1 + 4 + (aa_ ? 4 : 0) + (wale_ ? 6 * sizeof(float) : 0));
    std::size_t free_b = 0, total_b = 0;
    AEROLBM_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (need > free_b) {
      throw std::invalid_argument("the case needs about " + std::to_string(need >> 20) + " MiB of device memory, " +
                                  std::to_string(free_b >> 20) + " MiB are free on " + device_ +
                                  ". Lower geometry.chord_cells or domain.size_chords, or use fp16s storage.");
    }
    if (d.nz > 65535) {
      throw std::invalid_argument("the grid (" + std::to_string(d.nx) + " x " + std::to_string(d.ny) + " x " +
                                  std::to_string(d.nz) + ") is larger than the CUDA backend's step kernels cover "
                                  "(at most 65535 planes). Lower domain.size_chords, or spread the grid over more "
                                  "GPUs (mpirun).");
    }
    g_.set_extent(d.nx, d.ny, d.nz);  // refuses grids of 2^32 cells or more
    g_.periodic = periodic_axes(p);
    for (int a = 0; a < 3; ++a) {
      g_.origin[a] = int(d.origin[a]);
      g_.global_n[a] = int(d.global_n[a]);
    }
    if (wale_) velocity_.resize(std::size_t(6 * d.cells()));  // one velocity field per lattice (launch_model_step)
    // The device's copy of the flags: the sponge layer's cells marked (cell::sponge: sponge_sigma > 0, computed here
    // with the step constants the kernels use), and in place the interior cells that keep a snapshot row (below).
    std::vector<std::uint8_t> device_flags = d.flags;
    if (k_.sponge_faces) {
      for (std::int64_t n = 0; n < d.cells(); ++n) {
        if ((d.flags[n] & cell::type_mask) == cell::solid) continue;
        const int x = int(n % d.nx), y = int((n / d.nx) % d.ny), z = int(n / (d.nx * d.ny));
        if (sponge_sigma<L, R>(g_, k_, x, y, z) > R(0)) device_flags[std::size_t(n)] |= cell::sponge;
      }
    }
    flags_.resize(d.flags.size());
    flags_.upload(device_flags.data(), device_flags.size());
    link_.resize(d.link.size());
    link_.upload(d.link.data(), d.link.size());
    q_.resize(std::max<std::size_t>(1, d.q.size()));
    q_.upload(d.q.data(), d.q.size());
    rows_.resize(std::max<std::size_t>(1, d.wall_cells.size()));
    rows_.upload(d.wall_cells.data(), d.wall_cells.size());
    std::vector<std::uint32_t> masks;
    {
      GridView host = g_;
      host.flags = d.flags.data();
      masks = build_wall_masks<L, R>(host, k_, d.wall_cells);
      wall_mask_.resize(std::max<std::size_t>(1, masks.size()));
      wall_mask_.upload(masks.data(), masks.size());
    }
    // Whether any non-solid cell is not plain interior (walls, open and slip faces, MPI ghost layers): without
    // such cells (a periodic box) the pull and aa kernels run without their boundary paths.
    {
      GridView host = g_;
      host.flags = d.flags.data();
      for (std::int64_t n = 0; n < d.cells() && !boundary_cells_; ++n) {
        if ((d.flags[n] & cell::type_mask) == cell::solid) continue;
        const int x = int(n % d.nx), y = int((n / d.nx) % d.ny), z = int(n / (d.nx * d.ny));
        boundary_cells_ = !is_interior<L>(host, d.flags[n], x, y, z);
      }
    }
    // Cells updated from a list (faces, walls, open boundaries; never solids or ghosts): the tiled variant's (its
    // tile has no halo across faces), and those of the pull and aa variants unless they run in the one-pass kernel
    // (pass_, see launch_step).
    if (variant_ != KernelVariant::Tiled && boundary_cells_ && !wale_ && !wall_fn_)
      pass_ = cuda::boundary_pass(L::D, aa_, d.cells());
    open_in_plane_ = pass_ != BoundaryPass::one && !aa_ && cuda::open_faces_in_plane(L::D);
    if (variant_ == KernelVariant::Tiled || pass_ != BoundaryPass::one) {
      GridView host = g_;
      host.flags = d.flags.data();
      host.link = d.link.data();
      host.wall_mask = masks.data();
      const std::vector<BoundaryCell> list = build_boundary_list(host, [&](std::uint8_t f, int x, int y, int z) {
        if (open_in_plane_ && (f & cell::type_mask) != cell::fluid) return false;
        return !(variant_ == KernelVariant::Tiled ? is_tile_interior<L>(host, f, x, y, z)
                                                  : is_interior<L>(host, f, x, y, z));
      });
      nboundary_ = std::int64_t(list.size());
      boundary_.resize(std::max<std::size_t>(1, list.size()));
      boundary_.upload(list.data(), list.size());
    }
    if (aa_) {
      GridView host = g_;
      host.flags = d.flags.data();
      const AARows rows = build_aa_rows<L>(host);
      aa_rows_ = std::int64_t(rows.row_cell.size());
      aa_boundary_rows_ = rows.boundary_rows;
      aa_row_.resize(rows.row.size());
      aa_row_.upload(rows.row.data(), rows.row.size());
      aa_row_cell_.resize(std::max<std::size_t>(1, rows.row_cell.size()));
      aa_row_cell_.upload(rows.row_cell.data(), rows.row_cell.size());
      for (auto& sn : snap_) sn.resize(std::max<std::size_t>(1, std::size_t(L::Q) * rows.row_cell.size()));
      // The interior cells that keep a snapshot row are flagged on the device copy (see stream_collide_aa).
      for (std::size_t r = std::size_t(rows.boundary_rows); r < rows.row_cell.size(); ++r)
        device_flags[std::size_t(rows.row_cell[r])] |= cell::aa_snapshot;
      flags_.upload(device_flags.data(), device_flags.size());
    }
    g_.flags = flags_.data();
    g_.link = link_.data();
    g_.q = q_.data();
    g_.wall_mask = wall_mask_.data();
    a_.resize(std::size_t(L::Q) * g_.cells);
    if (!aa_) b_.resize(std::size_t(L::Q) * g_.cells);
    lattice0_ = a_.data();
    force_blocks_ = int(std::max<std::int64_t>(1, (nrows_ + cuda::kForceRowsPerBlock - 1) / cuda::kForceRowsPerBlock));
    force_partial_.resize(cuda::kForceTotals * std::size_t(force_blocks_));
    force_cells_.resize(std::max<std::int64_t>(1, 3 * nrows_));
    force_sum_.resize(cuda::kForceTotals);
    force_done_.resize(1);
    AEROLBM_CUDA_CHECK(cudaMemset(force_done_.data(), 0, sizeof(unsigned int)));
    sample_total_.resize(cuda::kForceTotals * kSampleCapacity);
    AEROLBM_CUDA_CHECK(cudaMemset(sample_total_.data(), 0, sample_total_.size() * sizeof(double)));
    sample_slot_.resize(1);
    AEROLBM_CUDA_CHECK(cudaMemset(sample_slot_.data(), 0, sizeof(unsigned int)));
    AEROLBM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    AEROLBM_CUDA_CHECK(cudaEventCreate(&start_));
    AEROLBM_CUDA_CHECK(cudaEventCreate(&stop_));
  }

  ~CudaBackend() override {
    for (auto& h : halos_)
      if (h.host) cudaFreeHost(h.host);
    if (halo_stream_) cudaStreamDestroy(halo_stream_);
    if (force_stream_) cudaStreamDestroy(force_stream_);
    if (sampled_) cudaEventDestroy(sampled_);
    if (sample_done_) cudaEventDestroy(sample_done_);
    if (edges_done_) cudaEventDestroy(edges_done_);
    if (core_done_) cudaEventDestroy(core_done_);
    drop_graphs();
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    if (own_stream_) cudaStreamDestroy(stream_);
  }

  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device() const override { return device_; }
  std::string kernel() const override {
    return kernel_name(variant_) + std::string(aa_ ? " (one lattice in place" : " (two lattices") +
           (sizeof(T) == 2 ? ", fp16s storage" : ", fp32") +
           (boundary_cells_ && variant_ != KernelVariant::Tiled ? std::string(", ") + cuda::boundary_pass_name(pass_) : "") +
           (open_in_plane_ ? ", open faces in the plane blocks" : "") + (wale_ ? ", WALE velocity field" : "") +
           (wall_fn_ ? ", wall function" : "") + ")";
  }

  void initialize() override {
    flush_sample();
    with_state([&](auto acc) {
      cuda::initialize_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, ramp_.initial(), acc);
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
    sync_second_lattice();
    ramp_.step = 0;
  }

  void set_step(std::int64_t step) override { ramp_.step = step; }

  void run(std::int64_t steps) override {
    enqueue(steps);
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void queue_steps(std::int64_t steps) override { enqueue(steps); }

  double timed(const std::function<void()>& work) override {
    AEROLBM_CUDA_CHECK(cudaEventRecord(start_, stream_));
    work();
    flush_sample();
    AEROLBM_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    AEROLBM_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    AEROLBM_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

  // Samples go into device memory (totals: kForceTotals doubles per sample; per-cell forces: 3 × rows per sample)
  // behind the steps on the stream; the host waits only in take_force_samples, or when kSampleCapacity are pending. A sample
  // is not launched here: the next steps take it as the first node of their captured graph (issue_sampled_steps),
  // so a sampled step goes out like any other, inside a graph; anything else that uses or changes the state first
  // launches it on its own (flush_sample). Its slot is counted on the device (the force kernel's `slot`).
  void queue_force_sample(bool per_cell) override {
    flush_sample();  // a sample already waiting for steps (two samples of one state): out first
    const std::size_t per = 3 * std::size_t(nrows_);
    // Per-cell slots: as many as fit in 256 MiB (at least one), at most kSampleCapacity.
    const std::size_t cell_slots =
        per > 0 ? std::clamp<std::size_t>((std::size_t(256) << 20) / (per * sizeof(double)), 1, kSampleCapacity)
                : std::size_t(kSampleCapacity);
    if (queued_.size() == std::size_t(kSampleCapacity) || (per_cell && queued_.size() >= cell_slots))
      drain_samples();
    if (per_cell && per > 0 && sample_cells_.size() < cell_slots * per) {
      drop_graphs();  // they hold the old buffer (once per backend: nothing is pending here)
      sample_cells_.resize(cell_slots * per);
    }
    queued_.push_back(per_cell);
    deferred_ = per_cell ? 2 : 1;
  }

  std::vector<ForceSample> take_force_samples() override {
    drain_samples();
    std::vector<ForceSample> out;
    out.swap(drained_);
    return out;
  }

  double timed_run(std::int64_t steps) override {
    AEROLBM_CUDA_CHECK(cudaEventRecord(start_, stream_));
    enqueue(steps);
    flush_sample();
    AEROLBM_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    AEROLBM_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    AEROLBM_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

  std::array<double, 3> wall_force() override {
    const auto F = force_totals();
    return {F[0], F[1], F[2]};
  }

  std::array<double, 3> wall_pressure_force() override {
    const auto F = force_totals();
    return {F[3], F[4], F[5]};
  }

  void wall_force_cells(std::vector<double>& f) override {
    f.assign(std::size_t(3 * nrows_), 0.0);
    if (nrows_ == 0) return;
    launch_force(force_cells_.data(), force_sum_.data());
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(f.data(), force_cells_.data(), f.size() * sizeof(double),
                                       cudaMemcpyDeviceToHost, stream_));
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  DeviceFieldArrays device_fields() override {
    if (rho_d_.size() != std::size_t(g_.cells)) {
      rho_d_.resize(g_.cells);
      u_d_.resize(3 * g_.cells);
    }
    with_state([&](auto acc) {
      cuda::macroscopic_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, k_, acc, rho_d_.data(),
                                                                                     u_d_.data());
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return DeviceFieldArrays{rho_d_.data(), u_d_.data(), device_ordinal_};
  }

  void macroscopic(std::vector<float>& rho, std::vector<float>& u) override {
    device_fields();
    rho.resize(g_.cells);
    u.resize(3 * g_.cells);
    rho_d_.download(rho.data(), rho.size());
    u_d_.download(u.data(), u.size());
  }

  StateCheck check_state(double max_speed) override {
    if (watch_.size() == 0) watch_.resize(1);
    unsigned long long first = static_cast<unsigned long long>(g_.cells);
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(watch_.data(), &first, sizeof(first), cudaMemcpyHostToDevice, stream_));
    with_state([&](auto acc) {
      cuda::check_state_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, k_, acc, R(max_speed),
                                                                                     watch_.data());
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(&first, watch_.data(), sizeof(first), cudaMemcpyDeviceToHost, stream_));
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    StateCheck c;
    if (first < static_cast<unsigned long long>(g_.cells)) {
      // That cell's speed, to say what went wrong there.
      cuda::DeviceBuffer<double> speed(1);
      with_state([&](auto acc) {
        cuda::cell_speed_kernel<L, R><<<1, 1, 0, stream_>>>(g_, k_, acc, std::int64_t(first), speed.data());
      });
      AEROLBM_CUDA_LAUNCH_CHECK();
      AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
      c.ok = false;
      c.first_bad_cell = std::int64_t(first);
      speed.download(&c.speed, 1);
    }
    return c;
  }

  // Output frames: see kernels/cuda/field_transfer.cuh.
  std::unique_ptr<FieldsTransfer> start_fields_transfer() override {
    return pool_.start(stream_, flags_.data(), g_.n, [&](float* rho, float* u) {
      with_state([&](auto acc) {
        cuda::macroscopic_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, k_, acc, rho, u);
      });
      AEROLBM_CUDA_LAUNCH_CHECK();
    });
  }

  bool configure_fields_transfer(const FieldsTransferOptions& o) override { return pool_.configure(o, g_.n); }

  // Mean fields: the statistics stay in device memory; each sample is one kernel queued behind the steps on the
  // main stream (no host wait), and only read_averages copies them to the host.
  void sample_averages() override {
    const std::size_t n = std::size_t(field_averages::kQuantities) * std::size_t(g_.cells);
    if (avg_mean_.size() != n) {
      std::size_t free_b = 0, total_b = 0;
      AEROLBM_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
      if (2 * n * sizeof(double) > free_b)
        throw std::runtime_error("the mean fields (output.averages) need " + std::to_string((2 * n * 8) >> 20) +
                                 " MiB of device memory, " + std::to_string(free_b >> 20) + " MiB are free on " +
                                 device_ + ". Set output.averages.enabled: false, or use a coarser grid.");
      avg_mean_.resize(n);
      avg_m2_.resize(n);
      AEROLBM_CUDA_CHECK(cudaMemsetAsync(avg_mean_.data(), 0, n * sizeof(double), stream_));
      AEROLBM_CUDA_CHECK(cudaMemsetAsync(avg_m2_.data(), 0, n * sizeof(double), stream_));
      avg_samples_ = 0;
    }
    const double count = double(++avg_samples_);
    const field_averages::View v{avg_mean_.data(), avg_m2_.data(), g_.cells};
    with_state([&](auto acc) {
      cuda::sample_averages_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, k_, acc, v, count);
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  void read_averages(FieldAverages& out) override {
    out.samples = avg_samples_;
    out.mean.resize(avg_mean_.size());
    out.m2.resize(avg_m2_.size());
    if (avg_mean_.size() == 0) return;
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    avg_mean_.download(out.mean.data(), out.mean.size());
    avg_m2_.download(out.m2.data(), out.m2.size());
  }

  void read_populations(std::vector<double>& f) override {
    cuda::DeviceBuffer<double> tmp(a_.size());
    with_state([&](auto acc) {
      cuda::state_to_double_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, acc, tmp.data());
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    f.resize(a_.size());
    tmp.download(f.data(), f.size());
  }

  void write_populations(const std::vector<double>& f) override {
    if (f.size() != a_.size()) throw std::runtime_error("write_populations: size mismatch");
    flush_sample();
    cuda::DeviceBuffer<double> tmp(f.size());
    tmp.upload(f.data(), f.size());
    with_state([&](auto acc) {
      cuda::state_from_double_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(g_, acc, tmp.data());
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
    sync_second_lattice();
  }

  // ---- MPI halo exchange (Backend::halo_*) and the overlapped step -----------------------------------------------
  std::size_t population_bytes() const override { return sizeof(T); }

  int halo_register(const std::vector<std::int64_t>& cells, const std::vector<int>& dirs) override {
    if (aa_ || variant_ != KernelVariant::Pull) throw std::logic_error("halo exchange needs lattice.kernel pull");
    if (!halo_stream_) {
      // The highest priority: the edge layers, the packing and the unpacking must not queue behind the blocks of
      // the interior update that fills every SM (measured on 2 H200s at normal priority: the exchange then waited
      // for the whole interior, 1.3 ms per step at 256³ per GPU, and weak scaling was 48 %).
      create_priority_stream(halo_stream_, edges_done_, core_done_);
    }
    Halo h;
    h.m = std::int64_t(cells.size());
    h.nd = int(dirs.size());
    h.cells.resize(std::max<std::size_t>(1, cells.size()));
    h.cells.upload(cells.data(), cells.size());
    h.dirs.resize(std::max<std::size_t>(1, dirs.size()));
    h.dirs.upload(dirs.data(), dirs.size());
    const std::size_t n = std::size_t(h.m) * std::size_t(h.nd);
    h.buf.resize(std::max<std::size_t>(1, n));
    AEROLBM_CUDA_CHECK(cudaMallocHost(&h.host, std::max<std::size_t>(1, n) * sizeof(T)));
    halos_.push_back(std::move(h));
    return int(halos_.size()) - 1;
  }

  HaloBuffer halo_buffer(int list) override {
    Halo& h = halos_.at(std::size_t(list));
    return HaloBuffer{h.host, h.buf.data(), std::size_t(h.m) * std::size_t(h.nd) * sizeof(T)};
  }

  // Outside a step: the current state on the main stream. Inside step_overlapped's exchange: the new state (the
  // lattice being written) on the halo stream, behind the edge layers and beside the core update.
  void halo_pack(int list, bool to_host) override {
    Halo& h = halos_.at(std::size_t(list));
    cudaStream_t s = in_step_ ? halo_stream_ : stream_;
    const T* state = in_step_ ? b_.data() : a_.data();
    const std::int64_t n = h.m * h.nd;
    if (n > 0) {
      launch_halo_pack(h, state, s);
      if (to_host)
        AEROLBM_CUDA_CHECK(cudaMemcpyAsync(h.host, h.buf.data(), std::size_t(n) * sizeof(T), cudaMemcpyDeviceToHost, s));
    }
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(s));
  }

  void halo_unpack(int list, bool from_host) override {
    flush_sample();
    Halo& h = halos_.at(std::size_t(list));
    cudaStream_t s = in_step_ ? halo_stream_ : stream_;
    T* state = in_step_ ? b_.data() : a_.data();
    const std::int64_t n = h.m * h.nd;
    if (n > 0) {
      if (from_host)
        AEROLBM_CUDA_CHECK(cudaMemcpyAsync(h.buf.data(), h.host, std::size_t(n) * sizeof(T), cudaMemcpyHostToDevice, s));
      launch_halo_unpack(h, state, s);
    }
    // The host buffer is free for the next receive, and a later pack on this stream sees the values.
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(s));
  }

  void* stream_handle() override { return stream_; }

  Lattices lattices() override {
    if (aa_) throw std::logic_error("lattices: the in-place kernels keep one lattice");
    flush_sample();
    return Lattices{a_.data(), b_.data(), g_.cells};
  }

  void join_stream(Backend& other) override {
    auto* s = static_cast<cudaStream_t>(other.stream_handle());
    if (!s) throw std::logic_error("join_stream: the other backend has no CUDA stream");
    if (s == stream_) return;
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (own_stream_) AEROLBM_CUDA_CHECK(cudaStreamDestroy(stream_));
    stream_ = s;
    own_stream_ = false;
  }

  void step_overlapped(const EdgeLayers& e, const std::function<void()>& exchange) override {
    if (wale_) throw std::invalid_argument("lattice.les.model: wale does not run over several MPI ranks yet.");
    if (wall_fn_) throw std::invalid_argument("boundaries.wall: wall_model does not run over several MPI ranks yet.");
    if (aa_ || variant_ != KernelVariant::Pull || !halo_stream_) {
      Backend::step_overlapped(e, exchange);
      return;
    }
    flush_sample();
    const T* src = a_.data();
    T* dst = b_.data();
    const StepConstants<R> k = ramp_.active() ? ramp_.next() : k_;
    ++ramp_.step;
    // Edge layers first, on the halo stream (after whatever the main stream still has queued).
    AEROLBM_CUDA_CHECK(cudaEventRecord(core_done_, stream_));
    AEROLBM_CUDA_CHECK(cudaStreamWaitEvent(halo_stream_, core_done_, 0));
    for (int a = 0; a < 3; ++a)
      for (int c : {e.lo[a], e.hi[a]}) {
        if (c < 0) continue;
        const int o0 = a == 0 ? 1 : 0, o1 = a == 2 ? 1 : 2;
        const dim3 grid(cuda::blocks_for(g_.n[o0], 128), unsigned(g_.n[o1]), 1);
        cuda::edge_layer_update<L, T, R><<<grid, 128, 0, halo_stream_>>>(g_, k, src, dst, a, c);
        AEROLBM_CUDA_LAUNCH_CHECK();
      }
    AEROLBM_CUDA_CHECK(cudaEventRecord(edges_done_, halo_stream_));
    // The rest of the grid on the main stream, at the same time.
    cuda::stream_collide_pull<L, T, R><<<cuda::plane_grid(g_), cuda::kStepBlock, 0, stream_>>>(g_, k, src, dst, e);
    AEROLBM_CUDA_LAUNCH_CHECK();
    // The halo exchange packs behind the edge layers on the halo stream while the core runs.
    in_step_ = true;
    try {
      exchange();
    } catch (...) {
      in_step_ = false;
      throw;
    }
    in_step_ = false;
    AEROLBM_CUDA_CHECK(cudaEventRecord(edges_done_, halo_stream_));
    AEROLBM_CUDA_CHECK(cudaStreamWaitEvent(stream_, edges_done_, 0));
    // No wait for the interior here: the next step's launches queue behind it (its edge layers wait for
    // core_done_), so the GPU does not idle while the host returns and launches again. finish_steps() waits.
    std::swap(a_, b_);
  }

  void finish_steps() override { AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  // One CUDA graph of what `work` queues on this stream (the refined levels' other backends have joined it). While
  // it is captured, queue_steps issues its kernels (a captured stream cannot launch the backend's own graphs).
  std::unique_ptr<Recording> record(const std::function<void()>& work) override {
    cudaGraph_t graph = nullptr;
    AEROLBM_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      work();
    } catch (...) {
      cudaStreamEndCapture(stream_, &graph);  // the stream leaves capture whatever failed; the graph is dropped
      if (graph) cudaGraphDestroy(graph);
      throw;
    }
    AEROLBM_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    AEROLBM_CUDA_CHECK(made);
    return std::make_unique<Replay>(exec, stream_);
  }
  bool steps_recordable() const override { return !ramp_.active() && !deferred_ && (!wale_ || wale_fresh_); }
  void replayed_steps(std::int64_t steps) override {
    advance(steps);
    ramp_.step += steps;
  }

 private:
  class Replay : public Recording {
   public:
    Replay(cudaGraphExec_t exec, cudaStream_t stream) : exec_(exec), stream_(stream) {}
    ~Replay() override { cudaGraphExecDestroy(exec_); }
    void replay() override { AEROLBM_CUDA_CHECK(cudaGraphLaunch(exec_, stream_)); }

   private:
    cudaGraphExec_t exec_;
    cudaStream_t stream_;
  };

  bool capturing() const {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    AEROLBM_CUDA_CHECK(cudaStreamIsCapturing(stream_, &status));
    return status == cudaStreamCaptureStatusActive;
  }

  struct Halo {
    cuda::DeviceBuffer<std::int64_t> cells;
    cuda::DeviceBuffer<int> dirs;
    cuda::DeviceBuffer<T> buf;
    T* host = nullptr;  // pinned
    std::int64_t m = 0;
    int nd = 0;
  };
  // The pack and unpack kernels of a halo list (its m × nd values; not empty) over `state`, on `s`.
  void launch_halo_pack(Halo& h, const T* state, cudaStream_t s) {
    cuda::halo_pack_kernel<T><<<cuda::blocks_for(h.m * h.nd, 256), 256, 0, s>>>(state, g_.cells, h.cells.data(), h.m,
                                                                           h.dirs.data(), h.nd, h.buf.data());
    AEROLBM_CUDA_LAUNCH_CHECK();
  }
  void launch_halo_unpack(Halo& h, T* state, cudaStream_t s) {
    cuda::halo_unpack_kernel<T><<<cuda::blocks_for(h.m * h.nd, 256), 256, 0, s>>>(state, g_.cells, h.cells.data(), h.m,
                                                                             h.dirs.data(), h.nd, h.buf.data());
    AEROLBM_CUDA_LAUNCH_CHECK();
  }
  std::vector<Halo> halos_;
  cudaStream_t halo_stream_ = nullptr;
  cudaEvent_t edges_done_ = nullptr, core_done_ = nullptr;
  bool in_step_ = false;

  // Calls fn with the accessor of the current state (get(i, n) = post-collision f_i of cell n; put sets it).
  template <class Fn>
  void with_state(Fn&& fn) {
    if (aa_) {
      fn(AAStateAccess<L, T, R>{g_, storage()});
    } else {
      fn(TwoLatticeAccess<T, R>{a_.data(), a_.data(), g_.cells});
    }
  }

  AAStorage<T> storage() { return storage_at(odd_); }
  // The storage as it is after `odd` steps (mod 2): snapshot `odd` is the current one.
  AAStorage<T> storage_at(int odd) {
    return AAStorage<T>{a_.data(),          snap_[odd].data(), snap_[odd ^ 1].data(), aa_row_.data(),
                        aa_row_cell_.data(), aa_rows_,          aa_boundary_rows_,     odd};
  }

  // After the state was set: the two-lattice scheme's other lattice holds it too (solid cells are never written).
  // In place: the snapshot rows of the interior cells the boundary cells read, from the state just set.
  void sync_second_lattice() {
    wale_fresh_ = false;  // the velocity fields no longer match the state (launch_model_step)
    if (!aa_) {
      AEROLBM_CUDA_CHECK(cudaMemcpyAsync(b_.data(), a_.data(), a_.size() * sizeof(T), cudaMemcpyDeviceToDevice,
                                         stream_));
    } else if (aa_rows_ > aa_boundary_rows_) {
      cuda::aa_gather_kernel<L, T><<<cuda::blocks_for(aa_rows_ - aa_boundary_rows_, 128), 128, 0, stream_>>>(
          g_, storage());
      AEROLBM_CUDA_LAUNCH_CHECK();
    }
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // One in-place step from layout `odd`: every cell in one pass (interior cells in place, boundary cells from the
  // snapshot, which the interior cells they read refresh as they go).
  void launch_step_in_place(int odd) {
    const AAStorage<T> s = storage_at(odd);
    const dim3 grid = cuda::plane_grid(g_);
    // The interior's sponge test only where the case has a sponge (fewer registers without).
    const bool sponge = k_.sponge_faces != 0;
    if (pass_ == BoundaryPass::roles) {
      const cuda::BlockRoles r = cuda::block_roles(g_, boundary_.data(), nboundary_);
      const unsigned blocks = cuda::role_blocks(g_, r);
      if (odd) {
        if (sponge) cuda::stream_collide_aa_roles<L, T, R, true, true><<<blocks, cuda::kStepBlock, 0, stream_>>>(g_, k_, s, r);
        else cuda::stream_collide_aa_roles<L, T, R, true, false><<<blocks, cuda::kStepBlock, 0, stream_>>>(g_, k_, s, r);
      } else {
        if (sponge) cuda::stream_collide_aa_roles<L, T, R, false, true><<<blocks, cuda::kStepBlock, 0, stream_>>>(g_, k_, s, r);
        else cuda::stream_collide_aa_roles<L, T, R, false, false><<<blocks, cuda::kStepBlock, 0, stream_>>>(g_, k_, s, r);
      }
      AEROLBM_CUDA_LAUNCH_CHECK();
      return;
    }
    if (!boundary_cells_) {  // a periodic box: no boundary path, no sponge
      if (odd) cuda::stream_collide_aa<L, T, R, true, false, false><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, s);
      else cuda::stream_collide_aa<L, T, R, false, false, false><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, s);
    } else if (odd) {
      if (sponge) cuda::stream_collide_aa<L, T, R, true, true><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, s);
      else cuda::stream_collide_aa<L, T, R, true, false><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, s);
    } else {
      if (sponge) cuda::stream_collide_aa<L, T, R, false, true><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, s);
      else cuda::stream_collide_aa<L, T, R, false, false><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, s);
    }
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  void launch_step(const T* src, T* dst) {
    if (wale_ || wall_fn_) {
      launch_model_step(src, dst);
      return;
    }
    if (variant_ == KernelVariant::Tiled) {
      const dim3 block(cuda::kTileX, cuda::kTileY, 1);
      const dim3 grid(cuda::blocks_for(g_.n[0], cuda::kTileX), cuda::blocks_for(g_.n[1], cuda::kTileY), unsigned(g_.n[2]));
      cuda::stream_collide_tiled<L, T, R><<<grid, block, 0, stream_>>>(g_, k_, src, dst);
      AEROLBM_CUDA_LAUNCH_CHECK();
      if (nboundary_ > 0) {
        cuda::stream_collide_boundary<L, T, R><<<cuda::blocks_for(nboundary_, 128), 128, 0, stream_>>>(
            g_, k_, src, dst, boundary_.data(), nboundary_);
        AEROLBM_CUDA_LAUNCH_CHECK();
      }
    } else if (pass_ == BoundaryPass::roles) {
      const cuda::BlockRoles r = cuda::block_roles(g_, boundary_.data(), nboundary_);
      with_plane_options([&](auto sponge, auto open) {
        launch_dependent(cuda::stream_collide_pull_roles<L, T, R, decltype(sponge)::value, decltype(open)::value>,
                         cuda::role_blocks(g_, r), g_, k_, src, dst, r);
      });
    } else if (pass_ == BoundaryPass::split) {
      launch_split_step(src, dst);
    } else {
      const dim3 grid = cuda::plane_grid(g_);
      if (boundary_cells_) {
        cuda::stream_collide_pull<L, T, R, true><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, src, dst, EdgeLayers{});
      } else {
        cuda::stream_collide_pull<L, T, R, false, false><<<grid, cuda::kStepBlock, 0, stream_>>>(g_, k_, src, dst, EdgeLayers{});
      }
      AEROLBM_CUDA_LAUNCH_CHECK();
    }
  }

  // WALE's velocity field of the state in lattice `lattice` (3 × cells floats): one per lattice, so a step reads
  // the field of its source and writes that of its destination.
  float* velocity_of(const T* lattice) { return velocity_.data() + (lattice == lattice0_ ? 0 : 3 * g_.cells); }

  // After the state was set (wale_fresh_ false): both fields from the state by the velocity pass (store_cell_velocity;
  // solid and ghost cells 0, which no step writes). Launched before any step is issued or captured.
  void refresh_wale_velocity() {
    if (!wale_ || wale_fresh_) return;
    flush_sample();
    for (float* u : {velocity_.data(), velocity_.data() + 3 * g_.cells}) {
      cuda::velocity_field_kernel<L, R><<<cuda::blocks_for(g_.cells, 256), 256, 0, stream_>>>(
          g_, TwoLatticeAccess<T, R>{a_.data(), b_.data(), g_.cells}, u);
      AEROLBM_CUDA_LAUNCH_CHECK();
    }
    wale_fresh_ = true;
  }

  // A step with WALE or the wall function: every cell in the one-pass kernel with the model paths. WALE
  // differentiates the source's velocity field and writes the destination's from the populations it stores (bit
  // for bit what the velocity pass would compute from them, so the fields always match the state).
  void launch_model_step(const T* src, T* dst) {
    GridView g = g_;
    if (wale_) {
      g.velocity = velocity_of(src);
      g.velocity_next = velocity_of(dst);
    }
    const dim3 grid = cuda::plane_grid(g);
    if (wale_ && wall_fn_) {
      cuda::stream_collide_pull<L, T, R, true, true, extras::wale | extras::wall_function>
          <<<grid, cuda::kStepBlock, 0, stream_>>>(g, k_, src, dst, EdgeLayers{});
    } else if (wale_) {
      cuda::stream_collide_pull<L, T, R, true, true, extras::wale>
          <<<grid, cuda::kStepBlock, 0, stream_>>>(g, k_, src, dst, EdgeLayers{});
    } else {
      cuda::stream_collide_pull<L, T, R, true, true, extras::wall_function>
          <<<grid, cuda::kStepBlock, 0, stream_>>>(g, k_, src, dst, EdgeLayers{});
    }
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  // Calls f(sponge, open) with the plane blocks' compile-time options as std::bool_constant values: the interior's
  // sponge test only where the case has a sponge (fewer registers without), the open faces in the plane blocks.
  template <class F>
  void with_plane_options(F&& f) const {
    const auto with_open = [&](auto sponge) {
      if (open_in_plane_) f(sponge, std::true_type{});
      else f(sponge, std::false_type{});
    };
    if (k_.sponge_faces != 0) with_open(std::true_type{});
    else with_open(std::false_type{});
  }

  // A pull step in two launches (BoundaryPass::split): the plane kernel, then the list as its programmatic dependent.
  void launch_split_step(const T* src, T* dst) {
    cuda::BlockRoles r = cuda::block_roles(g_, boundary_.data(), nboundary_);
    const unsigned list_blocks = r.list_blocks;
    r.list_blocks = 0;
    with_plane_options([&](auto sponge, auto open) {
      cuda::stream_collide_pull_plane<L, T, R, decltype(sponge)::value, decltype(open)::value>
          <<<cuda::role_blocks(g_, r), cuda::kStepBlock, 0, stream_>>>(g_, k_, src, dst, r);
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
    if (nboundary_ == 0) return;
    launch_dependent(cuda::stream_collide_boundary<L, T, R>, list_blocks, g_, k_, src, dst,
                     static_cast<const BoundaryCell*>(boundary_.data()), nboundary_);
  }

  // `blocks` blocks of kStepBlock threads of `kernel` on the step stream, as a programmatic dependent of what the
  // stream ran before (sm_90 and later; elsewhere a plain launch): the kernel may start once every block of the one
  // before has called launch_trigger (lbm_kernels.cuh), and waits for its end where it calls grid_wait. After a
  // kernel that never calls launch_trigger, it starts when that kernel ends, as a plain launch would.
  template <class... P, class... A>
  void launch_dependent(void (*kernel)(P...), unsigned blocks, A&&... args) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(cuda::kStepBlock);
    cfg.stream = stream_;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = programmatic_launch_ ? 1 : 0;
    AEROLBM_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, std::forward<A>(args)...));
  }

  // Steps `first` .. n − 1 of `n` from the current state, launched without changing it (the caller advances it).
  void issue_steps(std::int64_t n, std::int64_t first = 0) {
    for (std::int64_t s = first; s < n; ++s) {
      if (aa_) {
        launch_step_in_place(odd_ ^ int(s & 1));
      } else {
        launch_step(s % 2 ? b_.data() : a_.data(), s % 2 ? a_.data() : b_.data());
      }
    }
  }

  // After `n` steps: an odd count leaves the state in the other lattice (pull) or the other layout (in place).
  void advance(std::int64_t n) {
    if (n % 2 == 0) return;
    if (aa_) {
      odd_ ^= 1;
    } else {
      std::swap(a_, b_);
    }
  }

  // Steps go out as replays of captured graphs of up to kGraphSteps launches, one graph per step count, starting
  // state (which lattice holds the state, or the in-place layout) and queued force sample (none, totals, per-cell
  // forces), kept while the backend lives: launching one kernel at a time costs a few microseconds each, which
  // dominates below ~1 M cells, and a run's chunks (between force samples) come in a few sizes. Past kMaxGraphs
  // different keys, steps are launched one by one.
  static constexpr int kGraphSteps = 20;
  static constexpr std::size_t kMaxGraphs = 32;
  static constexpr int kSampleCapacity = 256;

  void enqueue(std::int64_t steps) {
    refresh_wale_velocity();
    // During the inflow ramp every step has its own constants: launched one by one (the kernels take k_ by value
    // at launch), never captured; a sample queued before them goes out first.
    if (steps <= 0 || ramp_.active()) flush_sample();
    for (; steps > 0 && ramp_.active(); --steps) issue_one();
    while (steps > 0) {
      const std::int64_t n = std::min<std::int64_t>(steps, kGraphSteps);
      const int sample = nrows_ > 0 ? deferred_ : 0;
      const std::tuple<std::int64_t, std::uintptr_t, int> key{
          n, aa_ ? std::uintptr_t(odd_) : reinterpret_cast<std::uintptr_t>(a_.data()), sample};
      const bool captured = capturing();  // by a caller's record(): the kernels go into its graph
      auto it = captured ? graphs_.end() : graphs_.find(key);
      if (!captured && it == graphs_.end() && graphs_.size() < kMaxGraphs) {
        cudaGraph_t graph;
        AEROLBM_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
        issue_sampled_steps(n, sample);
        AEROLBM_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
        cudaGraphExec_t exec = nullptr;
        AEROLBM_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
        AEROLBM_CUDA_CHECK(cudaGraphDestroy(graph));
        it = graphs_.emplace(key, exec).first;
      }
      if (it != graphs_.end()) {
        AEROLBM_CUDA_CHECK(cudaGraphLaunch(it->second, stream_));
      } else {
        issue_sampled_steps(n, sample);
      }
      deferred_ = 0;
      advance(n);
      ramp_.step += n;
      steps -= n;
    }
  }

  // The queued sample `sample` (deferred_'s values; 0: none) of the current state, then `n` steps from it, launched
  // (or captured) without changing the state. Two lattices: the sample runs on its own stream beside the first step,
  // which only reads the lattice sampled; the second step, which overwrites it, waits for the sample. In place the
  // first step overwrites the state at once, so the sample goes first.
  void issue_sampled_steps(std::int64_t n, int sample) {
    if (!sample) {
      issue_steps(n);
    } else if (aa_) {
      launch_sample(sample, stream_);
      issue_steps(n);
    } else {
      if (!force_stream_) create_priority_stream(force_stream_, sampled_, sample_done_);
      AEROLBM_CUDA_CHECK(cudaEventRecord(sampled_, stream_));
      AEROLBM_CUDA_CHECK(cudaStreamWaitEvent(force_stream_, sampled_, 0));
      launch_sample(sample, force_stream_);
      AEROLBM_CUDA_CHECK(cudaEventRecord(sample_done_, force_stream_));
      issue_steps(1);
      AEROLBM_CUDA_CHECK(cudaStreamWaitEvent(stream_, sample_done_, 0));
      issue_steps(n, 1);
    }
  }

  void drop_graphs() {
    for (auto& kv : graphs_) cudaGraphExecDestroy(kv.second);
    graphs_.clear();
  }

  // One step from the current state, with the ramp's constants while it lasts, launched on its own.
  void issue_one() {
    if (ramp_.active()) {
      const StepConstants<R> full = k_;
      k_ = ramp_.next();
      issue_steps(1);
      k_ = full;
    } else {
      issue_steps(1);
    }
    advance(1);
    ++ramp_.step;
  }

  // Before anything that changes the state or uses the force buffers outside a step: the queued sample, launched
  // on its own (the samples inside graphs are joined there).
  void flush_sample() {
    if (!deferred_) return;
    launch_sample(deferred_, stream_);
    deferred_ = 0;
  }

  // The force kernel for a queued sample of the current state (`sample`: 1 totals, 2 with per-cell forces), into
  // the slot the device counts (sample_slot_). No walls: nothing to launch (the totals stay 0 from drain_samples).
  void launch_sample(int sample, cudaStream_t s) {
    if (nrows_ == 0) return;
    double* per_row = sample == 2 ? sample_cells_.data() : nullptr;
    with_state([&](auto acc) {
      cuda::wall_force_kernel<L, R><<<unsigned(force_blocks_), cuda::kForceBlock, 0, s>>>(
          g_, k_, acc, rows_.data(), nrows_, per_row, force_partial_.data(), force_done_.data(),
          sample_total_.data(), sample_slot_.data());
    });
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  // The force and its pressure part of the current state (wall_force_kernel's totals), waited for.
  std::array<double, cuda::kForceTotals> force_totals() {
    launch_force(nullptr, force_sum_.data());
    std::array<double, cuda::kForceTotals> F;
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(F.data(), force_sum_.data(), sizeof(F), cudaMemcpyDeviceToHost, stream_));
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return F;
  }

  // The force kernels for the current state: per-row forces into `per_row` (null: not kept), the totals into
  // total[0..kForceTotals), both on `s` (the main stream unless given).
  void launch_force(double* per_row, double* total) {
    flush_sample();  // a queued sample is of this state, and shares the kernel's partial sums
    cudaStream_t s = stream_;
    if (nrows_ > 0) {
      with_state([&](auto acc) {
        cuda::wall_force_kernel<L, R><<<unsigned(force_blocks_), cuda::kForceBlock, 0, s>>>(
            g_, k_, acc, rows_.data(), nrows_, per_row, force_partial_.data(), force_done_.data(), total);
      });
      AEROLBM_CUDA_LAUNCH_CHECK();
    } else {
      AEROLBM_CUDA_CHECK(cudaMemsetAsync(total, 0, cuda::kForceTotals * sizeof(double), s));
    }
  }

  // Waits for the queued samples and moves them to drained_ (host), freeing the device slots.
  void drain_samples() {
    if (queued_.empty()) return;
    flush_sample();
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    constexpr std::size_t kT = cuda::kForceTotals;
    std::vector<double> totals(kT * queued_.size());
    sample_total_.download(totals.data(), totals.size());
    const std::size_t per = 3 * std::size_t(nrows_);
    // The per-cell slots (slot i is sample i's), each run of samples that asked for them in one copy; slots of
    // samples without them are never written, so not read either.
    std::vector<double> cells(queued_.size() * per);
    for (std::size_t i = 0; i < queued_.size() && per > 0;) {
      if (!queued_[i]) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < queued_.size() && queued_[j]) ++j;
      AEROLBM_CUDA_CHECK(cudaMemcpy(cells.data() + i * per, sample_cells_.data() + i * per,
                                    (j - i) * per * sizeof(double), cudaMemcpyDeviceToHost));
      i = j;
    }
    for (std::size_t i = 0; i < queued_.size(); ++i) {
      ForceSample fs;
      fs.total = {totals[kT * i], totals[kT * i + 1], totals[kT * i + 2]};
      fs.pressure = {totals[kT * i + 3], totals[kT * i + 4], totals[kT * i + 5]};
      if (queued_[i]) fs.cells.assign(cells.begin() + std::ptrdiff_t(i * per), cells.begin() + std::ptrdiff_t((i + 1) * per));
      drained_.push_back(std::move(fs));
    }
    queued_.clear();
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(sample_slot_.data(), 0, sizeof(unsigned int), stream_));
  }

  GridView g_{};
  StepConstants<R> k_;  // after the inflow ramp (graphs capture these), and for forces, fields, the watchdog
  InflowRamp<R> ramp_;
  std::int64_t nrows_;
  std::string device_;
  KernelVariant variant_ = KernelVariant::Pull;
  int device_ordinal_ = 0;
  cudaStream_t stream_ = nullptr;
  bool own_stream_ = true;  // false after join_stream
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::map<std::tuple<std::int64_t, std::uintptr_t, int>, cudaGraphExec_t> graphs_;
  cuda::DeviceBuffer<std::uint8_t> flags_;
  cuda::DeviceBuffer<std::int32_t> link_;
  cuda::DeviceBuffer<float> q_;
  cuda::DeviceBuffer<std::uint32_t> wall_mask_;  // 2 words per wall row (kernels/physics/wall_masks.hpp)
  cuda::DeviceBuffer<std::int64_t> rows_;
  cuda::DeviceBuffer<BoundaryCell> boundary_;  // tiled and roles: cells updated from the list
  std::int64_t nboundary_ = 0;
  bool boundary_cells_ = false;  // any non-solid cell that is not plain interior
  BoundaryPass pass_ = BoundaryPass::one;  // pull and aa: how a step reaches the boundary cells (launch_step)
  bool programmatic_launch_ = false;       // the device overlaps dependent launches (sm_90 and later)
  bool open_in_plane_ = false;             // pull roles: inlet and outlet nodes in the plane blocks
  cuda::DeviceBuffer<T> a_, b_;  // two lattices; in place: a_ only
  bool aa_ = false;               // in-place storage (kernels/storage/aa_lattice.hpp)
  bool wale_ = false;             // WALE: velocity fields beside the lattices (launch_model_step)
  bool wale_fresh_ = false;       // the velocity fields match the state (refresh_wale_velocity)
  bool wall_fn_ = false;          // boundaries.wall: wall_model (launch_model_step)
  cuda::DeviceBuffer<float> velocity_;  // two fields, one per lattice (velocity_of)
  const T* lattice0_ = nullptr;         // the lattice whose field comes first
  cuda::DeviceBuffer<std::int32_t> aa_row_;
  cuda::DeviceBuffer<std::int64_t> aa_row_cell_;
  cuda::DeviceBuffer<T> snap_[2];
  std::int64_t aa_rows_ = 0, aa_boundary_rows_ = 0;
  int odd_ = 0;  // in place: steps done so far, mod 2 (the layout, and which snapshot is current)
  int force_blocks_ = 1;
  cuda::DeviceBuffer<double> force_partial_, force_cells_, force_sum_;
  cuda::DeviceBuffer<unsigned int> force_done_;  // the force kernel's count of finished blocks (0 between samples)
  cudaStream_t force_stream_ = nullptr;           // two lattices: the force samples, beside the next step
  cudaEvent_t sampled_ = nullptr, sample_done_ = nullptr;
  cuda::DeviceBuffer<double> sample_total_, sample_cells_;  // queued force samples (kSampleCapacity slots)
  std::vector<bool> queued_;         // per queued sample (slot): whether it keeps per-cell forces
  cuda::DeviceBuffer<unsigned int> sample_slot_;  // the next sample's slot, advanced by the force kernel
  int deferred_ = 0;  // a queued sample not launched yet: 1 totals, 2 with per-cell forces (queue_force_sample)
  std::vector<ForceSample> drained_;                         // samples already on the host, not yet taken
  cuda::DeviceBuffer<float> rho_d_, u_d_;
  cuda::SlotPool pool_;
  cuda::DeviceBuffer<unsigned long long> watch_;
  cuda::DeviceBuffer<double> avg_mean_, avg_m2_;  // the mean fields' statistics (field_averages::View layout)
  std::int64_t avg_samples_ = 0;
};

}  // namespace

template <class L>
std::unique_ptr<Backend> make_cuda_backend_for(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  // Device code of a plain lattice has no entropic path (collide, kernels/physics/collision.hpp).
  if ((p.collision == Collision::KBC) != kEntropicLattice<L>)
    throw std::logic_error("make_cuda_backend_for: the kernels' collision family does not match lattice.collision");
  return make_for_precision<CudaBackend, L, float, void, __half>(
      cfg, d, p, "lattice.precision: the CUDA backend stores fp32 or fp16s; fp64 is CPU-only");
}

}  // namespace aerolbm
