#pragma once
// Grid refinement, ratio 2, cell-centred and volumetric (Rohde et al. 2006; docs/grid_refinement.md): the rules by
// which populations cross between a level and the next finer one. Each level is a plain grid with its own lattice
// units (Δx and Δt halve, τ − ½ doubles, the lattice velocity stays), stepped by the ordinary kernels; what crosses
// an interface is set in the finer level's ghost band (two fine cells: one coarse cell) and in the coarse cells the
// fine level covers (its ring next to the uncovered cells), once per coarse step, as volumes:
//
// - explosion (coarse → fine): a ghost's population i for the first fine sub-step is its parent's post-collision
//   value; for the second it is the value that one fine step of pure streaming inside the band brings to it, the
//   parent's of the ghost at −c_i (the ghost's own parent where −c_i leaves the band; across a free-slip face, the
//   mirror image's: the population mirrored). Over the two sub-steps each
//   of the 2^D children of a coarse cell then enters the fine level exactly once along every c_i that points into
//   it, convex corners included: the coarse cell's mass along c_i, f_i V, is what the fine level receives.
// - coalescence (fine → coarse): a covered coarse cell G's population i, which the coarse cell at G + c_i pulls, is
//   the sum of the fine populations i that leave the fine level's owned cells from G's children (see
//   src/solver/refined_levels.cpp for which children count for which G) over the fine states t and t + ½ (the
//   two sub-steps), divided by 2^D: what left the fine level in the coarse step, centred on t + ¼, where the
//   crossings, a quarter cell off G along c_i, put it to first order (docs/grid_refinement.md). Then the mean over
//   children smooths what varies along the interface (by 1/32 of its second difference along the ring per coarse
//   step, a numerical viscosity that dominates as τ → ½); a population along an axis gets that back, as
//   −1/128 × (the value two ring cells on − its own) from each side along the ring (ring_value): exchanged
//   between pairs, so the budget stays exact; two cells apart, so the ring's two-cell checkerboard is not
//   amplified (measured stable at τ = 0.505). Every crossing is handed over within its coarse step, so what the
//   coarse level receives is exactly what left the fine level.
//
// Across the faces and edges of a box, mass and momentum are then conserved to rounding (each population's volume
// is handed over unchanged); at its corners, see coalesced(). A box may lie on a free-slip face (a symmetry plane,
// as a half wing's root plane is): the levels' steps reflect there, and the hand-over reads the mirror image
// beyond it as the step does (the populations mirrored), so the half domain hands over what the whole, mirrored
// domain would.
#include <cstdint>

#include "kernels/physics/hd.hpp"

