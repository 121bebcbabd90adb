#pragma once
// The CUDA forward pass: dense layers through cuBLAS (fp32 storage, TF32-free fp32 GEMMs), LayerNorm, GELU,
// bias and residual kernels of our own, attention through surrogate_attention_cuda (attention_cuda.hpp).
// Plain C++ interface so that the solver side (HDF5, spdlog) never meets nvcc; implemented in src/surrogate/cuda
// when the build has CUDA, else by cuda_inference_absent.cpp (which reports that there is none).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

struct CudaTiming {
  double first_seconds = 0;   // first forward pass (cuBLAS warm-up included), device events
  double median_seconds = 0;  // median of the following passes, device events: the figure to compare with a run
  int repeats = 0;
};

// One pass's results as they leave the device: normalised fields [batch·T, 3] and, when the model has the
// coefficient head, each sequence's pooled tokens [batch·P·D] (the head's MLP runs on the host: network_io.hpp).
struct CudaPass {
  std::vector<float> fields;
  std::vector<float> pooled;
};

// Weights live on the device for the object's lifetime; one stream of its own.
class CudaSurrogate {
 public:
  virtual ~CudaSurrogate() = default;
  // `batch` sequences of T points in one pass: normalised points [batch·T, 4] (sequence after sequence) and their
  // conditioning vectors g [batch·D] (network_io.hpp) → normalised outputs [batch·T, 3] and the pooled tokens.
  // Every dense layer runs once over all batch·T rows, the attention and the pooling per sequence (their batch
  // dimension). `repeats` ≥ 1 further passes for the timing (of the whole batch).
  virtual CudaPass forward_normalised(const std::vector<float>& points, const std::vector<float>& g, int batch,
                                      int repeats, CudaTiming* timing) = 0;
  virtual std::string device() const = 0;
};

// Throws std::runtime_error when the build has no CUDA or there is no device.
std::unique_ptr<CudaSurrogate> make_cuda_surrogate(const Model& m);

// Raw points [T, 4] and params → raw outputs [T, 3] and (version 2) raw C_L, C_D (normalisation, conditioning and
// the coefficient head's MLP on the host, as forward_cpu).
NetworkOutput forward_cuda(CudaSurrogate& s, const Model& m, const std::vector<float>& points,
                           const std::array<float, kParamFeatures>& params, int repeats, CudaTiming* timing);
// Several cases of the same sample grid (the same T) in one batched pass: outputs[i] for points[i], params[i].
std::vector<NetworkOutput> forward_cuda_batch(CudaSurrogate& s, const Model& m,
                                              const std::vector<std::vector<float>>& points,
                                              const std::vector<std::array<float, kParamFeatures>>& params,
                                              int repeats, CudaTiming* timing);

}  // namespace aerolbm::surrogate
