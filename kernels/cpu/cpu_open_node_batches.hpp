#pragma once
// In place (AA): the open nodes of the gather phase (cpu_open_nodes.hpp) in batches of kOpenBatch nodes of one
// kind (inlet or outlet). Their populations are loaded one node at a time into a table, one row per direction and
// a column per node (the neighbour's from its slots in the lattice, or from the snapshot where it is a boundary
// cell; the node's own from the snapshot for the characteristic outlet); open_boundary_update then runs across the
// columns in a vector loop (`omp simd`), each
// column's arithmetic exactly that of open_boundary_cell for that node; the new values go to the next snapshot one
// node at a time. One node at a time, the update was about a tenth of the CI wing's in-place step (5,376 nodes of
// 258,048 cells, each about six times a row cell's cost). Compiled per ISA as the rows are (cpu_rows.hpp).
#include <cstdint>

#include "kernels/cpu/cpu_open_nodes.hpp"
#include "kernels/cpu/cpu_rows.hpp"

namespace aerolbm::cpu {

// Column j of the tables: get(i, m) reads the node's own population i where m is the node, else the neighbour's;
// put writes the new one.
template <class L, class R>
struct OpenNodeColumn {
  using stored_type = R;
  const R* fn;  // Q × kOpenBatch: the neighbours' populations
  const R* fb;  // Q × kOpenBatch: the nodes' own
  R* out;       // Q × kOpenBatch: the new ones
  std::int64_t own;
  int j;
  AEROLBM_HD R get(int i, std::int64_t m) const {
    const R b = fb[i * kOpenBatch + j], n = fn[i * kOpenBatch + j];  // both loaded: a select, no branch
    return m == own ? b : n;
  }
  AEROLBM_HD void put(int i, std::int64_t /*n: own*/, R v) const { out[i * kOpenBatch + j] = v; }
};

// The nodes at (x[j], y[j], z[j]), all inlets or all outlets (Inlet). Shape: the inlet's profile parabolic, or the
// outlet characteristic — k's own value, fixed at compile time (as fixed_constants fixes the collision's), so that
// the loop has no branch: the characteristic outlet's loads of the node's own populations would otherwise be
// conditional, which keeps the loop scalar.
template <class L, class R, bool Inlet, bool Shape>
AEROLBM_HD void open_node_columns(const GridView& g, const StepConstants<R>& k0, const int* xs, const int* ys,
                                  const int* zs, const R* fn, const R* fb, R* out) {
  StepConstants<R> k = k0;
  if constexpr (Inlet) {
    k.parabolic_inlet = Shape;
  } else {
    k.characteristic_outlet = Shape;
  }
#pragma omp simd
  for (int j = 0; j < kOpenBatch; ++j) {
    const int x[3] = {xs[j], ys[j], zs[j]};
    const std::int64_t n = g.index(x[0], x[1], x[2]);
    const OpenNodeColumn<L, R> acc{fn, fb, out, n, j};
    open_boundary_update<L, R>(g, k, acc, x, n, Inlet);
  }
}

#define AEROLBM_CPU_OPEN_VARIANTS(ISA, ATTRIBUTE)                                                                  \
  template <class L, class R, bool Inlet, bool Shape>                                                             \
  ATTRIBUTE void open_nodes_run_##ISA(const GridView& g, const StepConstants<R>& k, const int* xs, const int* ys, \
                                      const int* zs, const R* fn, const R* fb, R* out) {                         \
    open_node_columns<L, R, Inlet, Shape>(g, k, xs, ys, zs, fn, fb, out);                                         \
  }

AEROLBM_CPU_OPEN_VARIANTS(base, )
#if AEROLBM_CPU_X86
AEROLBM_CPU_OPEN_VARIANTS(avx2, __attribute__((target("avx2,fma"))))
AEROLBM_CPU_OPEN_VARIANTS(avx512_256, __attribute__((target("arch=x86-64-v4,prefer-vector-width=256"))))
#endif
#undef AEROLBM_CPU_OPEN_VARIANTS

