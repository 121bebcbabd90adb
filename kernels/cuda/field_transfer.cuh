#pragma once
// How output frames leave the GPU (Backend::start_fields_transfer): the macroscopic kernel (and, for finished
// frames, the frame kernel of kernels/cuda/frame_fields.cu) writes one block of device memory on the solver's
// stream; a copy stream of its own moves the block into a pinned host slot while the next steps run.
//   * Host slots: up to FieldsTransferOptions::max_in_flight (≤ kMaxSlots), each one pinned block, allocated when
//     first needed, so a run whose writers keep up holds two. A transfer holds its slot until it is destroyed;
//     start_fields_transfer blocks only when max_in_flight transfers are held.
//   * Device blocks: two, used in turn. The solver's stream waits on the GPU (not the host) until a block's previous
//     copy has finished before it writes the block again; frame mode adds one input block (density, velocity).
// Density and velocity, or the finished fields, sit in a block as TransferLayout says, on the device and on the
// host alike, so one copy moves a whole transfer. Included by cuda_backend.cuh only.
#include <cuda_runtime.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/frame_fields.cuh"

namespace aerolbm::cuda {

// Offsets of the arrays in a transfer's block, in floats (−1: not carried).
struct TransferLayout {
  std::int64_t rho = -1, u = -1;  // plain transfers
  std::int64_t velocity = -1, pressure = -1, density = -1, vorticity = -1, q_criterion = -1;  // finished frames
  int vorticity_components = 1;
  std::size_t floats = 1;  // the block's size (at least 1)
  std::size_t copied = 0;  // the values a transfer moves (0 when it carries no float field: a mask-only frame)

  static TransferLayout make(const FieldsTransferOptions& o, std::int64_t cells, bool three_d) {
    TransferLayout l;
    std::int64_t at = 0;
    auto take = [&](std::int64_t& field, std::int64_t count) {
      field = at;
      at += count;
    };
    if (!o.frame_fields) {
      take(l.rho, cells);
      take(l.u, 3 * cells);
    } else {
      const FrameFieldsSpec& s = o.spec;
      l.vorticity_components = three_d ? 3 : 1;
      if (s.velocity) take(l.velocity, 3 * cells);
      if (s.pressure) take(l.pressure, cells);
      if (s.density) take(l.density, cells);
      if (s.vorticity) take(l.vorticity, l.vorticity_components * cells);
      if (s.q_criterion) take(l.q_criterion, cells);
    }
    l.floats = std::size_t(std::max<std::int64_t>(1, at));
    l.copied = std::size_t(at);
    return l;
  }
  float* at(float* block, std::int64_t offset) const { return offset < 0 ? nullptr : block + offset; }
};

// One transfer's landing place on the host.
struct TransferSlot {
  float* host = nullptr;  // pinned, `floats` values
  std::size_t floats = 0;
  cudaEvent_t copied = nullptr;  // recorded on the copy stream after the copy into `host`
  bool busy = false;
  const float* rho = nullptr;  // plain transfers: into host
  const float* u = nullptr;
  FrameArrays frame;  // finished frames: into host
  bool has_frame = false;
};

// A device block and the events of its last use.
struct DeviceStage {
  DeviceBuffer<float> block;
  cudaEvent_t computed = nullptr, copied = nullptr;
  bool used = false;
};

class SlotPool;

class DeviceFields final : public FieldsTransfer {
 public:
  DeviceFields(SlotPool* pool, TransferSlot* s) : pool_(pool), s_(s) {}
  ~DeviceFields() override;
  void wait() override { AEROLBM_CUDA_CHECK(cudaEventSynchronize(s_->copied)); }
  const float* rho() const override { return s_->rho; }
  const float* u() const override { return s_->u; }
  const FrameArrays* frame() const override { return s_->has_frame ? &s_->frame : nullptr; }

 private:
  SlotPool* pool_;
  TransferSlot* s_;
};

class SlotPool {
 public:
  static constexpr int kMaxSlots = 16;

  ~SlotPool() {
    if (copy_) cudaStreamSynchronize(copy_);
    for (auto& sl : slot_) free_slot(sl);
    for (auto& st : stage_) {
      if (st.computed) cudaEventDestroy(st.computed);
      if (st.copied) cudaEventDestroy(st.copied);
    }
    if (copy_) cudaStreamDestroy(copy_);
  }

  // Backend::configure_fields_transfer. Slots of another size are replaced once they are free.
  bool configure(const FieldsTransferOptions& o, const int n[3]) {
    std::lock_guard<std::mutex> lock(m_);
    options_ = o;
    options_.max_in_flight = std::clamp(o.max_in_flight, 1, kMaxSlots);
    layout_ = TransferLayout::make(options_, std::int64_t(n[0]) * n[1] * n[2], n[2] > 1);
    configured_ = true;
    return o.frame_fields;
  }

