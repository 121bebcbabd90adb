#pragma once
// Velocity sets as compile-time types. Directions come in opposite pairs: 0 is rest, then (2k−1, 2k) are opposites,
// so opp(i) needs no table. Every accessor is constexpr so fully unrolled loops fold to constants on both backends.
// The velocities are kept as three 64-bit words of 2-bit codes per direction (packed at compile time from the
// tables below), not as an array: c(i, a) is then shifts and compares on constants, which the device compiler
// folds at once; an array local to c() was materialised at every inlined call, and the boundary code of the
// one-pass kernels (thousands of calls) took tens of minutes to compile for D3Q27.
#include <cstdint>

#include "kernels/physics/hd.hpp"

namespace aerolbm {

namespace lattice_detail {

// Code of one component: 0 → 00, +1 → 01, −1 → 11.
template <int Q>
constexpr std::uint64_t pack(const int (&v)[Q][3], int a) {
  std::uint64_t bits = 0;
  for (int i = 0; i < Q; ++i) {
    const std::uint64_t code = v[i][a] == 0 ? 0u : (v[i][a] > 0 ? 1u : 3u);
    bits |= code << (2 * i);
  }
  return bits;
}

AEROLBM_HD constexpr int unpack(std::uint64_t bits, int i) {
  const int code = int((bits >> (2 * i)) & 3u);
  return code == 1 ? 1 : (code == 3 ? -1 : 0);
}

inline constexpr int d2q9[9][3] = {{0, 0, 0}, {1, 0, 0},   {-1, 0, 0}, {0, 1, 0}, {0, -1, 0},
                                   {1, 1, 0}, {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}};
inline constexpr int d3q19[19][3] = {{0, 0, 0},  {1, 0, 0},  {-1, 0, 0},  {0, 1, 0},  {0, -1, 0},
                                     {0, 0, 1},  {0, 0, -1}, {1, 1, 0},   {-1, -1, 0}, {1, 0, 1},
                                     {-1, 0, -1}, {0, 1, 1}, {0, -1, -1}, {1, -1, 0}, {-1, 1, 0},
                                     {1, 0, -1}, {-1, 0, 1}, {0, 1, -1},  {0, -1, 1}};
inline constexpr int d3q27[27][3] = {
    {0, 0, 0},   {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {0, -1, 0},  {0, 0, 1},   {0, 0, -1},
    {1, 1, 0},   {-1, -1, 0}, {1, 0, 1},   {-1, 0, -1}, {0, 1, 1},   {0, -1, -1}, {1, -1, 0},
    {-1, 1, 0},  {1, 0, -1},  {-1, 0, 1},  {0, 1, -1},  {0, -1, 1},  {1, 1, 1},   {-1, -1, -1},
    {1, 1, -1},  {-1, -1, 1}, {1, -1, 1},  {-1, 1, -1}, {-1, 1, 1},  {1, -1, -1}};

}  // namespace lattice_detail

struct D2Q9 {
  static constexpr int D = 2, Q = 9;
  static constexpr const char* name = "D2Q9";
  static constexpr std::uint64_t cx = lattice_detail::pack(lattice_detail::d2q9, 0),
                                 cy = lattice_detail::pack(lattice_detail::d2q9, 1),
                                 cz = lattice_detail::pack(lattice_detail::d2q9, 2);
  AEROLBM_HD static constexpr int c(int i, int a) { return lattice_detail::unpack(a == 0 ? cx : (a == 1 ? cy : cz), i); }
  AEROLBM_HD static constexpr double w(int i) {
    return i == 0 ? 4.0 / 9.0 : (i < 5 ? 1.0 / 9.0 : 1.0 / 36.0);
  }
};

struct D3Q19 {
  static constexpr int D = 3, Q = 19;
  static constexpr const char* name = "D3Q19";
  static constexpr std::uint64_t cx = lattice_detail::pack(lattice_detail::d3q19, 0),
                                 cy = lattice_detail::pack(lattice_detail::d3q19, 1),
                                 cz = lattice_detail::pack(lattice_detail::d3q19, 2);
  AEROLBM_HD static constexpr int c(int i, int a) { return lattice_detail::unpack(a == 0 ? cx : (a == 1 ? cy : cz), i); }
  AEROLBM_HD static constexpr double w(int i) {
    return i == 0 ? 1.0 / 3.0 : (i < 7 ? 1.0 / 18.0 : 1.0 / 36.0);
  }
};

struct D3Q27 {
  static constexpr int D = 3, Q = 27;
  static constexpr const char* name = "D3Q27";
  static constexpr std::uint64_t cx = lattice_detail::pack(lattice_detail::d3q27, 0),
                                 cy = lattice_detail::pack(lattice_detail::d3q27, 1),
                                 cz = lattice_detail::pack(lattice_detail::d3q27, 2);
  AEROLBM_HD static constexpr int c(int i, int a) { return lattice_detail::unpack(a == 0 ? cx : (a == 1 ? cy : cz), i); }
  AEROLBM_HD static constexpr double w(int i) {
    return i == 0 ? 8.0 / 27.0 : (i < 7 ? 2.0 / 27.0 : (i < 19 ? 1.0 / 54.0 : 1.0 / 216.0));
  }
};

// Opposite direction: pairs (2k−1, 2k).
AEROLBM_HD constexpr int opposite(int i) { return i == 0 ? 0 : ((i & 1) ? i + 1 : i - 1); }

namespace lattice_detail {

// The mirror table of a velocity set, searched once at compile time: the direction with component `axis` of c_i
// negated.
template <class L>
constexpr int mirror_search(int i, int axis) {
  for (int j = 0; j < L::Q; ++j) {
    bool same = true;
    for (int a = 0; a < 3; ++a)
      if (L::c(j, a) != (a == axis ? -L::c(i, a) : L::c(i, a))) same = false;
    if (same) return j;
  }
  return i;
}
// Twelve 5-bit entries per 64-bit word (directions 12w .. 12w + 11), three words per axis.
template <class L>
constexpr std::uint64_t pack_mirror(int axis, int word) {
  std::uint64_t bits = 0;
  for (int k = 0; k < 12 && 12 * word + k < L::Q; ++k)
    bits |= std::uint64_t(mirror_search<L>(12 * word + k, axis)) << (5 * k);
  return bits;
}
template <class L>
struct MirrorWords {
  static constexpr std::uint64_t x0 = pack_mirror<L>(0, 0), x1 = pack_mirror<L>(0, 1), x2 = pack_mirror<L>(0, 2),
                                 y0 = pack_mirror<L>(1, 0), y1 = pack_mirror<L>(1, 1), y2 = pack_mirror<L>(1, 2),
                                 z0 = pack_mirror<L>(2, 0), z1 = pack_mirror<L>(2, 1), z2 = pack_mirror<L>(2, 2);
};

}  // namespace lattice_detail

// Direction with component `axis` negated (specular reflection). Kept as packed words like the velocities (above):
// for a compile-time i and axis it folds to a constant; a search over the set, as this was, stayed a loop in the
// device code of every slip face's population (a run-time loop of 19 or 27 steps, and most of the list path's
// instructions).
template <class L>
AEROLBM_HD constexpr int mirror(int i, int axis) {
  using W = lattice_detail::MirrorWords<L>;
  const std::uint64_t w = axis == 0 ? (i < 12 ? W::x0 : (i < 24 ? W::x1 : W::x2))
                          : axis == 1 ? (i < 12 ? W::y0 : (i < 24 ? W::y1 : W::y2))
                                      : (i < 12 ? W::z0 : (i < 24 ? W::z1 : W::z2));
  const int k = i < 12 ? i : (i < 24 ? i - 12 : i - 24);
  return int((w >> (5 * k)) & 31u);
}

inline constexpr double cs2 = 1.0 / 3.0;  // lattice speed of sound squared, all three sets

}  // namespace aerolbm
