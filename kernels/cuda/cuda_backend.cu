// CUDA backend: one thread per cell, structure of arrays, the same per-cell physics as the CPU backend.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <memory>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cpu/two_lattice.hpp"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/physics/cell_update.hpp"

namespace aerolbm {
namespace {

constexpr int kBlockX = 128;

template <class L, class T, class R>
__global__ void stream_collide_pull(GridView g, StepConstants<R> k, const T* __restrict__ src, T* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= g.n[0]) return;
  const TwoLatticeAccess<T, R> acc{src, dst, g.cells};
  update_cell<L, R>(g, k, acc, x, int(blockIdx.y), int(blockIdx.z));
}

template <class L, class T, class R>
__global__ void initialize_kernel(GridView g, StepConstants<R> k, T* f) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  const TwoLatticeAccess<T, R> acc{nullptr, f, g.cells};
  initialize_cell<L, R>(g, k, acc, n);
}

template <class L, class T, class R>
__global__ void wall_force_kernel(GridView g, StepConstants<R> k, const T* __restrict__ f,
                                  const std::int64_t* __restrict__ rows, std::int64_t nrows, double* __restrict__ out) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= nrows) return;
  const TwoLatticeAccess<T, R> acc{f, nullptr, g.cells};
  double F[3];
  wall_force_cell<L, R>(g, k, acc, rows[r], F);
  out[r] = F[0];
  out[nrows + r] = F[1];
  out[2 * nrows + r] = F[2];
}

template <class L, class T, class R>
__global__ void macroscopic_kernel(GridView g, StepConstants<R> k, const T* __restrict__ f, float* __restrict__ rho,
                                   float* __restrict__ u) {
  const std::int64_t n = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells) return;
  const TwoLatticeAccess<T, R> acc{f, nullptr, g.cells};
  R r, v[3];
  cell_macroscopic<L, R>(k, acc, n, r, v);
  rho[n] = float(r);
  u[3 * n] = float(v[0]);
  u[3 * n + 1] = float(v[1]);
  u[3 * n + 2] = float(v[2]);
}

unsigned blocks_for(std::int64_t n, int block) { return unsigned((n + block - 1) / block); }

template <class L, class T>
class CudaBackend final : public Backend {
  using R = float;

