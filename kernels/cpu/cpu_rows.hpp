#pragma once
// The CPU backend's loop structure: the grid is walked row by row (fixed y, z), and each row is cut once, at
// construction, into segments of consecutive cells. The plain interior cells away from the row's ends go through
// a branch-free loop over x that loads the Q populations from one pointer per direction, calls the shared collide
// (kernels/physics/collision.hpp) and stores them: the compiler vectorises it across cells (`omp simd`), so the
// arithmetic of each cell is exactly that of the scalar path, in the same order, only several cells at a time —
// bit-identical results. The plain cells of the y and z faces go through the same loop from sources recorded per
// segment (kernels/cpu/cpu_face_rows.hpp; in place from the snapshot). Everything else (cells next to the body,
// open faces, the ends of periodic rows) goes through the per-cell functions.
//
// On x86-64 the vector loops are compiled three times, for the baseline ISA (SSE2), AVX2 and x86-64-v4 (AVX-512:
// twice the registers, 16 floats per vector), and the best the CPU has is chosen once per backend (cpu_isa; the
// environment variable AEROLBM_CPU_ISA=sse2|avx2|avx512 picks a lower one, for tests and comparisons). No
// variant contracts a multiply and an add into an FMA, although x86-64-v4 has the instruction: the build gives
// these files -ffp-contract=off. So every variant rounds every operation as the scalar path and the CUDA build
// (-fmad=false) do.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/physics/cell_update.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define AEROLBM_CPU_X86 1
#else
#define AEROLBM_CPU_X86 0
#endif

namespace aerolbm::cpu {

enum class Isa : int { base = 0, avx2 = 1, avx512 = 2 };

inline const char* isa_name(Isa i) { return i == Isa::avx512 ? "avx512" : (i == Isa::avx2 ? "avx2" : "sse2"); }

// The widest variant this CPU runs, or the one AEROLBM_CPU_ISA names if the CPU has it.
inline Isa cpu_isa() {
  Isa best = Isa::base;
#if AEROLBM_CPU_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = Isa::avx2;
  if (__builtin_cpu_supports("x86-64-v4")) best = Isa::avx512;
#endif
  if (const char* want = std::getenv("AEROLBM_CPU_ISA")) {
    const Isa w = std::strcmp(want, "avx512") == 0 ? Isa::avx512
                  : std::strcmp(want, "avx2") == 0 ? Isa::avx2
                                                   : Isa::base;
    if (int(w) < int(best)) best = w;
  }
  return best;
}

// Whether 512-bit vectors pay for the D3Q19 pull rows: on CPUs that execute them at full width (AMD family 1Ah,
// Zen 5, on): 2026-12-05, AMD EPYC family 1Ah, D3Q19 fp32 box of 1 M cells, two threads, 512-bit against 256-bit
// vectors: pull 155-161 against 126-128 MLUPs, the CI wing's pull 98-101 against 82-92; in place (aa) mixed (1 M
// cells 195-199 against 184-186, 258 k cells 175-179 against 204-208), so aa keeps 256-bit vectors. An earlier
// machine of this kind measured the 256-bit pull 10-20 % faster, hence the test rather than a switch for all.
// AEROLBM_CPU_VECTOR=256|512 overrides it.
inline bool full_width_avx512() {
  bool full = false;
#if AEROLBM_CPU_X86
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &c, &d)) {
    const bool amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;  // "AuthenticAMD"
    if (amd && __get_cpuid(1, &a, &b, &c, &d)) {
      const unsigned base = (a >> 8) & 0xfu, family = base == 0xfu ? base + ((a >> 20) & 0xffu) : base;
      full = family >= 0x1au;
    }
  }
#endif
  if (const char* want = std::getenv("AEROLBM_CPU_VECTOR")) full = std::strcmp(want, "512") == 0;
  return full;
}

