// One block per MPI rank behind the Backend interface of the whole grid (see parallel.hpp). After every step the
// populations that stream across block faces are exchanged into the neighbours' ghost layers (HaloExchange).
// The C API only (Open MPI and MPICH would otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>
#include <stdexcept>

#include "kernels/physics/grid_view.hpp"
#include "src/parallel/mpi_comm.hpp"
#include "src/parallel/mpi_halo_exchange.hpp"
#include "src/parallel/mpi_tags.hpp"
#include "src/parallel/parallel.hpp"
#include "src/solver/backend_select.hpp"

namespace aerolbm {
namespace {

class DistributedBackend final : public Backend, public BlockFieldsSource {
 public:
  DistributedBackend(RankContext& ranks, const DistributedConfig& dc, const BackendConfig& cfg,
                     const DomainData& global, const PhysicsParams& p)
      : rank_(ranks.rank()), size_(ranks.size()), q_(lattice_q(cfg.stencil)) {
    n_[0] = global.nx;
    n_[1] = global.ny;
    n_[2] = global.nz;
    if (cfg.kernel != KernelVariant::Auto && cfg.kernel != KernelVariant::Pull)
      throw std::invalid_argument("lattice.kernel: '" + std::string(kernel_name(cfg.kernel)) +
                                  "' is not available in a run over several MPI ranks (the halo exchange works on "
                                  "the two-lattice layout). Use lattice.kernel: pull or auto.");
    const bool gpu = resolve_backend(dc.backend) == BackendKind::Cuda;
    grid_ = dc.ranks_grid;
    if (grid_[0] * grid_[1] * grid_[2] != size_)
      throw std::logic_error("DistributedBackend: the ranks grid " + format_ranks_grid(grid_) + " is not a split of " +
                             std::to_string(size_) + " ranks (choose_ranks_grid makes one)");
    const std::uint8_t periodic = periodic_axes(p);
    for (int r = 0; r < size_; ++r) blocks_.push_back(block_of(r, grid_, n_, periodic));
    const Block& b = blocks_[std::size_t(rank_)];
    DomainData local = cut_block(global, b, q_);
    for (int a = 0; a < 3; ++a) {
      origin_[a] = local.origin[a];
      ln_[a] = a == 0 ? local.nx : a == 1 ? local.ny : local.nz;
    }
    BackendConfig lc = cfg;
    lc.kernel = KernelVariant::Pull;
    if (gpu && cuda_device_count() > 0) cuda_use_device(node_local_rank() % cuda_device_count());
    local_ = select_backend(dc.backend, lc, local, block_params(p, grid_));
    // Each local wall row's row in the global table (wall_force_cells returns the global order on every rank).
    global_rows_ = std::int64_t(global.wall_cells.size());
    for (const std::int64_t li : local.wall_cells) {
      const std::int64_t l[3] = {li % local.nx, (li / local.nx) % local.ny, li / (local.nx * local.ny)};
      const std::int64_t gi = (l[0] + local.origin[0]) + global.nx * ((l[1] + local.origin[1]) + global.ny * (l[2] + local.origin[2]));
      global_row_of_.push_back(global.link[std::size_t(gi)]);
    }
    for (int a = 0; a < 3; ++a) {
      edges_.lo[a] = b.ghost(a, 0) ? 1 : -1;
      edges_.hi[a] = b.ghost(a, 1) ? int(ln_[a]) - 2 : -1;
    }
    halo_ = std::make_unique<HaloExchange>(*local_, halo_plan(b, local, cfg.stencil), rank_);
    for (std::int64_t z = 0; z < ln_[2]; ++z)
      for (std::int64_t y = 0; y < ln_[1]; ++y)
        for (std::int64_t x = 0; x < ln_[0]; ++x) {
          const std::int64_t g[3] = {x + origin_[0], y + origin_[1], z + origin_[2]};
          bool owned = true;
          for (int a = 0; a < 3; ++a) owned = owned && g[a] >= b.lo[a] && g[a] < b.hi[a];
          if (owned) owned_.push_back(x + ln_[0] * (y + ln_[1] * z));
        }
    print_ = dc.print;
    if (dc.print && rank_ == 0)
      spdlog::info("MPI: {} ranks, split {} (x, y, z), {} cells per block on rank 0, {} populations sent per step "
                   "by rank 0, halo transport {}",
                   size_, format_ranks_grid(grid_), b.cells(), halo_->populations_sent(), halo_->transport_summary());
  }

