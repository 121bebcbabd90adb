#include "src/surrogate/cpu_inference.hpp"

#include <algorithm>
#include <cmath>

#include "src/surrogate/network_io.hpp"

namespace aerolbm::surrogate {

void linear_cpu(const Linear& l, const float* X, float* Y, std::int64_t T) {
  const int in = l.in, out = l.out;
  const float* W = l.W.data();
  // A tile of 4 tokens shares each weight row while it is in L1; the inner loop is a vectorised dot product.
#pragma omp parallel for schedule(static)
  for (std::int64_t t0 = 0; t0 < T; t0 += 4) {
    const std::int64_t tn = std::min<std::int64_t>(4, T - t0);
    for (int o = 0; o < out; ++o) {
      const float* w = W + std::size_t(o) * in;
      for (std::int64_t r = 0; r < tn; ++r) {
        const float* x = X + std::size_t(t0 + r) * in;
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (int i = 0; i < in; ++i) s += x[i] * w[i];
        Y[std::size_t(t0 + r) * out + o] = s + l.b[o];
      }
    }
  }
}

void layer_norm_cpu(const LayerNormWeights& n, const float* X, float* Y, std::int64_t T, int D) {
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < T; ++t) {
    const float* x = X + std::size_t(t) * D;
    float* y = Y + std::size_t(t) * D;
    double mean = 0, var = 0;
    for (int i = 0; i < D; ++i) mean += x[i];
    mean /= D;
    for (int i = 0; i < D; ++i) var += (x[i] - mean) * (x[i] - mean);
    var /= D;  // biased, as torch.nn.LayerNorm
    const float inv = float(1.0 / std::sqrt(var + 1e-5));
    for (int i = 0; i < D; ++i) y[i] = float(x[i] - mean) * inv * n.gamma[i] + n.beta[i];
  }
}

void attention_cpu(const float* q, const float* k, const float* v, float* out, std::int64_t T, int H, int d,
                   float scale) {
  const int D = H * d;
  std::vector<float> kh(std::size_t(T) * d), vh(std::size_t(T) * d);
  for (int h = 0; h < H; ++h) {
    // This head's keys and values made contiguous, so each score is a dot product over d neighbouring floats.
#pragma omp parallel for schedule(static)
    for (std::int64_t j = 0; j < T; ++j)
      for (int c = 0; c < d; ++c) {
        kh[std::size_t(j) * d + c] = k[std::size_t(j) * D + h * d + c];
        vh[std::size_t(j) * d + c] = v[std::size_t(j) * D + h * d + c];
      }
#pragma omp parallel
    {
      std::vector<float> s(T), acc(d);
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < T; ++i) {
        const float* qi = q + std::size_t(i) * D + h * d;
        float mx = -INFINITY;
        for (std::int64_t j = 0; j < T; ++j) {
          const float* kj = kh.data() + std::size_t(j) * d;
          float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
          for (int c = 0; c < d; ++c) dot += qi[c] * kj[c];
          s[j] = dot * scale;
          mx = std::max(mx, s[j]);
        }
        float sum = 0.0f;
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::int64_t j = 0; j < T; ++j) {
          const float p = std::exp(s[j] - mx);
          sum += p;
          const float* vj = vh.data() + std::size_t(j) * d;
#pragma omp simd
          for (int c = 0; c < d; ++c) acc[c] += p * vj[c];
        }
        float* oi = out + std::size_t(i) * D + h * d;
        const float inv = 1.0f / sum;
        for (int c = 0; c < d; ++c) oi[c] = acc[c] * inv;
      }
    }
  }
}

std::vector<float> attention_pool_cpu(const Linear& score, const float* A, std::int64_t T, int D) {
  const int P = score.out;
  std::vector<float> S(std::size_t(T) * P);
  linear_cpu(score, A, S.data(), T);
  std::vector<float> pooled(std::size_t(P) * D);
  std::vector<double> acc(D);
  for (int p = 0; p < P; ++p) {
    float mx = -INFINITY;
    for (std::int64_t t = 0; t < T; ++t) mx = std::max(mx, S[std::size_t(t) * P + p]);
    double sum = 0;
    std::fill(acc.begin(), acc.end(), 0.0);
    for (std::int64_t t = 0; t < T; ++t) {
      const double w = std::exp(double(S[std::size_t(t) * P + p]) - mx);
      sum += w;
      const float* a = A + std::size_t(t) * D;
      for (int c = 0; c < D; ++c) acc[c] += w * a[c];
    }
    for (int c = 0; c < D; ++c) pooled[std::size_t(p) * D + c] = float(acc[c] / sum);
  }
  return pooled;
}

NetworkOutput forward_cpu(const Model& m, const std::vector<float>& points,
                          const std::array<float, kParamFeatures>& params) {
  const std::int64_t T = std::int64_t(points.size() / kPointFeatures);
  const int D = m.d_model;
  const std::vector<float> p = normalise_points(m, points);
  const std::vector<float> g = condition_vector(m, normalise_params(m, params));

  std::vector<float> e(std::size_t(T) * m.embed0.out), h(std::size_t(T) * D);
  linear_cpu(m.embed0, p.data(), e.data(), T);
  for (auto& x : e) x = gelu(x);
  linear_cpu(m.embed2, e.data(), h.data(), T);
  e.clear();
  e.shrink_to_fit();
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < T; ++t)
    for (int c = 0; c < D; ++c) h[std::size_t(t) * D + c] += g[c];

  const std::size_t TD = std::size_t(T) * D;
  std::vector<float> a(TD), q(TD), k(TD), v(TD), att(TD), tmp(TD), hidden(TD * m.mlp_ratio);
  const float scale = float(1.0 / std::sqrt(double(m.head_dim())));
  for (const Block& b : m.blocks) {
    layer_norm_cpu(b.ln1, h.data(), a.data(), T, D);
    linear_cpu(b.q, a.data(), q.data(), T);
    linear_cpu(b.k, a.data(), k.data(), T);
    linear_cpu(b.v, a.data(), v.data(), T);
    attention_cpu(q.data(), k.data(), v.data(), att.data(), T, m.heads, m.head_dim(), scale);
    linear_cpu(b.o, att.data(), tmp.data(), T);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(TD); ++i) h[i] += tmp[i];
    layer_norm_cpu(b.ln2, h.data(), a.data(), T, D);
    linear_cpu(b.mlp0, a.data(), hidden.data(), T);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(hidden.size()); ++i) hidden[i] = gelu(hidden[i]);
    linear_cpu(b.mlp2, hidden.data(), tmp.data(), T);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(TD); ++i) h[i] += tmp[i];
  }
  layer_norm_cpu(m.ln_f, h.data(), a.data(), T, D);
  NetworkOutput out;
  out.fields.resize(std::size_t(T) * kOutputs);
  linear_cpu(m.head, a.data(), out.fields.data(), T);
  denormalise_outputs(m, out.fields);
  if (m.coef) out.coefficients = coefficient_head(m, attention_pool_cpu(m.coef->score, a.data(), T, D).data(), g);
  return out;
}

}  // namespace aerolbm::surrogate
