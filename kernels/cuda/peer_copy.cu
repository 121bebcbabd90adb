// CUDA IPC peer copies for the MPI halo exchange (kernels/peer_copy.hpp).
#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/peer_copy.hpp"

namespace aerolbm::peer {
namespace {

// One stream for the copies, made on the device in use at the first copy (the rank's device, chosen before).
cudaStream_t copy_stream() {
  static cudaStream_t s = [] {
    cudaStream_t t = nullptr;
    AEROLBM_CUDA_CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
    return t;
  }();
  return s;
}

}  // namespace

int current_device() {
  int d = -1;
  AEROLBM_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

bool can_access(int other) {
  const int mine = current_device();
  if (other == mine) return true;
  int ok = 0;
  AEROLBM_CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, mine, other));
  return ok != 0;
}

IpcHandle export_buffer(void* device_ptr) {
  static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(IpcHandle), "CUDA IPC handle size");
  cudaIpcMemHandle_t h;
  AEROLBM_CUDA_CHECK(cudaIpcGetMemHandle(&h, device_ptr));
  IpcHandle out;
  std::memcpy(out.data(), &h, sizeof(h));
  return out;
}

void* open_buffer(const IpcHandle& handle) {
  cudaIpcMemHandle_t h;
  std::memcpy(&h, handle.data(), sizeof(h));
  void* p = nullptr;
  const cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it so later calls do not report it
    throw std::runtime_error(std::string("cudaIpcOpenMemHandle: ") + cudaGetErrorString(e));
  }
  return p;
}

void close_buffer(void* mapped) {
  if (mapped) cudaIpcCloseMemHandle(mapped);
}

void copy(void* mapped_dst, const void* local_src, std::size_t bytes) {
  if (bytes == 0) return;
  AEROLBM_CUDA_CHECK(cudaMemcpyAsync(mapped_dst, local_src, bytes, cudaMemcpyDeviceToDevice, copy_stream()));
  AEROLBM_CUDA_CHECK(cudaStreamSynchronize(copy_stream()));
}

}  // namespace aerolbm::peer