  ~DistributedBackend() override {
    // The halo exchange completes its last acknowledgements when it is destroyed, before the local backend.
    const std::int64_t n = halo_->exchanges();
    const double seconds = halo_->seconds();
    halo_.reset();
    if (n > 0 && print_ && rank_ == 0)
      spdlog::info("MPI: halo exchange {:.1f} us per step on rank 0 (host time from the first halo packed to the "
                   "last unpacked, beside the update of the block's interior), {} exchanges",
                   1e6 * seconds / double(n), n);
  }

  BackendKind kind() const override { return local_->kind(); }
  std::string device() const override {
    return local_->device() + " per rank, " + std::to_string(size_) + " MPI ranks (split " +
           format_ranks_grid(grid_) + ")";
  }
  std::string kernel() const override { return local_->kernel(); }

  void initialize() override {
    local_->initialize();
    halo_->exchange();  // ghosts at wrapped positions start from their owners' values
  }

  void set_step(std::int64_t step) override { local_->set_step(step); }

  void run(std::int64_t steps) override {
    for (std::int64_t s = 0; s < steps; ++s) local_->step_overlapped(edges_, [this] { halo_->exchange(); });
    local_->finish_steps();
  }

  // Wall clock between two barriers, the slowest rank's (the exchange waits for the device every step).
  double timed_run(std::int64_t steps) override {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    run(steps);
    double t = MPI_Wtime() - t0, worst = t;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
  }

  std::array<double, 3> wall_force() override {
    const auto f = local_->wall_force();
    std::array<double, 3> sum{};
    MPI_Allreduce(f.data(), sum.data(), 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sum;
  }

  std::array<double, 3> wall_pressure_force() override {
    const auto f = local_->wall_pressure_force();
    std::array<double, 3> sum{};
    MPI_Allreduce(f.data(), sum.data(), 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sum;
  }

  // Every rank's rows, placed in the global row order on every rank (Allgatherv of row, fx, fy, fz).
  void wall_force_cells(std::vector<double>& f) override {
    std::vector<double> lf;
    local_->wall_force_cells(lf);
    const std::size_t lrows = global_row_of_.size();
    std::vector<double> mine(4 * lrows);
    for (std::size_t r = 0; r < lrows; ++r) {
      mine[4 * r] = double(global_row_of_[r]);
      for (int a = 0; a < 3; ++a) mine[4 * r + 1 + std::size_t(a)] = lf[std::size_t(a) * lrows + r];
    }
    int count = int(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_), 0);
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 1; r < size_; ++r) displs[std::size_t(r)] = displs[std::size_t(r - 1)] + counts[std::size_t(r - 1)];
    std::vector<double> all(std::size_t(displs.back() + counts.back()));
    MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                   MPI_COMM_WORLD);
    const std::size_t G = std::size_t(global_rows_);
    f.assign(3 * G, 0.0);
    for (std::size_t k = 0; k + 3 < all.size(); k += 4) {
      const auto row = std::size_t(all[k]);
      for (std::size_t a = 0; a < 3; ++a) f[a * G + row] = all[k + 1 + a];
    }
  }

  void macroscopic(std::vector<float>& rho, std::vector<float>& u) override {
    std::vector<float> lr, lu;
    local_->macroscopic(lr, lu);
    std::vector<float> mine(4 * owned_.size());
    for (std::size_t c = 0; c < owned_.size(); ++c) {
      const auto n = std::size_t(owned_[c]);
      mine[4 * c] = lr[n];
      for (int a = 0; a < 3; ++a) mine[4 * c + 1 + a] = lu[3 * n + a];
    }
    std::vector<float> all;
    gather(mine, all, 4, MPI_FLOAT);
    rho.clear();
    u.clear();
    if (rank_ != 0) return;
    const std::int64_t N = n_[0] * n_[1] * n_[2];
    rho.resize(std::size_t(N));
    u.resize(std::size_t(3 * N));
    place(all, 4, [&](std::int64_t g, const float* v) {
      rho[std::size_t(g)] = v[0];
      for (int a = 0; a < 3; ++a) u[std::size_t(3 * g + a)] = v[1 + a];
    });
  }