// Distance in values between the arrays of two directions (and, for two lattices in one buffer, between the
// lattices): the cell count rounded up to whole 4 KiB pages plus one 64-byte cache line. Unpadded, grids whose
// cell count is a multiple of 1024 (most: 640 x 320, 96 x 100 x 104, 2016 x 1984, ...) put the Q read and Q write
// streams of a row at the same offset within a page: they all fall into the same L1 set (8 ways for 18 to 54
// streams) and every store looks like it might alias the next loads (4K aliasing). One line of stagger per
// direction spreads them over 64 sets. Measured on one core (AVX2 loops, 2026-12-01), pull / aa MLUPs unpadded ->
// padded: D3Q19 fp32 on 512 x 2 x 2 cells (in L2) 70 / 91 -> 119 / 136, on 96 x 100 x 104 cells 57 / 71 -> 69 / 95;
// D3Q27 fp32 aa on 96 x 100 x 104 cells 33 -> 61.
inline std::int64_t padded_stride(std::int64_t cells, std::size_t value_bytes) {
  const std::int64_t page = 4096 / std::int64_t(value_bytes), line = 64 / std::int64_t(value_bytes);
  return (cells + page - 1) / page * page + line;
}

// One segment of a row: cells x0 .. x1−1, all for the vector loop (vec = 1), all for the per-cell path (0), or all
// face cells for the vector loop with the sources in face_src[src .. src+Q) (vec = 2, kernels/cpu/cpu_face_rows.hpp).
struct Segment {
  std::int32_t x0, x1;
  std::int32_t vec;
  std::int32_t src = 0;
};

// Rows r = y + ny·z, each with its segments seg[begin[r] .. begin[r+1]) in increasing x.
struct RowPlan {
  std::vector<std::int64_t> begin;
  std::vector<Segment> seg;
  std::vector<std::int64_t> face_src;  // per face segment, per direction: where population i comes from
  std::int64_t vector_cells = 0, scalar_cells = 0, face_cells = 0;
  bool far_field = false;  // some face segment reads the free stream
  std::int64_t rows() const { return std::int64_t(begin.size()) - 1; }
};

// Two-lattice (pull) plan: interior cells with 1 ≤ x ≤ nx−2 vectorised (their x neighbours need no wrap), every
// other cell that update_cell would update (not solid, not a ghost) per cell.
// In-place (AA) plan for the interior phase of a step: the same vector runs; interior cells at the ends of a
// periodic row per cell (aa_interior_update wraps them); boundary cells in neither (their own phase updates them).
template <class L>
RowPlan build_row_plan(const GridView& g, bool in_place) {
  RowPlan p;
  const int nx = g.n[0];
  p.begin.reserve(std::size_t(g.n[1]) * g.n[2] + 1);
  p.begin.push_back(0);
  for (int z = 0; z < g.n[2]; ++z)
    for (int y = 0; y < g.n[1]; ++y) {
      int open = -1;  // kind of the segment being built: −1 none, 0 per cell, 1 vector
      for (int x = 0; x < nx; ++x) {
        const std::uint8_t flag = g.flags[g.index(x, y, z)];
        const bool interior = is_interior<L>(g, flag, x, y, z);
        int kind;
        if (interior && x >= 1 && x <= nx - 2) {
          kind = 1;
        } else if (in_place) {
          kind = interior ? 0 : -1;
        } else {
          kind = ((flag & cell::type_mask) == cell::solid || (flag & cell::ghost)) ? -1 : 0;
        }
        if (kind >= 0) (kind ? p.vector_cells : p.scalar_cells) += 1;
        if (kind == open && kind >= 0) {
          p.seg.back().x1 = x + 1;
        } else if (kind >= 0) {
          p.seg.push_back(Segment{x, x + 1, kind, 0});
        }
        open = kind;
      }
      p.begin.push_back(std::int64_t(p.seg.size()));
    }
  return p;
}

// The branches collide takes on loop-invariant constants, fixed at compile time so that the vector loop has none:
// Force = k.has_force; Les = no_les unless k.les_c > 0, else les_bgk or les_trt after k.trt (which only the
// Smagorinsky path reads); the entropic collision (k.entropic) takes kbc, or kbc_les with Smagorinsky.
// fixed_constants only ever sees the values k already has, so the arithmetic is unchanged; the compiler sees
// constants where it saw loads.
enum Les : int { no_les = 0, les_bgk = 1, les_trt = 2, kbc = 3, kbc_les = 4 };

