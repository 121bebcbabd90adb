#include <cuda_bf16.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "src/surrogate/cuda/attention_cuda.hpp"
#ifdef AEROLBM_HAVE_ATTENTION
#include "kernels/attention/attention.hpp"
#endif

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

#ifdef AEROLBM_HAVE_ATTENTION
__global__ void to_bf16(const float* __restrict__ in, __nv_bfloat16* __restrict__ out, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16_rn(in[i]);
}
__global__ void from_bf16(const __nv_bfloat16* __restrict__ in, float* __restrict__ out, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __bfloat162float(in[i]);
}

// Scratch for the bf16 copies of q, k, v and the output, kept between calls (inference runs the same shape for
// every layer and every pass).
struct Bf16Scratch {
  __nv_bfloat16* p = nullptr;
  std::size_t n = 0;
  __nv_bfloat16* get(std::size_t count) {
    if (count > n) {
      if (p) check(cudaFree(p), "cudaFree");
      check(cudaMalloc(&p, count * sizeof(__nv_bfloat16)), "cudaMalloc bf16 scratch");
      n = count;
    }
    return p;
  }
};

// The fused FlashAttention-style kernel (kernels/attention) for the head sizes it has: bf16 tensor cores with
// fp32 softmax and accumulation. AEROLBM_SURROGATE_ATTENTION=simple keeps the fp32 kernel above (comparisons).
bool fused_attention(const float* q, const float* k, const float* v, float* out, int B, int H, int N, int d,
                     float scale, cudaStream_t stream) {
  if (d != 32 && d != 64 && d != 128) return false;
  const char* env = std::getenv("AEROLBM_SURROGATE_ATTENTION");
  if (env && std::string(env) == "simple") return false;
  static Bf16Scratch scratch;
  const long long n = (long long)B * N * H * d;
  __nv_bfloat16* base = scratch.get(4 * std::size_t(n));
  __nv_bfloat16 *qb = base, *kb = base + n, *vb = base + 2 * n, *ob = base + 3 * n;
  const int threads = 256;
  const unsigned blocks = unsigned((n + threads - 1) / threads);
  to_bf16<<<blocks, threads, 0, stream>>>(q, qb, n);
  to_bf16<<<blocks, threads, 0, stream>>>(k, kb, n);
  to_bf16<<<blocks, threads, 0, stream>>>(v, vb, n);
  check(cudaGetLastError(), "bf16 conversion");
  namespace at = aerolbm::attention;
  at::Problem p;
  p.dims = at::Dims{B, H, N, N, d};
  p.scale = scale;
  const at::Strides s = at::bnhd_strides(H, N, d);
  p.q = {qb, s};
  p.k = {kb, s};
  p.v = {vb, s};
  p.o = ob;
  p.o_strides = s;
  at::Options o;
  o.stream = stream;
  at::attention_forward(p, o);
  from_bf16<<<blocks, threads, 0, stream>>>(ob, out, n);
  check(cudaGetLastError(), "fp32 conversion");
  return true;
}
#endif

}  // namespace

void surrogate_attention_cuda(const float* q, const float* k, const float* v, float* out, int B, int H, int N, int d,
                              float scale, cudaStream_t stream) {
  if (B < 1 || H < 1 || N < 1 || d < 1 || d > 128)
    throw std::invalid_argument("surrogate_attention_cuda: need B, H, N >= 1 and 1 <= d <= 128");
#ifdef AEROLBM_HAVE_ATTENTION
  if (fused_attention(q, k, v, out, B, H, N, d, scale, stream)) return;
#endif
  const dim3 grid((N + kQueries - 1) / kQueries, B * H);
  const size_t shared = 2 * kKeys * d * sizeof(float);
  if (d <= 32) attention_kernel<32><<<grid, kQueries, shared, stream>>>(q, k, v, out, H, N, d, scale);
  else if (d <= 64) attention_kernel<64><<<grid, kQueries, shared, stream>>>(q, k, v, out, H, N, d, scale);
  else attention_kernel<128><<<grid, kQueries, shared, stream>>>(q, k, v, out, H, N, d, scale);
  check(cudaGetLastError(), "kernel launch");
}

}  // namespace aerolbm::surrogate