  // Collective HDF5 output: this rank's cells and one layer of its neighbours' (src/parallel/mpi_block_fields.cpp).
  BlockFields block_fields() override {
    std::vector<float> lr, lu;
    local_->macroscopic(lr, lu);
    return owned_fields_with_layer(blocks_[std::size_t(rank_)], n_, origin_, ln_, lr, lu);
  }

  StateCheck check_state(double max_speed) override {
    const StateCheck c = local_->check_state(max_speed);
    struct Bad {
      double cell, speed;
    } mine{-1, 0};
    if (!c.ok) {
      const std::int64_t l = c.first_bad_cell;
      const std::int64_t x = l % ln_[0], y = (l / ln_[0]) % ln_[1], z = l / (ln_[0] * ln_[1]);
      mine.cell = double((x + origin_[0]) + n_[0] * ((y + origin_[1]) + n_[1] * (z + origin_[2])));
      mine.speed = c.speed;
    }
    std::vector<Bad> all(static_cast<std::size_t>(size_));
    MPI_Allgather(&mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, MPI_COMM_WORLD);
    StateCheck out;
    for (const Bad& b : all) {
      if (b.cell < 0) continue;
      if (out.ok || std::int64_t(b.cell) < out.first_bad_cell) {
        out.ok = false;
        out.first_bad_cell = std::int64_t(b.cell);
        out.speed = b.speed;
      }
    }
    return out;
  }

  // Mean fields: each rank samples its own block (no communication per sample); reading gathers every rank's owned
  // cells to rank 0 like the fields (the ghost layers' statistics are left out).
  void sample_averages() override { local_->sample_averages(); }

  void read_averages(FieldAverages& out) override {
    constexpr int Qa = FieldAverages::kQuantities;
    FieldAverages l;
    local_->read_averages(l);
    out = FieldAverages{};
    out.samples = l.samples;
    if (l.samples == 0) return;  // alike on every rank: they all sample at the same steps
    const std::size_t L = l.mean.size() / std::size_t(Qa);
    std::vector<double> mine(2 * Qa * owned_.size());
    for (std::size_t c = 0; c < owned_.size(); ++c)
      for (int q = 0; q < Qa; ++q) {
        mine[2 * Qa * c + std::size_t(q)] = l.mean[std::size_t(q) * L + std::size_t(owned_[c])];
        mine[2 * Qa * c + std::size_t(Qa + q)] = l.m2[std::size_t(q) * L + std::size_t(owned_[c])];
      }
    std::vector<double> all;
    gather(mine, all, 2 * Qa, MPI_DOUBLE);
    if (rank_ != 0) return;
    const std::int64_t N = n_[0] * n_[1] * n_[2];
    out.mean.resize(std::size_t(Qa * N));
    out.m2.resize(std::size_t(Qa * N));
    place(all, 2 * Qa, [&](std::int64_t g, const double* v) {
      for (int q = 0; q < Qa; ++q) {
        out.mean[std::size_t(q * N + g)] = v[q];
        out.m2[std::size_t(q * N + g)] = v[Qa + q];
      }
    });
  }

  // Gathered to rank 0 at once (macroscopic).
  std::unique_ptr<FieldsTransfer> start_fields_transfer() override { return host_fields_transfer(*this); }

  void read_populations(std::vector<double>& f) override {
    std::vector<double> lf;
    local_->read_populations(lf);
    const std::size_t L = lf.size() / std::size_t(q_);
    std::vector<double> mine(std::size_t(q_) * owned_.size());
    for (std::size_t c = 0; c < owned_.size(); ++c)
      for (int i = 0; i < q_; ++i) mine[std::size_t(q_) * c + std::size_t(i)] = lf[std::size_t(i) * L + owned_[c]];
    std::vector<double> all;
    gather(mine, all, q_, MPI_DOUBLE);
    f.clear();
    if (rank_ != 0) return;
    const std::int64_t N = n_[0] * n_[1] * n_[2];
    f.resize(std::size_t(q_ * N));
    place(all, q_, [&](std::int64_t g, const double* v) {
      for (int i = 0; i < q_; ++i) f[std::size_t(i * N + g)] = v[i];
    });
  }