 public:
  CudaBackend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p)
      : k_(make_step_constants<R>(p)), nrows_(std::int64_t(d.wall_cells.size())) {
    if (cfg.kernel != "auto" && cfg.kernel != "pull") {
      throw std::invalid_argument("lattice.kernel: '" + cfg.kernel + "' is not available; use auto or pull");
    }
    int dev = 0;
    AEROLBM_CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    AEROLBM_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    device_ = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
              std::to_string(prop.multiProcessorCount) + " SMs)";
    g_.n[0] = int(d.nx);
    g_.n[1] = int(d.ny);
    g_.n[2] = int(d.nz);
    g_.cells = d.cells();
    flags_.resize(d.flags.size());
    flags_.upload(d.flags.data(), d.flags.size());
    link_.resize(d.link.size());
    link_.upload(d.link.data(), d.link.size());
    q_.resize(std::max<std::size_t>(1, d.q.size()));
    q_.upload(d.q.data(), d.q.size());
    rows_.resize(std::max<std::size_t>(1, d.wall_cells.size()));
    rows_.upload(d.wall_cells.data(), d.wall_cells.size());
    g_.flags = flags_.data();
    g_.link = link_.data();
    g_.q = q_.data();
    a_.resize(std::size_t(L::Q) * g_.cells);
    b_.resize(std::size_t(L::Q) * g_.cells);
    force_parts_.resize(std::max<std::int64_t>(1, 3 * nrows_));
    force_sum_.resize(3);
    std::size_t bytes = 0;
    AEROLBM_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, force_parts_.data(), force_sum_.data(),
                                              std::max<std::int64_t>(1, nrows_)));
    cub_temp_.resize(std::max<std::size_t>(1, bytes));
    cub_bytes_ = bytes;
  }

  std::string name() const override { return "cuda"; }
  std::string device() const override { return device_; }
  std::string kernel() const override { return "pull (two lattices)"; }

  void initialize() override {
    initialize_kernel<L, T, R><<<blocks_for(g_.cells, 256), 256>>>(g_, k_, a_.data());
    AEROLBM_CUDA_LAUNCH_CHECK();
    AEROLBM_CUDA_CHECK(cudaMemcpy(b_.data(), a_.data(), a_.size() * sizeof(T), cudaMemcpyDeviceToDevice));
    AEROLBM_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void run(std::int64_t steps) override {
    const dim3 block(kBlockX, 1, 1);
    const dim3 grid(blocks_for(g_.n[0], kBlockX), unsigned(g_.n[1]), unsigned(g_.n[2]));
    for (std::int64_t s = 0; s < steps; ++s) {
      stream_collide_pull<L, T, R><<<grid, block>>>(g_, k_, a_.data(), b_.data());
      AEROLBM_CUDA_LAUNCH_CHECK();
      std::swap(a_, b_);
    }
    AEROLBM_CUDA_CHECK(cudaDeviceSynchronize());
  }

  std::array<double, 3> wall_force() override {
    if (nrows_ == 0) return {0, 0, 0};
    wall_force_kernel<L, T, R><<<blocks_for(nrows_, 128), 128>>>(g_, k_, a_.data(), rows_.data(), nrows_,
                                                                  force_parts_.data());
    AEROLBM_CUDA_LAUNCH_CHECK();
    for (int c = 0; c < 3; ++c) {
      std::size_t bytes = cub_bytes_;
      AEROLBM_CUDA_CHECK(cub::DeviceReduce::Sum(cub_temp_.data(), bytes, force_parts_.data() + c * nrows_,
                                                force_sum_.data() + c, nrows_));
    }
    double F[3];
    force_sum_.download(F, 3);
    return {F[0], F[1], F[2]};
  }

  void macroscopic(std::vector<float>& rho, std::vector<float>& u) override {
    if (rho_d_.size() != std::size_t(g_.cells)) {
      rho_d_.resize(g_.cells);
      u_d_.resize(3 * g_.cells);
    }
    macroscopic_kernel<L, T, R><<<blocks_for(g_.cells, 256), 256>>>(g_, k_, a_.data(), rho_d_.data(), u_d_.data());
    AEROLBM_CUDA_LAUNCH_CHECK();
    rho.resize(g_.cells);
    u.resize(3 * g_.cells);
    rho_d_.download(rho.data(), rho.size());
    u_d_.download(u.data(), u.size());
  }

  void read_populations(std::vector<double>& f) override {
    std::vector<T> h(a_.size());
    a_.download(h.data(), h.size());
    f.assign(h.begin(), h.end());
  }
  void write_populations(const std::vector<double>& f) override {
    if (f.size() != a_.size()) throw std::runtime_error("write_populations: size mismatch");
    std::vector<T> h(f.begin(), f.end());
    a_.upload(h.data(), h.size());
    AEROLBM_CUDA_CHECK(cudaMemcpy(b_.data(), a_.data(), a_.size() * sizeof(T), cudaMemcpyDeviceToDevice));
  }

 private:
  GridView g_{};
  StepConstants<R> k_;
  std::int64_t nrows_;
  std::string device_;
  cuda::DeviceBuffer<std::uint8_t> flags_;
  cuda::DeviceBuffer<std::int32_t> link_;
  cuda::DeviceBuffer<float> q_;
  cuda::DeviceBuffer<std::int64_t> rows_;
  cuda::DeviceBuffer<T> a_, b_;
  cuda::DeviceBuffer<double> force_parts_, force_sum_;
  cuda::DeviceBuffer<unsigned char> cub_temp_;
  std::size_t cub_bytes_ = 0;
  cuda::DeviceBuffer<float> rho_d_, u_d_;
};

template <class L>
std::unique_ptr<Backend> make_for_lattice(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  if (cfg.precision != Precision::FP32) {
    throw std::invalid_argument("lattice.precision: the CUDA backend runs fp32 storage in this version");
  }
  return std::make_unique<CudaBackend<L, float>>(cfg, d, p);
}

}  // namespace

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

std::string cuda_device_summary() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: ") + cudaGetErrorString(e);
  }
  std::string s;
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    if (!s.empty()) s += "; ";
    s += "device " + std::to_string(d) + ": " + p.name + ", sm_" + std::to_string(p.major) +
         std::to_string(p.minor) + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
         std::to_string(p.totalGlobalMem >> 20) + " MiB";
  }
  return n ? s : "no CUDA device";
}

std::unique_ptr<Backend> make_cuda_backend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  switch (cfg.stencil) {
    case Stencil::D2Q9: return make_for_lattice<D2Q9>(cfg, d, p);
    case Stencil::D3Q19: return make_for_lattice<D3Q19>(cfg, d, p);
    case Stencil::D3Q27: return make_for_lattice<D3Q27>(cfg, d, p);
  }
  throw std::invalid_argument("unknown stencil");
}

}  // namespace aerolbm