template <class R, bool Force, int Les>
AEROLBM_HD CollisionConstants<R> fixed_constants(const CollisionConstants<R>& k) {
  CollisionConstants<R> c = k;
  c.has_force = Force;
  if constexpr (Les == no_les || Les == kbc) c.les_c = R(0);
  c.trt = Les == les_trt;
  c.entropic = Les == kbc || Les == kbc_les;
  return c;
}

// Always true (RunKernels picks a Smagorinsky instantiation only when les_c > 0), but tested before the loop so
// that collide's own test of les_c > 0 inside it is known true there: the loop body has no branch left. (Built with
// -fno-math-errno, as sqrt would otherwise branch to set errno; the values are the same.)
template <class R, int Les>
AEROLBM_HD bool les_branch_known(const CollisionConstants<R>& k) {
  return Les == no_les || Les == kbc || k.les_c > R(0);
}

// Neighbour rows of row (y, z), wrapped as pull_interior wraps them.
struct RowNeighbours {
  int y, z, ym, yp, zm, zp;
  RowNeighbours(const GridView& g, int y_, int z_) : y(y_), z(z_) {
    ym = y > 0 ? y - 1 : g.n[1] - 1;
    yp = y + 1 < g.n[1] ? y + 1 : 0;
    zm = z > 0 ? z - 1 : g.n[2] - 1;
    zp = z + 1 < g.n[2] ? z + 1 : 0;
  }
  // Row of the cell at −c_i (the source of a pull) or +c_i (where an odd AA step stores), as a cell offset.
  template <class L>
  std::int64_t from(const GridView& g, int i) const {
    const int sy = L::c(i, 1) == 0 ? y : (L::c(i, 1) > 0 ? ym : yp);
    const int sz = L::c(i, 2) == 0 ? z : (L::c(i, 2) > 0 ? zm : zp);
    return g.index(0, sy, sz);
  }
  template <class L>
  std::int64_t to(const GridView& g, int i) const {
    const int ty = L::c(i, 1) == 0 ? y : (L::c(i, 1) > 0 ? yp : ym);
    const int tz = L::c(i, 2) == 0 ? z : (L::c(i, 2) > 0 ? zp : zm);
    return g.index(0, ty, tz);
  }
};

// Cell x: population i from ld[i][x], collide, population i to st[i][x]. The body of the vector loops below.
template <class L, class T, class R>
AEROLBM_HD void collide_at(const CollisionConstants<R>& k, const T* const* ld, T* const* st, int x) {
  R f[L::Q];
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) f[i] = R(ld[i][x]);
  collide<L, R>(f, k);
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) st[i][x] = T(f[i]);
}

// Cells x0 .. x1−1; `omp simd` across x.
template <class L, class T, class R>
AEROLBM_HD void cells(const CollisionConstants<R>& k, const T* const* ld, T* const* st, int x0, int x1) {
#pragma omp simd
  for (int x = x0; x < x1; ++x) collide_at<L, T, R>(k, ld, st, x);
}

// The same for cells x .. x+B−1, B fixed: whole vectors, no scalar remainder.
template <class L, class T, class R, int B>
AEROLBM_HD void cell_block(const CollisionConstants<R>& k, const T* const* ld, T* const* st, int x) {
#pragma omp simd
  for (int j = 0; j < B; ++j) collide_at<L, T, R>(k, ld, st, x + j);
}

// Two lattices: cells x0 .. x1−1 in blocks of one cache line of values (16 floats, 8 doubles: a whole number of
// vectors for every variant), the remainder as one more block ending at x1, so that rows of ~100 cells do not
// spend a tenth of their cells in the scalar remainder of a vector loop. The cells that last block repeats read
// the same unchanged values and store the same results again. (In place a cell must not be updated twice; the
// blocks without the overlap measured 3-8 % slower there than the plain loop, which aa_row keeps.) One core,
// fp32, 96 x 100 x 104 cells: D3Q27 pull 42 -> 52 MLUPs, D3Q19 65 -> 68; D2Q9 2016 x 1984: 242 -> 275.
template <class L, class T, class R>
AEROLBM_HD void pull_blocks(const CollisionConstants<R>& k, const T* const* ld, T* const* st, int x0, int x1) {
  constexpr int B = 64 / int(sizeof(T));
  if (x1 - x0 < B) {
    cells<L, T, R>(k, ld, st, x0, x1);
    return;
  }
  int x = x0;
  for (; x + B <= x1; x += B) cell_block<L, T, R, B>(k, ld, st, x);
  if (x < x1) cell_block<L, T, R, B>(k, ld, st, x1 - B);
}

