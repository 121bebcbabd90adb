#pragma once
// Frames on their way to the host: two slots of device and pinned host buffers, handed out in turn; a transfer
// (FieldsTransfer) holds its slot until destroyed, so at most two frames are in flight.
#include <condition_variable>
#include <mutex>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.cuh"

namespace aerolbm::cuda {

struct TransferSlot {
  cuda::DeviceBuffer<float> rho_d, u_d;
  float* rho_h = nullptr;
  float* u_h = nullptr;
  cudaEvent_t computed = nullptr, copied = nullptr;
  bool busy = false;
};

class SlotPool {
 public:
  std::mutex m;
  std::condition_variable cv;
  TransferSlot slot[2];
  int next = 0;
  void release(int s) {
    {
      std::lock_guard<std::mutex> lock(m);
      slot[s].busy = false;
    }
    cv.notify_all();
  }
};

class DeviceFields final : public FieldsTransfer {
 public:
  DeviceFields(SlotPool* pool, int s) : pool_(pool), s_(s) {}
  ~DeviceFields() override { pool_->release(s_); }
  void wait() override { AEROLBM_CUDA_CHECK(cudaEventSynchronize(pool_->slot[s_].copied)); }
  const float* rho() const override { return pool_->slot[s_].rho_h; }
  const float* u() const override { return pool_->slot[s_].u_h; }

 private:
  SlotPool* pool_;
  int s_;
};

}  // namespace aerolbm::cuda
