// CPU backend: OpenMP loops over the same per-cell physics the CUDA backend runs. This is the reference backend.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <utility>

#include "kernels/backend.hpp"
#include "kernels/cpu/two_lattice.hpp"
#include "kernels/physics/cell_update.hpp"

namespace aerolbm {
namespace {

// The CPU's fields are on the host already: the transfer is a plain copy made at once.
class HostFields final : public FieldsTransfer {
 public:
  std::vector<float> rho_, u_;
  void wait() override {}
  const float* rho() const override { return rho_.data(); }
  const float* u() const override { return u_.data(); }
};

template <class L, class T>
class CpuBackend final : public Backend {
  using R = T;  // arithmetic in the storage precision (fp32 or fp64)

 public:
  CpuBackend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p)
      : dom_(d), k_(make_step_constants<R>(p)), threads_(cfg.threads > 0 ? cfg.threads : omp_get_max_threads()) {
    g_.n[0] = int(d.nx);
    g_.n[1] = int(d.ny);
    g_.n[2] = int(d.nz);
    g_.cells = d.cells();
    g_.periodic = periodic_axes(p);
    g_.flags = dom_.flags.data();
    g_.link = dom_.link.data();
    g_.q = dom_.q.data();
    a_.assign(std::size_t(L::Q) * g_.cells, T(0));
    b_ = a_;
  }

  std::string name() const override { return "cpu"; }
  std::string device() const override { return std::to_string(threads_) + " OpenMP threads"; }
  std::string kernel() const override { return "pull (two lattices)"; }

  void initialize() override {
    const TwoLatticeAccess<T, R> acc{nullptr, a_.data(), g_.cells};
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t n = 0; n < g_.cells; ++n) initialize_cell<L, R>(g_, k_, acc, n);
    b_ = a_;
  }

  void run(std::int64_t steps) override {
    const int nx = g_.n[0], ny = g_.n[1], nz = g_.n[2];
    for (std::int64_t s = 0; s < steps; ++s) {
      const TwoLatticeAccess<T, R> acc{a_.data(), b_.data(), g_.cells};
      const GridView g = g_;
      const StepConstants<R> k = k_;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_)
      for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
          for (int x = 0; x < nx; ++x) update_cell<L, R>(g, k, acc, x, y, z);
      std::swap(a_, b_);
    }
  }

  double timed_run(std::int64_t steps) override {
    const auto t0 = std::chrono::steady_clock::now();
    run(steps);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  std::array<double, 3> wall_force() override {
    const TwoLatticeAccess<T, R> acc{a_.data(), nullptr, g_.cells};
    double fx = 0, fy = 0, fz = 0;
    const auto& cells = dom_.wall_cells;
#pragma omp parallel for reduction(+ : fx, fy, fz) schedule(static) num_threads(threads_)
    for (std::size_t r = 0; r < cells.size(); ++r) {
      double f[3];
      wall_force_cell<L, R>(g_, k_, acc, cells[r], f);
      fx += f[0];
      fy += f[1];
      fz += f[2];
    }
    return {fx, fy, fz};
  }

  void macroscopic(std::vector<float>& rho, std::vector<float>& u) override {
    rho.resize(g_.cells);
    u.resize(3 * g_.cells);
    const TwoLatticeAccess<T, R> acc{a_.data(), nullptr, g_.cells};
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t n = 0; n < g_.cells; ++n) {
      R r, v[3];
      cell_macroscopic<L, R>(k_, acc, n, r, v);
      rho[n] = float(r);
      for (int a = 0; a < 3; ++a) u[3 * n + a] = float(v[a]);
    }
  }

  StateCheck check_state(double max_speed) override {
    const TwoLatticeAccess<T, R> acc{a_.data(), nullptr, g_.cells};
    std::int64_t first = g_.cells;
#pragma omp parallel for reduction(min : first) schedule(static) num_threads(threads_)
    for (std::int64_t n = 0; n < g_.cells; ++n) {
      R speed = 0;
      if (!cell_is_sane<L, R>(g_, k_, acc, n, R(max_speed), speed) && n < first) first = n;
    }
    StateCheck c;
    if (first < g_.cells) {
      R speed = 0;
      cell_is_sane<L, R>(g_, k_, acc, first, R(max_speed), speed);
      c.ok = false;
      c.first_bad_cell = first;
      c.speed = double(speed);
    }
    return c;
  }

  std::unique_ptr<FieldsTransfer> start_fields_transfer() override {
    auto t = std::make_unique<HostFields>();
    macroscopic(t->rho_, t->u_);
    return t;
  }

  void read_populations(std::vector<double>& f) override { f.assign(a_.begin(), a_.end()); }
  void write_populations(const std::vector<double>& f) override {
    if (f.size() != a_.size()) throw std::runtime_error("write_populations: size mismatch");
    std::transform(f.begin(), f.end(), a_.begin(), [](double v) { return T(v); });
    b_ = a_;
  }

 private:
  DomainData dom_;
  GridView g_{};
  StepConstants<R> k_;
  int threads_;
  std::vector<T> a_, b_;
};

template <class L>
std::unique_ptr<Backend> make_for_lattice(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  switch (cfg.precision) {
    case Precision::FP32: return std::make_unique<CpuBackend<L, float>>(cfg, d, p);
    case Precision::FP64: return std::make_unique<CpuBackend<L, double>>(cfg, d, p);
    case Precision::FP16S:
      throw std::invalid_argument("the CPU backend stores fp32 or fp64; fp16s storage is a CUDA-backend option");
  }
  throw std::invalid_argument("unknown precision");
}

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  switch (cfg.stencil) {
    case Stencil::D2Q9: return make_for_lattice<D2Q9>(cfg, d, p);
    case Stencil::D3Q19: return make_for_lattice<D3Q19>(cfg, d, p);
    case Stencil::D3Q27: return make_for_lattice<D3Q27>(cfg, d, p);
  }
  throw std::invalid_argument("unknown stencil");
}

int lattice_q(Stencil s) {
  switch (s) {
    case Stencil::D2Q9: return 9;
    case Stencil::D3Q19: return 19;
    case Stencil::D3Q27: return 27;
  }
  return 0;
}

}  // namespace aerolbm