// Two lattices, cells x0 .. x1−1 of row (y, z), all interior with 1 ≤ x ≤ nx−2: the interior path of update_cell
// (pull_interior, collide_and_store), several cells at a time.
template <class L, class T, class R, bool Force, int Les>
AEROLBM_HD void pull_row(const GridView& g, std::int64_t stride, const CollisionConstants<R>& k0, const T* src, T* dst,
                         int y, int z, int x0, int x1) {
  const CollisionConstants<R> k = fixed_constants<R, Force, Les>(k0);
  const RowNeighbours nb(g, y, z);
  const std::int64_t here = g.index(0, y, z);
  const T* s[L::Q];
  T* d[L::Q];
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    s[i] = src + std::int64_t(i) * stride + nb.from<L>(g, i) - L::c(i, 0);
    d[i] = dst + std::int64_t(i) * stride + here;
  }
  if (!les_branch_known<R, Les>(k)) return;
  pull_blocks<L, T, R>(k, s, d, x0, x1);
}

// In place (AA), row (y, z) of interior cells with 1 ≤ x ≤ nx−2: an even (Odd = false) or odd step loads
// population i of cell x from ld[i][x] and stores its new value at st[i][x].
template <class L, class T, bool Odd>
AEROLBM_HD void aa_row_slots(const GridView& g, std::int64_t stride, T* f, int y, int z, const T* (&ld)[L::Q],
                             T* (&st)[L::Q]) {
  const RowNeighbours nb(g, y, z);
  const std::int64_t here = g.index(0, y, z);
  AEROLBM_UNROLL
  for (int i = 0; i < L::Q; ++i) {
    if constexpr (!Odd) {
      // Even: read (i, x), write (opp(i), x).
      ld[i] = f + std::int64_t(i) * stride + here;
      st[i] = f + std::int64_t(opposite(i)) * stride + here;
    } else {
      // Odd: read (opp(i), x − c_i), write (i, x + c_i).
      ld[i] = f + std::int64_t(opposite(i)) * stride + nb.from<L>(g, i) - L::c(i, 0);
      st[i] = f + std::int64_t(i) * stride + nb.to<L>(g, i) + L::c(i, 0);
    }
  }
}

// In place (AA), cells x0 .. x1−1 of row (y, z), interior with 1 ≤ x ≤ nx−2: aa_interior_update, several cells at
// a time. Every cell reads and writes only its own slots (aa_lattice.hpp), so the cells of a vector never touch
// each other's values.
template <class L, class T, class R, bool Force, int Les, bool Odd>
AEROLBM_HD void aa_row(const GridView& g, std::int64_t stride, const CollisionConstants<R>& k0, T* f, int y, int z,
                       int x0, int x1) {
  const CollisionConstants<R> k = fixed_constants<R, Force, Les>(k0);
  const T* ld[L::Q];
  T* st[L::Q];
  aa_row_slots<L, T, Odd>(g, stride, f, y, z, ld, st);
  if (!les_branch_known<R, Les>(k)) return;
  cells<L, T, R>(k, ld, st, x0, x1);
}

// The sponge layer on values a row stored: st[i][x] ← st[i][x] − σ[x − x0] (st[i][x] − fs[i]) for x0 ≤ x < x1, fs
// the free stream's populations: sponge_relax on each cell, as the per-cell path applies it (sponge_cell), the same
// operations in the same order, one direction at a time across the row instead of one cell at a time.
template <class L, class T, class R>
AEROLBM_HD void sponge_cells(const R* fs, const R* sigma, T* const* st, int x0, int x1) {
  for (int i = 0; i < L::Q; ++i) {
    T* const p = st[i];
    const R s = fs[i];
#pragma omp simd
    for (int x = x0; x < x1; ++x) {
      const R v = R(p[x]);
      p[x] = T(v - sigma[x - x0] * (v - s));
    }
  }
}