// The batch functions, run[inlet][shape] (open_node_columns), for the ISA the rows run (256-bit vectors with
// AVX-512, as the D3Q19 in-place rows: the batches run among them); fp64 the baseline only, as its rows.
template <class L, class T, class R>
struct OpenNodeKernels {
  using Run = void (*)(const GridView&, const StepConstants<R>&, const int*, const int*, const int*, const R*,
                       const R*, R*);
  Run run[2][2] = {{&open_nodes_run_base<L, R, false, false>, &open_nodes_run_base<L, R, false, true>},
                   {&open_nodes_run_base<L, R, true, false>, &open_nodes_run_base<L, R, true, true>}};
  explicit OpenNodeKernels(Isa isa) {
#if AEROLBM_CPU_X86
    if constexpr (RunKernels<L, T, R>::kWide) {
      if (isa == Isa::avx512) {
        run[0][0] = &open_nodes_run_avx512_256<L, R, false, false>;
        run[0][1] = &open_nodes_run_avx512_256<L, R, false, true>;
        run[1][0] = &open_nodes_run_avx512_256<L, R, true, false>;
        run[1][1] = &open_nodes_run_avx512_256<L, R, true, true>;
      } else if (isa == Isa::avx2) {
        run[0][0] = &open_nodes_run_avx2<L, R, false, false>;
        run[0][1] = &open_nodes_run_avx2<L, R, false, true>;
        run[1][0] = &open_nodes_run_avx2<L, R, true, false>;
        run[1][1] = &open_nodes_run_avx2<L, R, true, true>;
      }
    }
#else
    (void)isa;
#endif
  }
};

// Batch b of the plan's open nodes (AAOpenNodes::batch): loaded, updated across, stored to the next snapshot.
template <class L, class T, class R>
void aa_open_node_batch(const GridView& g, const GridView& gs, const StepConstants<R>& k, const AAStorage<T>& s,
                        const OpenNodeKernels<L, T, R>& kernels, const AAOpenNodes& nodes, const AAOpenBatch& b) {
  alignas(64) R fn[L::Q * kOpenBatch], fb[L::Q * kOpenBatch], out[L::Q * kOpenBatch];
  int xs[kOpenBatch], ys[kOpenBatch], zs[kOpenBatch];
  const bool own = !b.inlet && k.characteristic_outlet;
  for (int j = 0; j < kOpenBatch; ++j) {
    // Columns past the batch's nodes repeat its first node (computed, not stored).
    const AAOpenNode& o = nodes.node[std::size_t(nodes.order[std::size_t(b.first + (j < b.count ? j : 0))])];
    xs[j] = o.x;
    ys[j] = o.y;
    zs[j] = o.z;
    const int nb[3] = {b.inlet ? o.x + 1 : o.x - 1, o.y, o.z};
    AEROLBM_UNROLL
    for (int i = 0; i < L::Q; ++i) {
      fn[i * kOpenBatch + j] = o.nb_row >= 0 ? R(s.snap[std::int64_t(i) * s.rows + o.nb_row])
                                             : R(s.f[aa_slot<L>(gs, s.odd, i, nb)]);  // interior: all inside
      fb[i * kOpenBatch + j] = own ? R(s.snap[std::int64_t(i) * s.rows + o.row]) : R(0);
    }
  }
  kernels.run[b.inlet ? 1 : 0][b.inlet ? k.parabolic_inlet : k.characteristic_outlet](g, k, xs, ys, zs, fn, fb, out);
  for (int j = 0; j < b.count; ++j) {
    const AAOpenNode& o = nodes.node[std::size_t(nodes.order[std::size_t(b.first + j)])];
    AEROLBM_UNROLL
    for (int i = 0; i < L::Q; ++i) s.snap_next[std::int64_t(i) * s.rows + o.row] = T(out[i * kOpenBatch + j]);
  }
}

}  // namespace aerolbm::cpu
