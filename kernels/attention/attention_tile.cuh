#pragma once
// The fused attention forward pass for one CTA (FlashAttention-2 scheme): a tile of kBr query rows stays in
// shared memory while key/value tiles of kBc rows stream through a double buffer (cp.async); each warp owns
// 16*kMT query rows, computes S = Q K^T with bf16 tensor-core MMAs (fp32 accumulators), keeps the running row
// maximum and row sum of an online softmax in fp32 (base 2, with log2(e) folded into the scale), turns S into
// the bf16 A operand of P V in registers, and accumulates O in registers. No Nq x Nk matrix exists anywhere.
// With split-KV each CTA handles a contiguous range of key tiles and writes its normalised partial O and its
// log-sum-exp for attention_combine_row to merge.
//
// Everything here goes through the primitives of attention_primitives.cuh (device) or, when compiled by a host
// compiler, the emulation of tests/unit/attention_emulator.hpp, which must be included first.
//
// Shared-memory rows are d bf16 long; 16-byte chunks are XOR-swizzled by row so that the 8 row addresses of an
// ldmatrix phase and the cp.async stores fall into 8 different 16-byte bank groups.
#include <cstdint>

#include <cmath>

#ifdef __CUDACC__
#include "kernels/attention/attention_primitives.cuh"
#define AEROLBM_ATTN_FN __device__ __forceinline__
#define AEROLBM_UNROLL _Pragma("unroll")
#else
#define AEROLBM_ATTN_FN inline
#define AEROLBM_UNROLL
#endif