// The compiled variants: one function per ISA around the always-inlined row, so that the whole loop (collide
// included) is compiled for that ISA. Distinct names, so no instantiation compiled for one ISA can stand in for
// another's at link time.
#define AEROLBM_CPU_ROW_VARIANTS(ISA, ATTRIBUTE)                                                                    \
  template <class L, class T, class R, bool Force, int Les>                                                          \
  ATTRIBUTE void pull_run_##ISA(const GridView& g, std::int64_t stride, const CollisionConstants<R>& k,            \
                                const T* src, T* dst, int y, int z, int x0, int x1) {                              \
    pull_row<L, T, R, Force, Les>(g, stride, k, src, dst, y, z, x0, x1);                                           \
  }                                                                                                                  \
  template <class L, class T, class R, bool Force, int Les>                                                          \
  ATTRIBUTE void blocks_run_##ISA(const CollisionConstants<R>& k0, const T* const* ld, T* const* st, int x0,       \
                                  int x1) {                                                                          \
    const CollisionConstants<R> k = fixed_constants<R, Force, Les>(k0);                                              \
    const T* l[L::Q];                                                                                                \
    T* s[L::Q];                                                                                                      \
    for (int i = 0; i < L::Q; ++i) {                                                                                 \
      l[i] = ld[i];                                                                                                  \
      s[i] = st[i];                                                                                                  \
    }                                                                                                                \
    if (les_branch_known<R, Les>(k)) pull_blocks<L, T, R>(k, l, s, x0, x1);                                         \
  }                                                                                                                  \
  template <class L, class T, class R, bool Force, int Les, bool Odd>                                                \
  ATTRIBUTE void aa_run_##ISA(const GridView& g, std::int64_t stride, const CollisionConstants<R>& k, T* f, int y,  \
                              int z, int x0, int x1) {                                                             \
    aa_row<L, T, R, Force, Les, Odd>(g, stride, k, f, y, z, x0, x1);                                               \
  }                                                                                                                  \
  template <class L, class T, class R>                                                                               \
  ATTRIBUTE void sponge_run_##ISA(const R* fs, const R* sigma, T* const* st, int x0, int x1) {                     \
    sponge_cells<L, T, R>(fs, sigma, st, x0, x1);                                                                    \
  }

AEROLBM_CPU_ROW_VARIANTS(base, )
#if AEROLBM_CPU_X86
AEROLBM_CPU_ROW_VARIANTS(avx2, __attribute__((target("avx2,fma"))))
AEROLBM_CPU_ROW_VARIANTS(avx512, __attribute__((target("arch=x86-64-v4"))))
AEROLBM_CPU_ROW_VARIANTS(avx512_256, __attribute__((target("arch=x86-64-v4,prefer-vector-width=256"))))
#endif
#undef AEROLBM_CPU_ROW_VARIANTS

// The run functions for the constants of a case and the CPU, chosen once.
template <class L, class T, class R>
struct RunKernels {
  using Pull = void (*)(const GridView&, std::int64_t, const CollisionConstants<R>&, const T*, T*, int, int, int, int);
  using InPlace = void (*)(const GridView&, std::int64_t, const CollisionConstants<R>&, T*, int, int, int, int);
  // Cells x0 .. x1−1 from the Q load pointers to the Q store pointers (indexed by x): the face segments.
  using Blocks = void (*)(const CollisionConstants<R>&, const T* const*, T* const*, int, int);
  // The sponge on the values of cells x0 .. x1−1 (sponge_cells: free stream, σ per cell, store pointers).
  using Sponge = void (*)(const R*, const R*, T* const*, int, int);
  Pull pull = nullptr;
  Blocks blocks = nullptr;
  Sponge sponge = &sponge_run_base<L, T, R>;
  InPlace aa_even = nullptr, aa_odd = nullptr;
  Isa isa = Isa::base;

