// Device discovery and the copy-bandwidth measurement the benchmark compares against.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.cuh"

namespace aerolbm {

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the "no device" error so later calls start clean
    return 0;
  }
  return n;
}

void cuda_use_device(int ordinal) { AEROLBM_CUDA_CHECK(cudaSetDevice(ordinal)); }

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

bool cuda_device_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
  free_bytes = total_bytes = 0;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    return false;
  }
  std::size_t f = 0, t = 0;
  if (cudaMemGetInfo(&f, &t) != cudaSuccess) {  // on the current device, the one the backend will use
    cudaGetLastError();
    return false;
  }
  free_bytes = f;
  total_bytes = t;
  return true;
}

namespace {
__global__ void fill_kernel(std::size_t n, float* p) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f + 1e-7f * float(i % 1000);
}
}  // namespace

double cuda_copy_bandwidth_gbs(std::size_t bytes, int repeats) {
  const std::size_t n = bytes / sizeof(float);
  cuda::DeviceBuffer<float> a(n), b(n);
  fill_kernel<<<unsigned((n + 255) / 256), 256>>>(n, a.data());  // non-zero data, as the solver's
  AEROLBM_CUDA_LAUNCH_CHECK();
  cudaEvent_t t0, t1;
  AEROLBM_CUDA_CHECK(cudaEventCreate(&t0));
  AEROLBM_CUDA_CHECK(cudaEventCreate(&t1));
  AEROLBM_CUDA_CHECK(cudaMemcpy(b.data(), a.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));  // warm-up
  std::vector<double> gbs;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    AEROLBM_CUDA_CHECK(cudaEventRecord(t0));
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
    AEROLBM_CUDA_CHECK(cudaEventRecord(t1));
    AEROLBM_CUDA_CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    AEROLBM_CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    gbs.push_back(2.0 * double(n * sizeof(float)) / (ms * 1e-3) * 1e-9);  // read + write
  }
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  std::sort(gbs.begin(), gbs.end());
  return gbs[gbs.size() / 2];
}

}  // namespace aerolbm