namespace aerolbm::refinement {

// floor(v / 2): the coarser level's coordinate of a finer level's cell (both in their level's global coordinates).
AEROLBM_HD std::int64_t parent_coordinate(std::int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// The coarse value of a population from the sum of the `count` fine values that crossed over the two fine
// sub-steps (shifted storage, equilibrium.hpp), on a lattice of D dimensions. Across a face or an edge count = 2^D,
// and the coarse cell receives exactly what left the fine level: the sum over 2^D (a power of two, exact). At a
// corner of the box fewer children send along a diagonal than a coarse population holds; there it is their mean,
// which keeps a uniform state uniform at the price of exact conservation in that one cell.
template <int D>
AEROLBM_HD double coalesced(double sum_shifted, double count) {
  return count == double(1 << D) ? sum_shifted / double(1 << D) : sum_shifted / count;
}

// The hand-over's arithmetic, in double whatever the storage, written once for both backends
// (src/solver/refined_levels.cpp builds the tables; kernels/level_coupling.hpp runs them on the host or the
// device). Each function reads one population i of a list of cells through a `Column` v, v[k] being the value of
// the k-th: the lattice's row i itself where k is a cell, or read through a list of cells (ListedColumn).

// Population i of the listed cells, read where the lattice holds it: row = the lattice's row i (state + i × cells).
template <class T>
struct ListedColumn {
  const T* row;
  const std::int64_t* cells;
  AEROLBM_HD T operator[](std::int64_t k) const { return row[cells[k]]; }
};

// A neighbour entry of child_value that stands for the parent itself seen across a free-slip face (a symmetry
// plane): its mirror image, whose population i is the parent's own population i mirrored along that axis.
inline constexpr std::int32_t kMirrorImage = -2;

// Parent p's population at its child b (bit a: the upper half along axis a): f + Σ_a ±¼ slope_a, the slope along
// a central where both neighbours (neighbour[6 p + 2 a], [6 p + 2 a + 1]: indices into the parents' list, −1
// where the neighbour is not an own fluid cell, kMirrorImage across a free-slip face: mirrored(a, p), the parent's
// population mirrored along a) are there, one-sided where one is, none where neither is, so that the 2^D children
// keep the parent's sum exactly.
template <class Column, class Mirrored>
AEROLBM_HD double child_value(const Column& v, const std::int32_t* neighbour, std::int64_t p, unsigned b, int dims,
                              const Mirrored& mirrored) {
  const double own = double(v[p]);
  double value = own;
  for (int a = 0; a < dims; ++a) {
    const std::int32_t lo = neighbour[6 * p + 2 * a], hi = neighbour[6 * p + 2 * a + 1];
    const bool has_lo = lo >= 0 || lo == kMirrorImage, has_hi = hi >= 0 || hi == kMirrorImage;
    const double below = lo >= 0 ? double(v[lo]) : has_lo ? double(mirrored(a, p)) : 0.0;
    const double above = hi >= 0 ? double(v[hi]) : has_hi ? double(mirrored(a, p)) : 0.0;
    double slope = 0;
    if (has_lo && has_hi) slope = 0.5 * (above - below);
    else if (has_hi) slope = above - own;
    else if (has_lo) slope = own - below;
    value += ((b >> a) & 1u ? 0.25 : -0.25) * slope;
  }
  return value;
}

// Σ weight × value over the crossings of ring cell r's population i (CSR: begin[r q + i] .. begin[r q + i + 1]
// into cell/dir/weight): the fine cell's population dir, read from the fine lattice (population d of cell n at
// d × stride + n). dir is i except where the crossing was mirrored at a free-slip face on its way.
template <class T>
AEROLBM_HD double crossing_sum(const T* fine, std::int64_t stride, const std::int32_t* begin, const std::int32_t* cell,
                               const std::uint8_t* dir, const double* weight, std::int64_t r, int q, int i) {
  double sum = 0;
  for (std::int32_t j = begin[r * q + i]; j < begin[r * q + i + 1]; ++j)
    sum += weight[j] * double(fine[std::int64_t(dir[j]) * stride + cell[j]]);
  return sum;
}

// Ring cell r's coalesced population i from its crossings' sum over the two sub-steps (`sum`); a direction without
// crossings (no uncovered cell pulls it) takes the mean of its 2^D children (ring_children[2^D r + b]) in v, the
// children's population i.
template <int D, class Column>
AEROLBM_HD double coalesced_value(double sum, const Column& v, const std::int32_t* begin, const double* weight,
                                  const std::int32_t* ring_children, std::int64_t r, int q, int i) {
  double w = 0;
  for (std::int32_t j = begin[r * q + i]; j < begin[r * q + i + 1]; ++j) w += 2 * weight[j];  // both sub-steps
  if (w > 0) return coalesced<D>(sum, w);
  double value = 0;
  for (int b = 0; b < (1 << D); ++b) value += double(v[ring_children[(r << D) + b]]);
  return value / double(1 << D);
}

// The hand-over per value, for both backends' loops (kernels/level_coupling.hpp): the tables as raw arrays (host
// or device memory, LevelCouplingTables), each laid out by the value it computes, and the levels' lattices in
// place (population i of cell n at i × stride + n; cells as 32-bit indices).
struct CouplingView {
  int dims, q;
  std::int64_t ghost_reads, ring_reads;  // how many values of the band and of the ring are read
  // Per band value read: its population, its fine cell, and per fine sub-step the parent slot and child it comes
  // from, the second with the population it comes as (read_dir except across a free-slip face).
  const std::uint8_t* read_dir;
  const std::uint8_t* read_dir1;
  const std::int32_t* read_cell;
  const std::int32_t* read_source0;
  const std::int32_t* read_source1;
  const std::uint8_t* read_child0;
  const std::uint8_t* read_child1;
  const std::int32_t* neighbour;     // parents proper × 6: parent slots (child_value)
  const std::int64_t* parent_cells;  // slot → coarse cell
  const std::uint8_t* mirror;        // 3 × Q: population i mirrored along axis a at a × Q + i
  // Per ring value read: j = r × Q + i, with its crossings (CSR over ring × Q) by fine cell and weight.
  const std::int32_t* ring_read;
  const std::int32_t* cross_begin;
  const std::int32_t* cross_cell;
  const std::uint8_t* cross_dir;
  const double* cross_weight;
  const std::int32_t* ring_child_cell;  // ring × 2^D: the children's fine cells
  const std::int32_t* ring_cell;        // the ring's coarse cells
  // Per ring value read: the values it exchanges with along the ring (CSR over ring reads, indices into them).
  const std::int32_t* along_begin;
  const std::int32_t* along;
  double* sums;    // per ring value read: the first sub-step's crossings
  double* staged;  // per ring value read: its coalesced value, before the exchange along the ring
};

// What a population along an axis takes from each ring value two cells away along the ring, per unit of their
// difference: −1/32 of the second difference over twice the spacing, (v(r + 2) − 2 v(r) + v(r − 2)) / 4.
inline constexpr double kAlongRing = -1.0 / 128.0;

// A parent's population i mirrored along axis a (child_value's kMirrorImage neighbour).
template <class T>
struct MirroredParent {
  const T* coarse;
  std::int64_t stride;
  const std::int64_t* cells;
  const std::uint8_t* mirror;
  int q, i;
  AEROLBM_HD T operator()(int a, std::int64_t p) const {
    return coarse[std::int64_t(mirror[a * q + i]) * stride + cells[p]];
  }
};

// The t-th band value read: the mean of its two sub-steps' child values from the coarse state, into both fine
// lattices (no step writes a ghost cell, so it holds for both sub-steps).
template <class T>
AEROLBM_HD void explode_value(const CouplingView& v, std::int64_t t, const T* coarse, std::int64_t coarse_stride,
                              T* fine_a, T* fine_b, std::int64_t fine_stride) {
  const int i = v.read_dir[t], i1 = v.read_dir1[t];
  const ListedColumn<T> parents{coarse + std::int64_t(i) * coarse_stride, v.parent_cells};
  const ListedColumn<T> parents1{coarse + std::int64_t(i1) * coarse_stride, v.parent_cells};
  const MirroredParent<T> mirrored{coarse, coarse_stride, v.parent_cells, v.mirror, v.q, i};
  const MirroredParent<T> mirrored1{coarse, coarse_stride, v.parent_cells, v.mirror, v.q, i1};
  const double a = child_value(parents, v.neighbour, v.read_source0[t], v.read_child0[t], v.dims, mirrored);
  const double b = child_value(parents1, v.neighbour, v.read_source1[t], v.read_child1[t], v.dims, mirrored1);
  const T value = T(0.5 * (a + b));
  const std::int64_t n = std::int64_t(i) * fine_stride + v.read_cell[t];
  fine_a[n] = value;
  fine_b[n] = value;
}

// The t-th ring value read, j = r × Q + i, from the crossings of the fine state. Sub-step 0 (before fine
// sub-step 0): sums = them; 1 (before sub-step 1): staged = ring cell r's population i coalesced from sums + them.
template <int D, class T>
AEROLBM_HD void crossings_value(const CouplingView& v, std::int64_t t, int sub, const T* fine,
                                std::int64_t fine_stride) {
  const std::int64_t j = v.ring_read[t];
  const std::int64_t r = j / v.q;
  const int i = int(j % v.q);
  const double now =
      crossing_sum(fine, fine_stride, v.cross_begin, v.cross_cell, v.cross_dir, v.cross_weight, r, v.q, i);
  if (sub == 0) {
    v.sums[t] = now;
  } else {
    const T* children = fine + std::int64_t(i) * fine_stride;  // population i, by fine cell
    v.staged[t] = coalesced_value<D>(v.sums[t] + now, children, v.cross_begin, v.cross_weight, v.ring_child_cell,
                                     r, v.q, i);
  }
}

// The t-th ring value read into the coarse state, after every value was staged: its coalesced value plus, for a
// population along an axis, what it exchanges with the values two ring cells away (kAlongRing; none elsewhere).
template <class T>
AEROLBM_HD void ring_value(const CouplingView& v, std::int64_t t, T* coarse, std::int64_t coarse_stride) {
  const std::int64_t j = v.ring_read[t];
  const double own = v.staged[t];
  double value = own;
  for (std::int32_t k = v.along_begin[t]; k < v.along_begin[t + 1]; ++k)
    value += kAlongRing * (v.staged[v.along[k]] - own);
  coarse[(j % v.q) * coarse_stride + v.ring_cell[j / v.q]] = T(value);
}

}  // namespace aerolbm::refinement