  // Backend::start_fields_transfer: `macroscopic(rho, u)` enqueues the macroscopic kernel on `stream` (the solver's
  // stream, in order with the steps) writing into the given device arrays. `flags`: the device's cell flags.
  std::unique_ptr<FieldsTransfer> start(cudaStream_t stream, const std::uint8_t* flags, const int n[3],
                                        const std::function<void(float*, float*)>& macroscopic) {
    if (!copy_) AEROLBM_CUDA_CHECK(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    const std::int64_t cells = std::int64_t(n[0]) * n[1] * n[2];
    if (!configured_) {  // never configured: density and velocity, two in flight
      std::lock_guard<std::mutex> lock(m_);
      layout_ = TransferLayout::make(options_, cells, n[2] > 1);
    }
    configured_ = true;
    TransferSlot* sl = acquire();
    auto transfer = std::make_unique<DeviceFields>(this, sl);  // releases the slot if anything below throws
    const TransferLayout lay = layout_;
    DeviceStage& st = stage_[next_stage_];
    next_stage_ ^= 1;
    if (!st.computed) {
      AEROLBM_CUDA_CHECK(cudaEventCreateWithFlags(&st.computed, cudaEventDisableTiming));
      AEROLBM_CUDA_CHECK(cudaEventCreateWithFlags(&st.copied, cudaEventDisableTiming));
    }
    if (st.block.size() != lay.floats) {
      AEROLBM_CUDA_CHECK(cudaStreamSynchronize(copy_));  // no copy may still read the old block
      st.block.resize(lay.floats);
      st.used = false;
    }
    // In stream order: the block's previous copy is done before the kernels overwrite it, and the kernels read the
    // current state before the next step overwrites it.
    if (st.used) AEROLBM_CUDA_CHECK(cudaStreamWaitEvent(stream, st.copied, 0));
    float* out = st.block.data();
    if (!options_.frame_fields) {
      macroscopic(lay.at(out, lay.rho), lay.at(out, lay.u));
    } else {
      if (input_.size() != std::size_t(4 * cells)) input_.resize(std::size_t(4 * cells));
      const FrameFieldsSpec& s = options_.spec;
      macroscopic(input_.data(), input_.data() + cells);
      launch_frame_fields(flags, n[0], n[1], n[2], input_.data(), input_.data() + cells, s.u_ref, s.dx,
                          lay.at(out, lay.velocity), lay.at(out, lay.pressure), lay.at(out, lay.density),
                          lay.at(out, lay.vorticity), lay.at(out, lay.q_criterion), stream);
    }
    AEROLBM_CUDA_CHECK(cudaEventRecord(st.computed, stream));
    AEROLBM_CUDA_CHECK(cudaStreamWaitEvent(copy_, st.computed, 0));
    if (lay.copied > 0)
      AEROLBM_CUDA_CHECK(cudaMemcpyAsync(sl->host, out, lay.copied * sizeof(float), cudaMemcpyDeviceToHost, copy_));
    AEROLBM_CUDA_CHECK(cudaEventRecord(sl->copied, copy_));
    AEROLBM_CUDA_CHECK(cudaEventRecord(st.copied, copy_));
    st.used = true;
    sl->rho = lay.at(sl->host, lay.rho);
    sl->u = lay.at(sl->host, lay.u);
    sl->has_frame = options_.frame_fields;
    sl->frame = FrameArrays{lay.at(sl->host, lay.velocity),  lay.at(sl->host, lay.pressure),
                            lay.at(sl->host, lay.density),   lay.at(sl->host, lay.vorticity),
                            lay.vorticity_components,        lay.at(sl->host, lay.q_criterion)};
    return transfer;
  }

  void release(TransferSlot* s) {
    {
      std::lock_guard<std::mutex> lock(m_);
      s->busy = false;
    }
    cv_.notify_all();
  }

 private:
  // A free slot of the current size, or a new one while fewer than max_in_flight are held; else waits.
  TransferSlot* acquire() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      int held = 0;
      for (const auto& sl : slot_) held += sl.busy;
      if (held < options_.max_in_flight) {
        TransferSlot* spare = nullptr;  // allocated but of another size
        TransferSlot* empty = nullptr;  // never allocated
        for (auto& sl : slot_) {
          if (sl.busy) continue;
          if (sl.host && sl.floats == layout_.floats) {
            sl.busy = true;
            return &sl;
          }
          if (sl.host && !spare) spare = &sl;
          if (!sl.host && !empty) empty = &sl;
        }
        TransferSlot* s = spare ? spare : empty;
        if (s) {
          free_slot(*s);
          AEROLBM_CUDA_CHECK(cudaMallocHost(&s->host, layout_.floats * sizeof(float)));
          s->floats = layout_.floats;
          AEROLBM_CUDA_CHECK(cudaEventCreateWithFlags(&s->copied, cudaEventDisableTiming));
          s->busy = true;
          return s;
        }
      }
      cv_.wait(lock);
    }
  }

  static void free_slot(TransferSlot& s) {
    if (s.host) cudaFreeHost(s.host);
    if (s.copied) cudaEventDestroy(s.copied);
    s.host = nullptr;
    s.copied = nullptr;
    s.floats = 0;
  }

  std::mutex m_;
  std::condition_variable cv_;
  TransferSlot slot_[kMaxSlots];
  FieldsTransferOptions options_;
  TransferLayout layout_;
  bool configured_ = false;
  DeviceBuffer<float> input_;  // frame mode: density (cells) then velocity (3 × cells), the frame kernel's input
  DeviceStage stage_[2];
  int next_stage_ = 0;
  cudaStream_t copy_ = nullptr;
};

inline DeviceFields::~DeviceFields() {
  // The copy into the slot must be over before the slot can take another transfer (a no-op after wait()).
  cudaEventSynchronize(s_->copied);
  pool_->release(s_);
}

}  // namespace aerolbm::cuda
