#pragma once
// The __global__ wrappers around attention_tile.cuh, the tile shape chosen per head dimension, and their launch
// functions. Each head dimension is instantiated in its own .cu file (attention_fwd_d*.cu) so that ptxas runs
// on them in parallel; attention_forward.cu sees only the declarations in attention_launch.hpp.
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "kernels/attention/attention_launch.hpp"
#include "kernels/attention/attention_tile.cuh"
#include "kernels/cuda/cuda_check.cuh"

namespace aerolbm::attention::detail {

template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks) attention_fwd_kernel(const FwdParams p) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800  // cp.async, ldmatrix, bf16 mma: sm_80 and newer
  extern __shared__ __align__(128) std::uint16_t attention_smem[];
  attention_fwd_tile<T>(p, int(threadIdx.x), int(blockIdx.x), int(blockIdx.y), attention_smem);
#else
  __trap();  // kernel_info refuses such devices before any launch
#endif
}

template <int D>
__global__ void __launch_bounds__(256) attention_combine_kernel(const FwdParams p, std::int64_t quads) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < quads) attention_combine_quad<D>(p, i);
#else
  __trap();
#endif
}

template <int D, int V>
KernelInfo kernel_info() {
  using T = typename TileFor<D, V>::type;
  static std::mutex mu;
  static std::map<int, KernelInfo> cache;  // per device
  int dev = 0;
  AEROLBM_CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  int major = 0;
  AEROLBM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major < 8)
    throw std::runtime_error("attention: the fused kernel needs a GPU of compute capability 8.0 or newer (device " +
                             std::to_string(dev) + " has " + std::to_string(major) + ".x)");
  KernelInfo k;
  k.threads = T::kThreads;
  k.smem_bytes = T::kSmemBytes;
  k.block_rows = T::kBr;
  k.block_keys = T::kBc;
  k.warps = T::kWarps;
  AEROLBM_CUDA_CHECK(cudaFuncSetAttribute(attention_fwd_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          T::kSmemBytes));
  AEROLBM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&k.blocks_per_sm, attention_fwd_kernel<T>,
                                                                   T::kThreads, T::kSmemBytes));
  AEROLBM_CUDA_CHECK(cudaDeviceGetAttribute(&k.sms, cudaDevAttrMultiProcessorCount, dev));
  cache[dev] = k;
  return k;
}

template <int D, int V>
void launch_fwd(const FwdParams& p, cudaStream_t stream) {
  using T = typename TileFor<D, V>::type;
  kernel_info<D, V>();  // sets the shared-memory attribute on this device
  const dim3 grid(unsigned(p.q_tiles) * unsigned(p.bh_count), unsigned(p.splits));
  attention_fwd_kernel<T><<<grid, T::kThreads, T::kSmemBytes, stream>>>(p);
  AEROLBM_CUDA_LAUNCH_CHECK();
  if (p.splits > 1) {
    const std::int64_t quads = std::int64_t(p.bh_count) * p.nq * (D / 4);
    const unsigned blocks = unsigned((quads + 255) / 256);
    attention_combine_kernel<D><<<blocks, 256, 0, stream>>>(p, quads);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }
}

}  // namespace aerolbm::attention::detail

#define AEROLBM_ATTENTION_INSTANTIATE(D, V)     \
  template KernelInfo kernel_info<D, V>(); \
  template void launch_fwd<D, V>(const FwdParams&, cudaStream_t);