  // fp64, the CPU's reference precision, runs the baseline rows only: each wider variant is another copy of every
  // row function, and fp64 runs are for accuracy, not speed. Of the two AVX-512 variants D2Q9 and D3Q27 compile the
  // 512-bit one; D3Q19 compiles both for the pull (full_width_avx512 picks) and the 256-bit one in place.
  // AEROLBM_CPU_BASE_ROWS_ONLY (the sanitizer build, scripts/sanitize.sh): the baseline rows alone, whose memory
  // accesses the wider variants share line for line.
#ifdef AEROLBM_CPU_BASE_ROWS_ONLY
  static constexpr bool kWide = false;
#else
  static constexpr bool kWide = !std::is_same_v<T, double>;
#endif

  template <bool Force, int Les>
  void set() {
#if AEROLBM_CPU_X86
    if constexpr (kWide) {
      if constexpr (L::Q == 19) {
        // AVX-512 registers, 256-bit vectors: for D3Q19 on rows of ~100 cells this measured 10-20 % faster than
        // 512-bit vectors (and as fast as AVX2 or faster); for D2Q9 and D3Q27 the 512-bit ones are faster by as much.
        // Where the CPU runs 512-bit vectors at full width, the pull takes them (full_width_avx512).
        if (isa == Isa::avx512) {
          const bool wide = full_width_avx512();
          pull = wide ? &pull_run_avx512<L, T, R, Force, Les> : &pull_run_avx512_256<L, T, R, Force, Les>;
          blocks = wide ? &blocks_run_avx512<L, T, R, Force, Les> : &blocks_run_avx512_256<L, T, R, Force, Les>;
          aa_even = &aa_run_avx512_256<L, T, R, Force, Les, false>;
          aa_odd = &aa_run_avx512_256<L, T, R, Force, Les, true>;
          return;
        }
      } else {
        if (isa == Isa::avx512) {
          pull = &pull_run_avx512<L, T, R, Force, Les>;
          blocks = &blocks_run_avx512<L, T, R, Force, Les>;
          aa_even = &aa_run_avx512<L, T, R, Force, Les, false>;
          aa_odd = &aa_run_avx512<L, T, R, Force, Les, true>;
          return;
        }
      }
      if (isa == Isa::avx2) {
        pull = &pull_run_avx2<L, T, R, Force, Les>;
        blocks = &blocks_run_avx2<L, T, R, Force, Les>;
        aa_even = &aa_run_avx2<L, T, R, Force, Les, false>;
        aa_odd = &aa_run_avx2<L, T, R, Force, Les, true>;
        return;
      }
    }
#endif
    pull = &pull_run_base<L, T, R, Force, Les>;
    blocks = &blocks_run_base<L, T, R, Force, Les>;
    aa_even = &aa_run_base<L, T, R, Force, Les, false>;
    aa_odd = &aa_run_base<L, T, R, Force, Les, true>;
  }
  template <bool Force>
  void pick(Les les) {
    switch (les) {
      case no_les: return set<Force, no_les>();
      case les_bgk: return set<Force, les_bgk>();
      case les_trt: return set<Force, les_trt>();
      case kbc: return set<Force, kbc>();
      case kbc_les: return set<Force, kbc_les>();
    }
  }
  explicit RunKernels(const CollisionConstants<R>& k) : isa(kWide ? cpu_isa() : Isa::base) {
    const bool les_on = k.les_c > R(0);
    const Les les = k.entropic ? (les_on ? kbc_les : kbc) : (!les_on ? no_les : (k.trt ? les_trt : les_bgk));
    if (k.has_force) {
      pick<true>(les);
    } else {
      pick<false>(les);
    }
#if AEROLBM_CPU_X86
    if constexpr (kWide) {
      if (isa == Isa::avx512)
        sponge = L::Q == 19 && !full_width_avx512() ? &sponge_run_avx512_256<L, T, R> : &sponge_run_avx512<L, T, R>;
      if (isa == Isa::avx2) sponge = &sponge_run_avx2<L, T, R>;
    }
#endif
  }
};

}  // namespace aerolbm::cpu