namespace aerolbm::attention::detail {

struct FwdParams {
  const std::uint16_t* q;  // bf16 bit patterns
  const std::uint16_t* k;
  const std::uint16_t* v;
  std::uint16_t* o;
  std::int64_t q_sb, q_sh, q_sr;  // batch / head / row strides in elements
  std::int64_t k_sb, k_sh, k_sr;
  std::int64_t v_sb, v_sh, v_sr;
  std::int64_t o_sb, o_sh, o_sr;
  int heads, nq, nk;
  int bh_count;         // batch * heads
  int q_tiles;          // ceil(nq / kBr); blockIdx.x = bh * q_tiles + q tile
  float scale_log2;     // softmax scale * log2(e)
  int splits;           // 1: write o (bf16); > 1: write o_part / lse_part (blockIdx.y = split)
  int tiles_per_split;  // key tiles per split
  float* o_part;        // [splits][B*H][nq][d], normalised within the split
  float* lse_part;      // [splits][B*H][nq], log2 of the split's softmax denominator incl. its maximum
};

template <int D_, int Warps, int MT, int Bc, bool QInRegs>
struct Tile {
  static_assert(D_ == 32 || D_ == 64 || D_ == 128, "head dims 32, 64, 128");
  static_assert(Bc % 16 == 0 && MT >= 1 && Warps >= 1, "tile shape");
  static constexpr int D = D_;
  static constexpr int kWarps = Warps;
  static constexpr int kMT = MT;  // 16-row MMA tiles per warp
  static constexpr int kBc = Bc;  // keys per tile
  static constexpr bool kQInRegs = QInRegs;
  static constexpr int kThreads = 32 * Warps;
  static constexpr int kBr = 16 * MT * Warps;  // query rows per CTA
  static constexpr int kChunks = D / 8;         // 16-byte chunks per row
  static constexpr int kKSteps = D / 16;        // k steps of Q K^T
  static constexpr int kNT = Bc / 8;            // 8-key n-tiles of S
  static constexpr int kDT = D / 8;             // 8-feature n-tiles of O
  static constexpr int kQElems = kBr * D;
  static constexpr int kKVElems = Bc * D;
  static constexpr int kSmemBytes = (kQElems + 4 * kKVElems) * 2;  // Q, K[2], V[2]
  static constexpr int kMinBlocks = Warps >= 8 ? 1 : 2;            // __launch_bounds__: <= 255 registers
};

// Tile shapes per head dim. Variant 0 is the default: 128 query rows and 4 warps per CTA (32 rows = two 16-row
// MMA tiles per warp, so every K/V fragment read from shared memory feeds two MMAs), 64 keys per K/V tile; Q
// fragments stay in registers for d <= 64 and are re-read from shared memory at d = 128, where they would not
// fit beside the 128 accumulator registers of O. Variants 1 and 2 are the alternatives worth measuring
// (`aerolbm bench attention --variants 0,1,2`); kernels/PERFORMANCE.md records which one won and why.
inline constexpr int kTileVariants = 3;
template <int D, int V>
struct TileFor;
template <> struct TileFor<32, 0> { using type = Tile<32, 4, 2, 64, true>; };
template <> struct TileFor<32, 1> { using type = Tile<32, 8, 1, 128, true>; };   // 8 warps, 128 keys
template <> struct TileFor<32, 2> { using type = Tile<32, 4, 1, 64, true>; };    // 64 rows: more CTAs
template <> struct TileFor<64, 0> { using type = Tile<64, 4, 2, 64, true>; };
template <> struct TileFor<64, 1> { using type = Tile<64, 8, 1, 64, true>; };    // 8 warps x 16 rows
template <> struct TileFor<64, 2> { using type = Tile<64, 4, 2, 64, false>; };   // Q re-read from smem
template <> struct TileFor<128, 0> { using type = Tile<128, 4, 2, 64, false>; };
template <> struct TileFor<128, 1> { using type = Tile<128, 4, 2, 32, false>; }; // 32 keys: no spill
template <> struct TileFor<128, 2> { using type = Tile<128, 8, 1, 64, false>; }; // 8 warps x 16 rows

// Element offset of chunk `chunk` of row `row` in a swizzled tile. Rows of 64 bytes (d = 32) share a 128-byte
// bank line in pairs, so they swizzle by row/2; longer rows by row. Only row % 8 matters, so every ldmatrix
// address below has a lane-constant swizzle.
template <int D>
AEROLBM_ATTN_FN int swz(int row, int chunk) {
  const int s = D >= 64 ? (row & 7) : ((row >> 1) & 3);
  return row * D + ((chunk ^ s) << 3);
}

// Copies `Rows` rows (rows_valid of them real, the rest zero) of a [.., d] tensor into a swizzled tile.
template <class T, int Rows>
AEROLBM_ATTN_FN void load_tile(std::uint32_t dst, const std::uint16_t* src, std::int64_t row_stride,
                               int rows_valid, int tid) {
  constexpr int kTotal = Rows * T::kChunks;
  static_assert(kTotal % T::kThreads == 0, "whole copies per thread");
  AEROLBM_UNROLL
  for (int it = 0; it < kTotal / T::kThreads; ++it) {
    const int i = tid + it * T::kThreads;
    const int row = i / T::kChunks, chunk = i % T::kChunks;
    const bool ok = row < rows_valid;
    const std::uint16_t* s = ok ? src + row * row_stride + chunk * 8 : src;
    prim::cp_async_16(dst + 2u * std::uint32_t(swz<T::D>(row, chunk)), s, ok);
  }
}

template <class T>
AEROLBM_ATTN_FN void attention_fwd_tile(const FwdParams& p, int tid, int block_x, int split, std::uint16_t* smem) {
  constexpr int D = T::D, Bc = T::kBc, MT = T::kMT;
  constexpr float kNegInf = -INFINITY;
  const int warp = tid >> 5, lane = tid & 31;
  const int bh = block_x / p.q_tiles, q_tile = block_x - bh * p.q_tiles;
  const int b = bh / p.heads, h = bh - b * p.heads;
  const int q0 = q_tile * T::kBr;
  const std::uint16_t* qg = p.q + b * p.q_sb + h * p.q_sh + q0 * p.q_sr;
  const std::uint16_t* kg = p.k + b * p.k_sb + h * p.k_sh;
  const std::uint16_t* vg = p.v + b * p.v_sb + h * p.v_sh;
  const int q_rows = p.nq - q0 < T::kBr ? p.nq - q0 : T::kBr;
  const int kv_tiles = (p.nk + Bc - 1) / Bc;
  const int t_begin = split * p.tiles_per_split;
  const int t_end = t_begin + p.tiles_per_split < kv_tiles ? t_begin + p.tiles_per_split : kv_tiles;

  const std::uint32_t s_q = prim::smem_addr(smem);
  const std::uint32_t s_k = s_q + 2u * T::kQElems;  // two buffers of kKVElems
  const std::uint32_t s_v = s_k + 4u * T::kKVElems;  // two buffers of kKVElems

  auto load_kv = [&](std::uint32_t dst, const std::uint16_t* g, std::int64_t stride, int t) {
    const int rows = p.nk - t * Bc < Bc ? p.nk - t * Bc : Bc;
    load_tile<T, Bc>(dst, g + std::int64_t(t) * Bc * stride, stride, rows, tid);
  };

  // Commit order: Q, K[t_begin], V[t_begin]; then per iteration K[t+1], V[t+1] (possibly empty groups), so
  // "wait until one group is left" always means "the tile needed now has landed".
  load_tile<T, T::kBr>(s_q, qg, p.q_sr, q_rows, tid);
  prim::cp_async_commit();
  load_kv(s_k, kg, p.k_sr, t_begin);
  prim::cp_async_commit();
  load_kv(s_v, vg, p.v_sr, t_begin);
  prim::cp_async_commit();

  // Lane-constant parts of the ldmatrix addresses (see the fragment layouts of mma.m16n8k16 in the PTX ISA).
  // Chunk c of a row lands at (c ^ swizzle) with swizzle < 8, so chunks 8j..8j+7 stay in their group of 8 and
  // only c % 8 needs a per-lane offset: k step kk (or feature pair dp) uses off[kk % 4] + (kk / 4) * 128 bytes.
  // Precomputing these four offsets keeps the address registers few (otherwise ptxas hoists one per step).
  constexpr int kOff = T::kKSteps < 4 ? T::kKSteps : 4;
  const int warp_row0 = warp * 16 * MT;
  std::uint32_t q_off[kOff], k_off[kOff], v_off[kOff];
  {
    const int a_row = warp_row0 + (lane & 7) + ((lane >> 3) & 1) * 8;  // Q: (rows 0-7|8-15) x (k lo|hi)
    const int kb_row = (lane & 7) + (lane >> 4) * 8;  // K: (keys 0-7, k lo), (0-7, hi), (8-15, lo), (8-15, hi)
    const int vb_row = (lane & 7) + ((lane >> 3) & 1) * 8;  // V^T: (keys 0-7, d lo), (8-15, lo), (0-7, hi), (8-15, hi)
    AEROLBM_UNROLL
    for (int j = 0; j < kOff; ++j) {
      q_off[j] = 2u * std::uint32_t(swz<D>(a_row, 2 * j + (lane >> 4)));
      k_off[j] = 2u * std::uint32_t(swz<D>(kb_row, 2 * j + ((lane >> 3) & 1)));
      v_off[j] = 2u * std::uint32_t(swz<D>(vb_row, 2 * j + (lane >> 4)));
    }
  }
  auto step_off = [](const std::uint32_t* off, int kk) { return off[kk & 3] + std::uint32_t(kk >> 2) * 128u; };

  float o[MT][T::kDT][4];
  float m[MT][2], l[MT][2];
  AEROLBM_UNROLL
  for (int mt = 0; mt < MT; ++mt) {
    AEROLBM_UNROLL
    for (int j = 0; j < T::kDT; ++j) o[mt][j][0] = o[mt][j][1] = o[mt][j][2] = o[mt][j][3] = 0.f;
    m[mt][0] = m[mt][1] = kNegInf;
    l[mt][0] = l[mt][1] = 0.f;
  }
  std::uint32_t qf[T::kQInRegs ? MT : 1][T::kQInRegs ? T::kKSteps : 1][4];  // Q A-fragments when they fit

  for (int t = t_begin; t < t_end; ++t) {
    const std::uint32_t buf = std::uint32_t((t - t_begin) & 1);
    const std::uint32_t kbuf = s_k + buf * 2u * T::kKVElems, vbuf = s_v + buf * 2u * T::kKVElems;
    prim::cp_async_wait<1>();  // Q (first time) and K[t] have landed; V[t] may still be in flight
    prim::block_sync();        // ... for every thread's copies; and everybody is done with tile t-1
    if (t + 1 < t_end) load_kv(s_k + (buf ^ 1u) * 2u * T::kKVElems, kg, p.k_sr, t + 1);
    prim::cp_async_commit();

    if constexpr (T::kQInRegs) {
      if (t == t_begin) {
        AEROLBM_UNROLL
        for (int mt = 0; mt < MT; ++mt)
          AEROLBM_UNROLL
          for (int kk = 0; kk < T::kKSteps; ++kk)
            prim::ldmatrix_x4(qf[mt][kk], s_q + step_off(q_off, kk) + std::uint32_t(mt * 16 * D * 2));
      }
    }

    // S = Q K^T for this warp's rows and the tile's Bc keys.
    float s[MT][T::kNT][4];
    AEROLBM_UNROLL
    for (int mt = 0; mt < MT; ++mt)
      AEROLBM_UNROLL
      for (int j = 0; j < T::kNT; ++j) s[mt][j][0] = s[mt][j][1] = s[mt][j][2] = s[mt][j][3] = 0.f;
    AEROLBM_UNROLL
    for (int kk = 0; kk < T::kKSteps; ++kk) {
      std::uint32_t qa[MT][4];
      AEROLBM_UNROLL
      for (int mt = 0; mt < MT; ++mt) {
        if constexpr (T::kQInRegs) {
          qa[mt][0] = qf[mt][kk][0], qa[mt][1] = qf[mt][kk][1], qa[mt][2] = qf[mt][kk][2], qa[mt][3] = qf[mt][kk][3];
        } else {
          prim::ldmatrix_x4(qa[mt], s_q + step_off(q_off, kk) + std::uint32_t(mt * 16 * D * 2));
        }
      }
      AEROLBM_UNROLL
      for (int np = 0; np < Bc / 16; ++np) {
        std::uint32_t kb[4];
        prim::ldmatrix_x4(kb, kbuf + step_off(k_off, kk) + std::uint32_t(np * 16 * D * 2));
        AEROLBM_UNROLL
        for (int mt = 0; mt < MT; ++mt) {
          prim::mma_bf16(s[mt][2 * np], qa[mt], kb[0], kb[1]);
          prim::mma_bf16(s[mt][2 * np + 1], qa[mt], kb[2], kb[3]);
        }
      }
    }

    // Keys past the end of the sequence (only in the last tile) drop out: exp2(-inf) = 0.
    if ((t + 1) * Bc > p.nk) {
      AEROLBM_UNROLL
      for (int j = 0; j < T::kNT; ++j) {
        const int key = t * Bc + j * 8 + 2 * (lane & 3);
        AEROLBM_UNROLL
        for (int mt = 0; mt < MT; ++mt) {
          if (key >= p.nk) s[mt][j][0] = s[mt][j][2] = kNegInf;
          if (key + 1 >= p.nk) s[mt][j][1] = s[mt][j][3] = kNegInf;
        }
      }
    }

    // Online softmax: fragment element e of n-tile j belongs to row (lane/4) + 8*(e/2) of the m-tile.
    std::uint32_t pf[MT][Bc / 16][4];
    AEROLBM_UNROLL
    for (int mt = 0; mt < MT; ++mt) {
      AEROLBM_UNROLL
      for (int r = 0; r < 2; ++r) {
        float mx = kNegInf;
        AEROLBM_UNROLL
        for (int j = 0; j < T::kNT; ++j) mx = fmaxf(mx, fmaxf(s[mt][j][2 * r], s[mt][j][2 * r + 1]));
        mx = prim::quad_max(mx);
        const float m_new = fmaxf(m[mt][r], mx * p.scale_log2);
        // A row with no finite logit yet keeps everything at zero instead of producing inf - inf.
        const float m_use = m_new == kNegInf ? 0.f : m_new;
        const float alpha = prim::exp2_approx(m[mt][r] - m_use);
        m[mt][r] = m_new;
        float sum = 0.f;
        AEROLBM_UNROLL
        for (int j = 0; j < T::kNT; ++j) {
          const float p0 = prim::exp2_approx(fmaf(s[mt][j][2 * r], p.scale_log2, -m_use));
          const float p1 = prim::exp2_approx(fmaf(s[mt][j][2 * r + 1], p.scale_log2, -m_use));
          s[mt][j][2 * r] = p0;
          s[mt][j][2 * r + 1] = p1;
          sum += p0 + p1;
        }
        l[mt][r] = l[mt][r] * alpha + sum;  // this lane's share of the row; the quad is summed at the end
        AEROLBM_UNROLL
        for (int j = 0; j < T::kDT; ++j) {
          o[mt][j][2 * r] *= alpha;
          o[mt][j][2 * r + 1] *= alpha;
        }
      }
      // The C fragments of two neighbouring key n-tiles are exactly the A fragment of one 16-key k step.
      AEROLBM_UNROLL
      for (int kk = 0; kk < Bc / 16; ++kk) {
        pf[mt][kk][0] = prim::pack_bf16(s[mt][2 * kk][0], s[mt][2 * kk][1]);
        pf[mt][kk][1] = prim::pack_bf16(s[mt][2 * kk][2], s[mt][2 * kk][3]);
        pf[mt][kk][2] = prim::pack_bf16(s[mt][2 * kk + 1][0], s[mt][2 * kk + 1][1]);
        pf[mt][kk][3] = prim::pack_bf16(s[mt][2 * kk + 1][2], s[mt][2 * kk + 1][3]);
      }
    }

    prim::cp_async_wait<1>();  // V[t] has landed (K[t+1] may still be in flight)
    prim::block_sync();
    if (t + 1 < t_end) load_kv(s_v + (buf ^ 1u) * 2u * T::kKVElems, vg, p.v_sr, t + 1);
    prim::cp_async_commit();

    // O += P V
    AEROLBM_UNROLL
    for (int kk = 0; kk < Bc / 16; ++kk) {
      AEROLBM_UNROLL
      for (int dp = 0; dp < D / 16; ++dp) {
        std::uint32_t vb[4];
        prim::ldmatrix_x4_trans(vb, vbuf + step_off(v_off, dp) + std::uint32_t(kk * 16 * D * 2));
        AEROLBM_UNROLL
        for (int mt = 0; mt < MT; ++mt) {
          prim::mma_bf16(o[mt][2 * dp], pf[mt][kk], vb[0], vb[1]);
          prim::mma_bf16(o[mt][2 * dp + 1], pf[mt][kk], vb[2], vb[3]);
        }
      }
    }
  }
  prim::cp_async_wait<0>();  // nothing may be left in flight when the CTA exits

  // Epilogue: normalise and store. Row (lane/4) + 8r of m-tile mt; features 8j + 2(lane%4), +1.
  AEROLBM_UNROLL
  for (int mt = 0; mt < MT; ++mt) {
    AEROLBM_UNROLL
    for (int r = 0; r < 2; ++r) {
      const float sum = prim::quad_sum(l[mt][r]);
      const float inv = sum > 0.f ? 1.f / sum : 0.f;
      const int row = q0 + warp_row0 + mt * 16 + (lane >> 2) + 8 * r;
      if (row >= p.nq) continue;
      const int col = 2 * (lane & 3);
      if (p.splits == 1) {
        std::uint16_t* dst = p.o + b * p.o_sb + h * p.o_sh + row * p.o_sr + col;
        AEROLBM_UNROLL
        for (int j = 0; j < T::kDT; ++j)
          prim::store_bf16x2(dst + 8 * j, prim::pack_bf16(o[mt][j][2 * r] * inv, o[mt][j][2 * r + 1] * inv));
      } else {
        const std::int64_t prow = (std::int64_t(split) * p.bh_count + bh) * p.nq + row;
        float* dst = p.o_part + prow * D + col;
        AEROLBM_UNROLL
        for (int j = 0; j < T::kDT; ++j) {
          dst[8 * j] = o[mt][j][2 * r] * inv;
          dst[8 * j + 1] = o[mt][j][2 * r + 1] * inv;
        }
        if ((lane & 3) == 0) p.lse_part[prow] = m[mt][r] + log2f(sum);
      }
    }
  }
}

// Split-KV merge for four features of one query row (element `i` of B*H*nq*d/4): each split's partial output is
// weighted by 2^(lse_s - max lse), which is its share of the full softmax denominator.
template <int D>
AEROLBM_ATTN_FN void attention_combine_quad(const FwdParams& p, std::int64_t i) {
  constexpr int kQuads = D / 4;
  const std::int64_t row_id = i / kQuads;  // bh * nq + row
  const int c = int(i - row_id * kQuads) * 4;
  const int bh = int(row_id / p.nq), row = int(row_id - std::int64_t(bh) * p.nq);
  const std::int64_t split_stride = std::int64_t(p.bh_count) * p.nq;
  float lmax = -INFINITY;
  for (int s = 0; s < p.splits; ++s) lmax = fmaxf(lmax, p.lse_part[s * split_stride + row_id]);
  float acc[4] = {0.f, 0.f, 0.f, 0.f}, wsum = 0.f;
  for (int s = 0; s < p.splits; ++s) {
    const float lse = p.lse_part[s * split_stride + row_id];
    const float w = lse == -INFINITY ? 0.f : prim::exp2_approx(lse - lmax);
    const float* src = p.o_part + (s * split_stride + row_id) * D + c;
    wsum += w;
    AEROLBM_UNROLL
    for (int e = 0; e < 4; ++e) acc[e] += w * src[e];
  }
  const float inv = wsum > 0.f ? 1.f / wsum : 0.f;
  const int b = bh / p.heads, h = bh - b * p.heads;
  std::uint16_t* dst = p.o + b * p.o_sb + h * p.o_sh + row * p.o_sr + c;
  prim::store_bf16x2(dst, prim::pack_bf16(acc[0] * inv, acc[1] * inv));
  prim::store_bf16x2(dst + 2, prim::pack_bf16(acc[2] * inv, acc[3] * inv));
}

}  // namespace aerolbm::attention::detail
