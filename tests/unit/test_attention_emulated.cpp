// The fused attention kernel's tile code (kernels/attention/attention_tile.cuh, the code the GPU runs) executed
// on the CPU by tests/unit/attention_emulator.hpp, against the double-precision reference on fresh random bf16
// inputs: every head dim, lengths that are not multiples of the 128-row / 64-key tiles, split-KV with the combine
// pass, the [B, N, H*d] strided layout, a peaked softmax, with cp.async landing at once and only at its wait.
#include "tests/unit/attention_emulator.hpp"
// (the emulated primitives must precede the tile code)
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "kernels/attention/attention_tile.cuh"
#include "kernels/cpu/attention_reference.hpp"

namespace aerolbm::attention {
namespace {

struct Case {
  int d, batch, heads, nq, nk;
  int splits;      // requested key ranges (1 = no split-KV)
  bool lazy;       // cp.async lands only at cp.async.wait_group
  bool bnhd;       // [B, N, H*d] instead of [B, H, N, d]
  double peak;     // multiplies the usual 1/sqrt(d) scale
  int variant = 0;  // tile shape (TileFor<d, variant>)
};

struct Tensors {
  std::vector<std::uint16_t> q, k, v, o;
  Strides qs, ks, os;
};

template <int D, int V>
std::vector<std::uint16_t> emulate(const Case& c, const Tensors& t, float scale) {
  using T = typename detail::TileFor<D, V>::type;
  detail::FwdParams p{};
  std::vector<std::uint16_t> o(t.o.size(), kBf16NaN);  // poisoned output
  p.q = t.q.data(), p.k = t.k.data(), p.v = t.v.data(), p.o = o.data();
  p.q_sb = t.qs.batch, p.q_sh = t.qs.head, p.q_sr = t.qs.row;
  p.k_sb = t.ks.batch, p.k_sh = t.ks.head, p.k_sr = t.ks.row;
  p.v_sb = t.ks.batch, p.v_sh = t.ks.head, p.v_sr = t.ks.row;
  p.o_sb = t.os.batch, p.o_sh = t.os.head, p.o_sr = t.os.row;
  p.heads = c.heads, p.nq = c.nq, p.nk = c.nk, p.bh_count = c.batch * c.heads;
  p.q_tiles = (c.nq + T::kBr - 1) / T::kBr;
  p.scale_log2 = float(double(scale) * 1.4426950408889634);
  const int kv_tiles = (c.nk + T::kBc - 1) / T::kBc;
  p.tiles_per_split = (kv_tiles + c.splits - 1) / c.splits;
  p.splits = (kv_tiles + p.tiles_per_split - 1) / p.tiles_per_split;
  std::vector<float> o_part, lse_part;
  if (p.splits > 1) {
    o_part.assign(std::size_t(p.splits) * p.bh_count * c.nq * D, NAN);
    lse_part.assign(std::size_t(p.splits) * p.bh_count * c.nq, NAN);
    p.o_part = o_part.data(), p.lse_part = lse_part.data();
  }
  std::uint32_t seed = 1;
  for (int split = 0; split < p.splits; ++split)
    for (int bx = 0; bx < p.q_tiles * p.bh_count; ++bx)
      emu::run_block(T::kThreads, T::kSmemBytes, c.lazy, seed++, [&](int tid) {
        auto* smem = reinterpret_cast<std::uint16_t*>(emu::current()->smem.data());
        detail::attention_fwd_tile<T>(p, tid, bx, split, smem);
      });
  if (p.splits > 1)
    for (std::int64_t i = 0; i < std::int64_t(p.bh_count) * c.nq * (D / 4); ++i)
      detail::attention_combine_quad<D>(p, i);
  return o;
}

void check(const Case& c) {
  if (!kEmulatorAvailable) GTEST_SKIP() << "the fiber emulation does not run under sanitizers";
  std::random_device rd;
  const unsigned seed = rd();
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.f, 1.f);
  Tensors t;
  t.qs = c.bnhd ? bnhd_strides(c.heads, c.nq, c.d) : bhnd_strides(c.heads, c.nq, c.d);
  t.ks = c.bnhd ? bnhd_strides(c.heads, c.nk, c.d) : bhnd_strides(c.heads, c.nk, c.d);
  t.os = t.qs;
  const std::size_t nq_el = std::size_t(c.batch) * c.heads * c.nq * c.d;
  const std::size_t nk_el = std::size_t(c.batch) * c.heads * c.nk * c.d;
  auto fill = [&](std::vector<std::uint16_t>& x, std::size_t n) {
    x.resize(n);
    for (auto& e : x) e = float_to_bf16(normal(rng));
  };
  fill(t.q, nq_el), fill(t.k, nk_el), fill(t.v, nk_el);
  t.o.assign(nq_el, 0);
  const float scale = float(c.peak / std::sqrt(double(c.d)));

