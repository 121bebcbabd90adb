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

// Direction with component `axis` negated (specular reflection).
template <class L>
AEROLBM_HD constexpr int mirror(int i, int axis) {
  int m = i;
  for (int j = 0; j < L::Q; ++j) {
    bool same = true;
    for (int a = 0; a < 3; ++a) {
      const int want = (a == axis) ? -L::c(i, a) : L::c(i, a);
      if (L::c(j, a) != want) same = false;
    }
    if (same) m = j;
  }
  return m;
}

inline constexpr double cs2 = 1.0 / 3.0;  // lattice speed of sound squared, all three sets

}  // namespace aerolbm
