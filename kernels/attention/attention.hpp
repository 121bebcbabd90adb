#pragma once
// Fused softmax attention on NVIDIA GPUs (sm_80+; tuned for sm_90): O = softmax(scale * Q K^T) V per batch and
// head, bf16 inputs and output, fp32 softmax and accumulation, no Nq x Nk matrix in memory. Host API only; plain
// C++ (no CUDA headers), available when aerolbm is built with CUDA (AEROLBM_HAVE_CUDA).
//
// Tensors are device pointers to bf16 values (raw 16-bit patterns) in the layouts of attention_layout.hpp:
// [B, H, N, d] (bhnd_strides) or any other batch/head/row strides with contiguous features, e.g. [B, N, H*d]
// (bnhd_strides). Requirements, checked (std::invalid_argument): d in {32, 64, 128}; nk >= 1; every pointer
// 16-byte aligned; every stride a multiple of 8 elements; scale finite and > 0; O not overlapping Q, K, V.
// Errors of the CUDA runtime become std::runtime_error naming the call.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/attention/attention_layout.hpp"

namespace aerolbm::attention {

struct Tensor {
  const void* data = nullptr;  // device memory, bf16
  Strides strides;
};

struct Problem {
  Dims dims;
  float scale = 0.f;  // usually 1/sqrt(head_dim)
  Tensor q, k, v;
  void* o = nullptr;  // device memory, bf16, nq rows
  Strides o_strides;
};

struct Options {
  // Split-KV (flash-decoding): 0 = automatic (splits only when B*H*ceil(Nq/128) CTAs cannot fill the GPU),
  // 1 = never, n > 1 = exactly n key ranges where there are at least n key tiles (else as many as there are).
  int splits = 0;
  void* stream = nullptr;  // cudaStream_t; nullptr = the default stream
  // Device scratch for split-KV partial results (workspace_bytes() of the plan). nullptr: allocated and freed
  // on the stream (cudaMallocAsync) when needed.
  void* workspace = nullptr;
  std::size_t workspace_size = 0;
  // Tile shape (kTileVariants of attention_tile.cuh): 0 = the default, 1 and 2 = alternatives for the benchmark.
  int variant = 0;
};

inline constexpr int kAttentionVariants = 3;

struct Plan {
  int splits = 1;           // key ranges actually used
  int q_tiles = 0;          // query tiles per batch*head
  int ctas = 0;             // CTAs of the main kernel
  int block_rows = 0;       // query rows per CTA
  int block_keys = 0;       // keys per K/V tile
  int warps = 0;            // warps per CTA
  int blocks_per_sm = 0;    // resident CTAs per SM (occupancy)
  std::size_t workspace_bytes = 0;
};

// What attention_forward will launch for this problem on the current device (validates the problem too).
Plan attention_plan(const Problem& problem, const Options& options = {});

// Enqueues the attention on options.stream (asynchronous, like a kernel launch).
void attention_forward(const Problem& problem, const Options& options = {});

// ---- small device helpers for tests and the benchmark (so that callers need no CUDA headers) -------------

// Owning device buffer of bf16 values.
class DeviceBf16 {
 public:
  explicit DeviceBf16(std::size_t count);
  ~DeviceBf16();
  DeviceBf16(const DeviceBf16&) = delete;
  DeviceBf16& operator=(const DeviceBf16&) = delete;
  std::uint16_t* data() { return p_; }
  const std::uint16_t* data() const { return p_; }
  std::size_t size() const { return n_; }
  void upload(const std::uint16_t* host, std::size_t count, std::size_t offset = 0);
  void download(std::uint16_t* host, std::size_t count, std::size_t offset = 0) const;
  void fill(std::uint16_t pattern);  // e.g. 0x7FC0 (NaN) to poison an output
  // Uniform values in [-amplitude, amplitude] from a counter-based hash of (seed, index), on the device.
  void fill_random(std::uint64_t seed, float amplitude);

 private:
  std::uint16_t* p_ = nullptr;
  std::size_t n_ = 0;
};

void device_synchronize();

// Times attention_forward with CUDA events: `warmup` untimed calls, then `repeats` timed batches, each of
// `calls_per_repeat` back-to-back calls (so launch gaps do not count for short kernels). Returns the time of one
// call per batch in milliseconds, in measurement order. A workspace is allocated once beforehand when needed.
std::vector<double> time_attention_ms(const Problem& problem, const Options& options, int warmup, int repeats,
                                      int calls_per_repeat);

}  // namespace aerolbm::attention
