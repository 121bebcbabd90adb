// The CPU reference attention (kernels/cpu/attention_reference.cpp) against softmax(Q K^T * scale) V written out
// naively as matrices in double, for small self- and cross-attention shapes in both layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/cpu/attention_reference.hpp"

namespace aerolbm::attention {
namespace {

// [B, H, N, d] contiguous; returns O in the same layout.
std::vector<double> naive(const Dims& s, double scale, const std::vector<double>& q, const std::vector<double>& k,
                          const std::vector<double>& v) {
  std::vector<double> o(std::size_t(s.batch) * s.heads * s.nq * s.head_dim);
  for (int bh = 0; bh < s.batch * s.heads; ++bh) {
    const double* Q = q.data() + std::size_t(bh) * s.nq * s.head_dim;
    const double* K = k.data() + std::size_t(bh) * s.nk * s.head_dim;
    const double* V = v.data() + std::size_t(bh) * s.nk * s.head_dim;
    std::vector<double> S(std::size_t(s.nq) * s.nk);
    for (int i = 0; i < s.nq; ++i)
      for (int j = 0; j < s.nk; ++j) {
        double x = 0;
        for (int c = 0; c < s.head_dim; ++c) x += Q[i * s.head_dim + c] * K[j * s.head_dim + c];
        S[std::size_t(i) * s.nk + j] = std::exp(scale * x);  // small logits: no max subtraction needed here
      }
    for (int i = 0; i < s.nq; ++i) {
      double z = 0;
      for (int j = 0; j < s.nk; ++j) z += S[std::size_t(i) * s.nk + j];
      for (int c = 0; c < s.head_dim; ++c) {
        double x = 0;
        for (int j = 0; j < s.nk; ++j) x += S[std::size_t(i) * s.nk + j] / z * V[j * s.head_dim + c];
        o[(std::size_t(bh) * s.nq + i) * s.head_dim + c] = x;
      }
    }
  }
  return o;
}

std::vector<double> random_vec(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& e : x) e = u(rng);
  return x;
}

// [B, H, N, d] -> [B, N, H*d]
std::vector<double> to_bnhd(const std::vector<double>& x, int B, int H, int N, int d) {
  std::vector<double> y(x.size());
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int n = 0; n < N; ++n)
        for (int i = 0; i < d; ++i)
          y[((std::size_t(b) * N + n) * H + h) * d + i] = x[((std::size_t(b) * H + h) * N + n) * d + i];
  return y;
}

TEST(AttentionReference, MatchesNaiveSoftmaxSelfAndCross) {
  std::mt19937 rng(7);
  for (const Dims s : {Dims{2, 3, 5, 5, 4}, Dims{1, 2, 7, 3, 8}, Dims{2, 1, 1, 9, 16}, Dims{1, 1, 6, 1, 2}}) {
    const double scale = 1.0 / std::sqrt(double(s.head_dim));
    const auto q = random_vec(std::size_t(s.batch) * s.heads * s.nq * s.head_dim, rng);
    const auto k = random_vec(std::size_t(s.batch) * s.heads * s.nk * s.head_dim, rng);
    const auto v = random_vec(k.size(), rng);
    const auto want = naive(s, scale, q, k, v);

    std::vector<double> o(q.size(), NAN);
    const auto qs = bhnd_strides(s.heads, s.nq, s.head_dim), ks = bhnd_strides(s.heads, s.nk, s.head_dim);
    attention_reference(s, scale, q.data(), qs, k.data(), ks, v.data(), ks, o.data(), qs);
    for (std::size_t i = 0; i < o.size(); ++i) ASSERT_NEAR(o[i], want[i], 1e-13) << "bhnd element " << i;

    // The same through the [B, N, H*d] layout of a Linear layer's output.
    const auto qb = to_bnhd(q, s.batch, s.heads, s.nq, s.head_dim), kb = to_bnhd(k, s.batch, s.heads, s.nk, s.head_dim),
               vb = to_bnhd(v, s.batch, s.heads, s.nk, s.head_dim);
    std::vector<double> ob(q.size(), NAN);
    const auto qbs = bnhd_strides(s.heads, s.nq, s.head_dim), kbs = bnhd_strides(s.heads, s.nk, s.head_dim);
    attention_reference(s, scale, qb.data(), qbs, kb.data(), kbs, vb.data(), kbs, ob.data(), qbs);
    const auto want_b = to_bnhd(want, s.batch, s.heads, s.nq, s.head_dim);
    for (std::size_t i = 0; i < ob.size(); ++i) ASSERT_NEAR(ob[i], want_b[i], 1e-13) << "bnhd element " << i;
  }
}

TEST(AttentionReference, FloatVersionAndLargeLogitsStayFinite) {
  // Logits of +-1000 overflow a naive exp; the reference subtracts the row maximum. One key dominates.
  const Dims s{1, 1, 2, 3, 2};
  const std::vector<float> q = {1000, 0, -1000, 0}, k = {1, 0, 0.5, 0, -1, 0}, v = {1, 2, 3, 4, 5, 6};
  std::vector<float> o(4, NAN);
  const auto qs = bhnd_strides(1, 2, 2), ks = bhnd_strides(1, 3, 2);
  attention_reference(s, 1.0, q.data(), qs, k.data(), ks, v.data(), ks, o.data(), qs);
  EXPECT_FLOAT_EQ(o[0], 1.f);  // row 0 attends to key 0
  EXPECT_FLOAT_EQ(o[1], 2.f);
  EXPECT_FLOAT_EQ(o[2], 5.f);  // row 1 attends to key 2
  EXPECT_FLOAT_EQ(o[3], 6.f);
}

TEST(AttentionReference, RejectsEmptyKeys) {
  const Dims s{1, 1, 2, 0, 4};
  std::vector<float> x(8);
  const auto st = bhnd_strides(1, 2, 4);
  EXPECT_THROW(attention_reference(s, 0.5, x.data(), st, x.data(), st, x.data(), st, x.data(), st),
               std::invalid_argument);
}

}  // namespace
}  // namespace aerolbm::attention