  // Every rank holds the global state (each read the checkpoint): cut its block, ghosts included.
  void write_populations(const std::vector<double>& f) override {
    const std::int64_t N = n_[0] * n_[1] * n_[2];
    if (f.size() != std::size_t(q_ * N)) throw std::runtime_error("write_populations: size mismatch");
    const std::int64_t L = ln_[0] * ln_[1] * ln_[2];
    std::vector<double> lf(std::size_t(q_ * L));
    for (std::int64_t z = 0; z < ln_[2]; ++z)
      for (std::int64_t y = 0; y < ln_[1]; ++y)
        for (std::int64_t x = 0; x < ln_[0]; ++x) {
          const std::int64_t l[3] = {x, y, z};
          std::int64_t w[3];
          for (int a = 0; a < 3; ++a) w[a] = ((l[a] + origin_[a]) % n_[a] + n_[a]) % n_[a];
          const std::int64_t g = w[0] + n_[0] * (w[1] + n_[1] * w[2]);
          const std::int64_t li = x + ln_[0] * (y + ln_[1] * z);
          for (int i = 0; i < q_; ++i) lf[std::size_t(i * L + li)] = f[std::size_t(i * N + g)];
        }
    local_->write_populations(lf);
  }

 private:
  // Rank 0 receives every rank's owned cells (k values each, in the block's z, y, x order).
  template <class T>
  void gather(const std::vector<T>& mine, std::vector<T>& all, int k, MPI_Datatype type) {
    std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
    std::int64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      const std::int64_t c = blocks_[std::size_t(r)].cells() * k;
      if (c > std::int64_t(1) << 31) throw std::runtime_error("a block is too large to gather in one message");
      counts[std::size_t(r)] = int(c);
      displs[std::size_t(r)] = int(total);
      total += c;
    }
    if (total > std::int64_t(1) << 31) {
      // Beyond MPI's int counts: one message per rank.
      if (rank_ == 0) {
        all.resize(std::size_t(total));
        std::copy(mine.begin(), mine.end(), all.begin());
        std::int64_t at = counts[0];
        for (int r = 1; r < size_; ++r) {
          MPI_Recv(all.data() + at, counts[std::size_t(r)], type, r, mpi_tag::kLargeGather, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
          at += counts[std::size_t(r)];
        }
      } else {
        MPI_Send(mine.data(), int(mine.size()), type, 0, mpi_tag::kLargeGather, MPI_COMM_WORLD);
      }
      return;
    }
    if (rank_ == 0) all.resize(std::size_t(total));
    MPI_Gatherv(mine.data(), int(mine.size()), type, all.data(), counts.data(), displs.data(), type, 0,
                MPI_COMM_WORLD);
  }

  // Walks the gathered values block by block, calling fn(global cell, its k values).
  template <class T, class Fn>
  void place(const std::vector<T>& all, int k, Fn&& fn) {
    std::size_t at = 0;
    for (const Block& b : blocks_)
      for (std::int64_t z = b.lo[2]; z < b.hi[2]; ++z)
        for (std::int64_t y = b.lo[1]; y < b.hi[1]; ++y)
          for (std::int64_t x = b.lo[0]; x < b.hi[0]; ++x, at += std::size_t(k))
            fn(x + n_[0] * (y + n_[1] * z), all.data() + at);
  }

  int rank_, size_, q_;
  std::int64_t n_[3] = {0, 0, 0};
  std::int64_t origin_[3] = {0, 0, 0}, ln_[3] = {1, 1, 1};
  RanksGrid grid_{1, 1, 1};
  std::vector<Block> blocks_;
  std::unique_ptr<Backend> local_;
  std::vector<std::int64_t> owned_;
  std::vector<std::int32_t> global_row_of_;  // local wall row → global wall row
  std::int64_t global_rows_ = 0;  // local indices of the owned cells, z, y, x order
  std::unique_ptr<HaloExchange> halo_;  // after local_: destroyed before it
  bool print_ = true;
  EdgeLayers edges_;
};

}  // namespace

BlockBackend make_distributed_backend(RankContext& ranks, const DistributedConfig& dc, const BackendConfig& cfg,
                                      const DomainData& global, const PhysicsParams& p) {
  auto b = std::make_unique<DistributedBackend>(ranks, dc, cfg, global, p);
  BlockFieldsSource* blocks = b.get();
  return {std::move(b), blocks};
}

}  // namespace aerolbm
