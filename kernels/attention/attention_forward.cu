// Host side of the fused attention: checks the problem, plans split-KV, fills the kernel parameters and
// launches the per-head-dim kernels; plus the device helpers of attention.hpp (buffers, random fill, timing).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/attention/attention.hpp"
#include "kernels/attention/attention_launch.hpp"
#include "kernels/attention/attention_tile.cuh"
#include "kernels/cuda/cuda_check.cuh"

namespace aerolbm::attention {
namespace {

using detail::FwdParams;
using detail::KernelInfo;

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("attention: " + what); }

static_assert(kAttentionVariants == detail::kTileVariants, "attention.hpp and attention_tile.cuh agree");

template <int D>
KernelInfo info_for_d(int v) {
  switch (v) {
    case 0: return detail::kernel_info<D, 0>();
    case 1: return detail::kernel_info<D, 1>();
    case 2: return detail::kernel_info<D, 2>();
    default: bad("variant " + std::to_string(v) + " does not exist (expected 0 to 2)");
  }
}

KernelInfo info_for(int d, int v) {
  switch (d) {
    case 32: return info_for_d<32>(v);
    case 64: return info_for_d<64>(v);
    case 128: return info_for_d<128>(v);
    default: bad("head_dim " + std::to_string(d) + " is not supported (expected 32, 64 or 128)");
  }
}

// Byte range [first, last) a tensor of `rows` rows touches.
struct Extent {
  std::uintptr_t first, last;
};
Extent extent(const void* data, const Strides& s, const Dims& d, int rows) {
  const std::int64_t last_elem = (d.batch - 1) * s.batch + (d.heads - 1) * s.head + (rows - 1) * s.row + d.head_dim;
  const auto p = reinterpret_cast<std::uintptr_t>(data);
  return {p, p + std::uintptr_t(last_elem) * 2};
}

void check_tensor(const char* name, const void* data, const Strides& s) {
  if (!data) bad(std::string(name) + " is a null pointer");
  if (reinterpret_cast<std::uintptr_t>(data) % 16 != 0)
    bad(std::string(name) + " is not 16-byte aligned (cp.async copies 16 bytes at a time)");
  for (const std::int64_t v : {s.batch, s.head, s.row})
    if (v < 0 || v % 8 != 0)
      bad(std::string(name) + " strides (batch " + std::to_string(s.batch) + ", head " + std::to_string(s.head) +
          ", row " + std::to_string(s.row) + ") must be non-negative multiples of 8 elements");
}

void validate(const Problem& pr) {
  const Dims& d = pr.dims;
  if (d.batch < 1 || d.heads < 1) bad("batch and heads must be >= 1");
  if (d.nq < 0) bad("nq must be >= 0");
  if (d.nk < 1) bad("nk must be >= 1 (softmax over no keys is undefined)");
  if (d.head_dim != 32 && d.head_dim != 64 && d.head_dim != 128)
    bad("head_dim " + std::to_string(d.head_dim) + " is not supported (expected 32, 64 or 128)");
  if (!std::isfinite(pr.scale) || pr.scale <= 0.f) bad("scale must be finite and > 0");
  if (d.nq == 0) return;
  check_tensor("q", pr.q.data, pr.q.strides);
  check_tensor("k", pr.k.data, pr.k.strides);
  check_tensor("v", pr.v.data, pr.v.strides);
  check_tensor("o", pr.o, pr.o_strides);
  const Extent eo = extent(pr.o, pr.o_strides, d, d.nq);
  const Extent in[3] = {extent(pr.q.data, pr.q.strides, d, d.nq), extent(pr.k.data, pr.k.strides, d, d.nk),
                        extent(pr.v.data, pr.v.strides, d, d.nk)};
  for (const Extent& e : in)
    if (e.first < eo.last && eo.first < e.last) bad("o overlaps q, k or v (the kernel does not work in place)");
}

int plan_splits(const KernelInfo& k, int ctas, int kv_tiles, int requested) {
  constexpr int kMaxSplits = 256;
  if (requested == 1) return 1;
  if (requested > 1) return std::min({requested, kv_tiles, kMaxSplits});
  // Automatic, by wave efficiency: split only when the CTAs cannot fill 80 % of the resident slots, then take
  // the smallest split count whose last wave is nearly as full as the best one.
  const double slots = double(k.sms) * std::max(1, k.blocks_per_sm);
  if (ctas >= 0.8 * slots) return 1;
  const int max_s = std::min(kv_tiles, kMaxSplits);
  double best = 0.0;
  std::vector<double> eff(std::size_t(max_s) + 1, 0.0);
  for (int s = 1; s <= max_s; ++s) {
    const double waves = ctas * double(s) / slots;
    eff[std::size_t(s)] = waves / std::ceil(waves);
    best = std::max(best, eff[std::size_t(s)]);
  }
  for (int s = 1; s <= max_s; ++s)
    if (eff[std::size_t(s)] >= 0.85 * best) return s;
  return 1;
}

struct Launch {
  FwdParams p{};
  Plan plan;
};

Launch prepare(const Problem& pr, const Options& opt) {
  validate(pr);
  if (opt.splits < 0) bad("options.splits must be >= 0 (0 = automatic)");
  if (opt.variant < 0 || opt.variant >= kAttentionVariants)
    bad("options.variant " + std::to_string(opt.variant) + " does not exist (expected 0 to " +
        std::to_string(kAttentionVariants - 1) + ")");
  const Dims& d = pr.dims;
  const KernelInfo k = info_for(d.head_dim, opt.variant);
  Launch L;
  FwdParams& p = L.p;
  p.q = static_cast<const std::uint16_t*>(pr.q.data);
  p.k = static_cast<const std::uint16_t*>(pr.k.data);
  p.v = static_cast<const std::uint16_t*>(pr.v.data);
  p.o = static_cast<std::uint16_t*>(pr.o);
  p.q_sb = pr.q.strides.batch, p.q_sh = pr.q.strides.head, p.q_sr = pr.q.strides.row;
  p.k_sb = pr.k.strides.batch, p.k_sh = pr.k.strides.head, p.k_sr = pr.k.strides.row;
  p.v_sb = pr.v.strides.batch, p.v_sh = pr.v.strides.head, p.v_sr = pr.v.strides.row;
  p.o_sb = pr.o_strides.batch, p.o_sh = pr.o_strides.head, p.o_sr = pr.o_strides.row;
  p.heads = d.heads, p.nq = d.nq, p.nk = d.nk;
  p.bh_count = d.batch * d.heads;
  if (std::int64_t(d.batch) * d.heads > std::numeric_limits<int>::max()) bad("batch * heads too large");
  p.q_tiles = (d.nq + k.block_rows - 1) / k.block_rows;
  const std::int64_t ctas = std::int64_t(p.q_tiles) * p.bh_count;
  if (ctas > std::numeric_limits<int>::max()) bad("batch * heads * ceil(nq / 128) exceeds the grid limit");
  p.scale_log2 = float(double(pr.scale) * 1.4426950408889634);
  const int kv_tiles = (d.nk + k.block_keys - 1) / k.block_keys;
  int splits = plan_splits(k, int(ctas), kv_tiles, opt.splits);
  p.tiles_per_split = (kv_tiles + splits - 1) / splits;
  splits = (kv_tiles + p.tiles_per_split - 1) / p.tiles_per_split;  // no empty split
  p.splits = splits;
  L.plan.splits = splits;
  L.plan.q_tiles = p.q_tiles;
  L.plan.ctas = int(ctas) * splits;
  L.plan.block_rows = k.block_rows;
  L.plan.block_keys = k.block_keys;
  L.plan.warps = k.warps;
  L.plan.blocks_per_sm = k.blocks_per_sm;
  if (splits > 1) {
    const std::size_t rows = std::size_t(splits) * std::size_t(p.bh_count) * std::size_t(d.nq);
    const std::size_t o_bytes = (rows * std::size_t(d.head_dim) * sizeof(float) + 255) / 256 * 256;
    L.plan.workspace_bytes = o_bytes + rows * sizeof(float);
  }
  return L;
}

template <int D>
void launch_d(FwdParams& p, int v, cudaStream_t stream) {
  switch (v) {
    case 0: detail::launch_fwd<D, 0>(p, stream); break;
    case 1: detail::launch_fwd<D, 1>(p, stream); break;
    case 2: detail::launch_fwd<D, 2>(p, stream); break;
    default: bad("unsupported variant");
  }
}

void launch(FwdParams& p, int d, int v, cudaStream_t stream) {
  switch (d) {
    case 32: launch_d<32>(p, v, stream); break;
    case 64: launch_d<64>(p, v, stream); break;
    case 128: launch_d<128>(p, v, stream); break;
    default: bad("unsupported head_dim");
  }
}

void bind_workspace(FwdParams& p, const Plan& plan, void* ws) {
  p.o_part = static_cast<float*>(ws);
  p.lse_part = reinterpret_cast<float*>(static_cast<char*>(ws) + (plan.workspace_bytes - std::size_t(p.splits) *
                                                                     std::size_t(p.bh_count) * std::size_t(p.nq) *
                                                                     sizeof(float)));
}

}  // namespace