  using Fn = std::vector<std::uint16_t> (*)(const Case&, const Tensors&, float);
  static_assert(detail::kTileVariants == 3, "one row per variant below");
  const Fn table[3][3] = {{emulate<32, 0>, emulate<32, 1>, emulate<32, 2>},
                          {emulate<64, 0>, emulate<64, 1>, emulate<64, 2>},
                          {emulate<128, 0>, emulate<128, 1>, emulate<128, 2>}};
  const std::vector<std::uint16_t> got = table[c.d == 32 ? 0 : c.d == 64 ? 1 : 2][c.variant](c, t, scale);
  auto widen = [](const std::vector<std::uint16_t>& x) {
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = bf16_to_float(x[i]);
    return y;
  };
  const auto q = widen(t.q), k = widen(t.k), v = widen(t.v);
  std::vector<double> ref(nq_el, 0.0);
  const Dims dims{c.batch, c.heads, c.nq, c.nk, c.d};
  attention_reference(dims, double(scale), q.data(), t.qs, k.data(), t.ks, v.data(), t.ks, ref.data(), t.os);

  double err2 = 0, ref2 = 0, worst_row = 0;
  for (int b = 0; b < c.batch; ++b)
    for (int h = 0; h < c.heads; ++h)
      for (int n = 0; n < c.nq; ++n) {
        double e = 0, r = 0;
        for (int i = 0; i < c.d; ++i) {
          const std::int64_t at = t.os.at(b, h, n) + i;
          const double g = bf16_to_float(got[std::size_t(at)]);
          ASSERT_TRUE(std::isfinite(g)) << "b " << b << " h " << h << " row " << n << " feature " << i
                                        << " not written or not finite (seed " << seed << ")";
          e += (g - ref[std::size_t(at)]) * (g - ref[std::size_t(at)]);
          r += ref[std::size_t(at)] * ref[std::size_t(at)];
        }
        err2 += e, ref2 += r;
        worst_row = std::max(worst_row, std::sqrt(e / r));
      }
  const double rel = std::sqrt(err2 / ref2);
  std::printf("emulated d=%d v%d B=%d H=%d Nq=%d Nk=%d splits=%d %s %s peak=%.0f: rel. L2 %.2e, worst row %.2e "
              "(seed %u)\n",
              c.d, c.variant, c.batch, c.heads, c.nq, c.nk, c.splits, c.lazy ? "lazy" : "eager",
              c.bnhd ? "bnhd" : "bhnd", c.peak, rel, worst_row, seed);
  EXPECT_LE(rel, 1e-2) << "seed " << seed;
  EXPECT_LE(worst_row, 3e-2) << "seed " << seed;
}

TEST(AttentionEmulated, HeadDim32TailsAndSplit) {
  check({32, 1, 2, 130, 77, 1, false, false, 1.0});
  check({32, 1, 1, 1, 300, 3, true, false, 1.0});
}

TEST(AttentionEmulated, HeadDim64StridedPeakedAndSplit) {
  check({64, 1, 2, 129, 130, 1, true, true, 1.0});
  check({64, 1, 1, 65, 200, 2, false, false, 6.0});
}

TEST(AttentionEmulated, HeadDim128TailsAndSplit) {
  check({128, 1, 1, 33, 65, 1, true, false, 1.0});
  check({128, 1, 2, 20, 129, 3, false, true, 2.0});
}

TEST(AttentionEmulated, OtherTileVariants) {
  for (int d : {32, 64, 128})
    for (int v = 1; v < detail::kTileVariants; ++v) check({d, 1, 1, 70, 140, v == 1 ? 1 : 2, v == 1, false, 1.0, v});
}

TEST(AttentionEmulated, SingleKey) { check({64, 1, 1, 70, 1, 1, true, false, 1.0}); }

}  // namespace
}  // namespace aerolbm::attention
