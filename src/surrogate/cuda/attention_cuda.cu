#include <stdexcept>
#include <string>

#include "src/surrogate/cuda/attention_cuda.hpp"

namespace aerolbm::surrogate {
namespace {

constexpr int kQueries = 64;  // threads per block, one query each
constexpr int kKeys = 32;     // keys per shared-memory tile

// DMAX: the register arrays' size (d rounded up to 32, 64 or 128); d itself is a run-time value.
template <int DMAX>
__global__ void attention_kernel(const float* __restrict__ q, const float* __restrict__ k,
                                 const float* __restrict__ v, float* __restrict__ out, int H, int N, int d,
                                 float scale) {
  extern __shared__ float smem[];
  float* ks = smem;              // [kKeys][d]
  float* vs = smem + kKeys * d;  // [kKeys][d]
  const int bh = blockIdx.y;
  const int b = bh / H, h = bh % H;
  const int row = blockIdx.x * kQueries + threadIdx.x;
  const long long ld = (long long)H * d;
  const float* qb = q + (long long)b * N * ld + h * d;
  const float* kb = k + (long long)b * N * ld + h * d;
  const float* vb = v + (long long)b * N * ld + h * d;
  const bool active = row < N;

  float qr[DMAX], acc[DMAX];
#pragma unroll
  for (int c = 0; c < DMAX; ++c) {
    qr[c] = (active && c < d) ? qb[row * ld + c] * scale : 0.0f;
    acc[c] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < N; j0 += kKeys) {
    const int nk = min(kKeys, N - j0);
    __syncthreads();
    for (int e = threadIdx.x; e < kKeys * d; e += blockDim.x) {
      const int j = e / d, c = e % d;
      ks[e] = j < nk ? kb[(long long)(j0 + j) * ld + c] : 0.0f;
      vs[e] = j < nk ? vb[(long long)(j0 + j) * ld + c] : 0.0f;
    }
    __syncthreads();
    if (!active) continue;
    for (int j = 0; j < nk; ++j) {
      float s = 0.0f;
#pragma unroll
      for (int c = 0; c < DMAX; ++c)
        if (c < d) s += qr[c] * ks[j * d + c];
      // Online softmax: rescale what has been summed so far when the running maximum grows.
      const float m_new = fmaxf(m, s);
      const float corr = __expf(m - m_new);
      const float p = __expf(s - m_new);
      l = l * corr + p;
#pragma unroll
      for (int c = 0; c < DMAX; ++c)
        if (c < d) acc[c] = acc[c] * corr + p * vs[j * d + c];
      m = m_new;
    }
  }
  if (!active) return;
  const float inv = 1.0f / l;
  float* ob = out + (long long)b * N * ld + h * d + row * ld;
#pragma unroll
  for (int c = 0; c < DMAX; ++c)
    if (c < d) ob[c] = acc[c] * inv;
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("surrogate attention: ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace

void surrogate_attention_cuda(const float* q, const float* k, const float* v, float* out, int B, int H, int N, int d,
                              float scale, cudaStream_t stream) {
  if (B < 1 || H < 1 || N < 1 || d < 1 || d > 128)
    throw std::invalid_argument("surrogate_attention_cuda: need B, H, N >= 1 and 1 <= d <= 128");
  const dim3 grid((N + kQueries - 1) / kQueries, B * H);
  const size_t shared = 2 * kKeys * d * sizeof(float);
  if (d <= 32) attention_kernel<32><<<grid, kQueries, shared, stream>>>(q, k, v, out, H, N, d, scale);
  else if (d <= 64) attention_kernel<64><<<grid, kQueries, shared, stream>>>(q, k, v, out, H, N, d, scale);
  else attention_kernel<128><<<grid, kQueries, shared, stream>>>(q, k, v, out, H, N, d, scale);
  check(cudaGetLastError(), "kernel launch");
}

}  // namespace aerolbm::surrogate