Plan attention_plan(const Problem& problem, const Options& options) { return prepare(problem, options).plan; }

void attention_forward(const Problem& problem, const Options& options) {
  if (problem.dims.nq == 0) {
    validate(problem);
    return;
  }
  Launch L = prepare(problem, options);
  const auto stream = static_cast<cudaStream_t>(options.stream);
  if (L.plan.splits == 1) {
    launch(L.p, problem.dims.head_dim, options.variant, stream);
    return;
  }
  if (options.workspace) {
    if (options.workspace_size < L.plan.workspace_bytes)
      bad("workspace of " + std::to_string(options.workspace_size) + " bytes is smaller than the " +
          std::to_string(L.plan.workspace_bytes) + " bytes split-KV needs (attention_plan)");
    if (reinterpret_cast<std::uintptr_t>(options.workspace) % 256 != 0) bad("workspace must be 256-byte aligned");
    bind_workspace(L.p, L.plan, options.workspace);
    launch(L.p, problem.dims.head_dim, options.variant, stream);
    return;
  }
  void* ws = nullptr;
  AEROLBM_CUDA_CHECK(cudaMallocAsync(&ws, L.plan.workspace_bytes, stream));
  bind_workspace(L.p, L.plan, ws);
  try {
    launch(L.p, problem.dims.head_dim, options.variant, stream);
  } catch (...) {
    cudaFreeAsync(ws, stream);
    throw;
  }
  AEROLBM_CUDA_CHECK(cudaFreeAsync(ws, stream));
}

