#pragma once
// Every CUDA call is checked; a failure becomes an exception naming the call and where it was made.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#define AEROLBM_CUDA_CHECK(call)                                                                          \
  do {                                                                                                    \
    const cudaError_t aerolbm_err_ = (call);                                                              \
    if (aerolbm_err_ != cudaSuccess) {                                                                    \
      throw std::runtime_error(std::string("CUDA error in ") + #call + " at " + __FILE__ + ":" +           \
                               std::to_string(__LINE__) + ": " + cudaGetErrorString(aerolbm_err_));       \
    }                                                                                                     \
  } while (0)

// After a kernel launch: launch-configuration errors now, execution errors at the next synchronisation.
#define AEROLBM_CUDA_LAUNCH_CHECK() AEROLBM_CUDA_CHECK(cudaGetLastError())

namespace aerolbm::cuda {

// Blocks of `block` threads that cover n items.
inline unsigned blocks_for(std::int64_t n, int block) { return unsigned((n + block - 1) / block); }

// Owning device buffer (no copies, movable).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) { resize(n); }
  ~DeviceBuffer() { if (p_) cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; o.n_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  void resize(std::size_t n) {
    if (p_) AEROLBM_CUDA_CHECK(cudaFree(p_));
    p_ = nullptr;
    n_ = n;
    if (n) AEROLBM_CUDA_CHECK(cudaMalloc(&p_, n * sizeof(T)));
  }
  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }
  // Complete when it returns: a cudaMemcpy from pageable memory may return before its DMA has reached the device
  // (it runs on the legacy default stream), and the backends' streams do not wait for that stream, so a kernel
  // launched next could read the old contents. Found by a test that wrote a state and stepped it at once.
  void upload(const T* host, std::size_t n) {
    if (!n) return;
    AEROLBM_CUDA_CHECK(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice));
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  }
  void download(T* host, std::size_t n) const {
    if (n) AEROLBM_CUDA_CHECK(cudaMemcpy(host, p_, n * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace aerolbm::cuda