// ---- device helpers ------------------------------------------------------------------------------------------

namespace {

__global__ void fill_pattern_kernel(std::uint16_t* p, std::size_t n, std::uint16_t v) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = v;
}

__device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__global__ void fill_random_kernel(std::uint16_t* p, std::size_t n, std::uint64_t seed, float amplitude) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float u = float(splitmix64(seed * 0x100000001B3ull + i) >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    p[i] = __bfloat16_as_ushort(__float2bfloat16_rn((2.f * u - 1.f) * amplitude));
  }
}

unsigned fill_blocks(std::size_t n) { return unsigned(std::min<std::size_t>((n + 255) / 256, 65536)); }

}  // namespace

DeviceBf16::DeviceBf16(std::size_t count) : n_(count) {
  if (count) AEROLBM_CUDA_CHECK(cudaMalloc(&p_, count * sizeof(std::uint16_t)));
}
DeviceBf16::~DeviceBf16() {
  if (p_) cudaFree(p_);
}
void DeviceBf16::upload(const std::uint16_t* host, std::size_t count, std::size_t offset) {
  if (offset + count > n_) throw std::out_of_range("DeviceBf16::upload past the end");
  if (count) AEROLBM_CUDA_CHECK(cudaMemcpy(p_ + offset, host, count * 2, cudaMemcpyHostToDevice));
}
void DeviceBf16::download(std::uint16_t* host, std::size_t count, std::size_t offset) const {
  if (offset + count > n_) throw std::out_of_range("DeviceBf16::download past the end");
  if (count) AEROLBM_CUDA_CHECK(cudaMemcpy(host, p_ + offset, count * 2, cudaMemcpyDeviceToHost));
}
void DeviceBf16::fill(std::uint16_t pattern) {
  if (!n_) return;
  fill_pattern_kernel<<<fill_blocks(n_), 256>>>(p_, n_, pattern);
  AEROLBM_CUDA_LAUNCH_CHECK();
  AEROLBM_CUDA_CHECK(cudaDeviceSynchronize());
}
void DeviceBf16::fill_random(std::uint64_t seed, float amplitude) {
  if (!n_) return;
  fill_random_kernel<<<fill_blocks(n_), 256>>>(p_, n_, seed, amplitude);
  AEROLBM_CUDA_LAUNCH_CHECK();
  AEROLBM_CUDA_CHECK(cudaDeviceSynchronize());
}

void device_synchronize() { AEROLBM_CUDA_CHECK(cudaDeviceSynchronize()); }

std::vector<double> time_attention_ms(const Problem& problem, const Options& options, int warmup, int repeats,
                                      int calls_per_repeat) {
  Options opt = options;
  const Plan plan = attention_plan(problem, opt);
  void* ws = nullptr;
  if (plan.workspace_bytes && !opt.workspace) {
    AEROLBM_CUDA_CHECK(cudaMalloc(&ws, plan.workspace_bytes));
    opt.workspace = ws;
    opt.workspace_size = plan.workspace_bytes;
  }
  const auto stream = static_cast<cudaStream_t>(opt.stream);
  cudaEvent_t t0 = nullptr, t1 = nullptr;
  std::vector<double> ms;
  try {
    AEROLBM_CUDA_CHECK(cudaEventCreate(&t0));
    AEROLBM_CUDA_CHECK(cudaEventCreate(&t1));
    for (int i = 0; i < warmup; ++i) attention_forward(problem, opt);
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int r = 0; r < repeats; ++r) {
      AEROLBM_CUDA_CHECK(cudaEventRecord(t0, stream));
      for (int c = 0; c < calls_per_repeat; ++c) attention_forward(problem, opt);
      AEROLBM_CUDA_CHECK(cudaEventRecord(t1, stream));
      AEROLBM_CUDA_CHECK(cudaEventSynchronize(t1));
      float e = 0.f;
      AEROLBM_CUDA_CHECK(cudaEventElapsedTime(&e, t0, t1));
      ms.push_back(double(e) / std::max(1, calls_per_repeat));
    }
  } catch (...) {
    if (t0) cudaEventDestroy(t0);
    if (t1) cudaEventDestroy(t1);
    if (ws) cudaFree(ws);
    throw;
  }
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  if (ws) AEROLBM_CUDA_CHECK(cudaFree(ws));
  return ms;
}

}  // namespace aerolbm::attention
