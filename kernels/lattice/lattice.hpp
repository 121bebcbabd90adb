#pragma once
// Velocity sets as compile-time types. Directions come in opposite pairs: 0 is rest, then (2k−1, 2k) are opposites,
// so opp(i) needs no table. Every accessor is constexpr so fully unrolled loops fold to constants on both backends.
#include "kernels/physics/hd.hpp"

namespace aerolbm {

struct D2Q9 {
  static constexpr int D = 2, Q = 9;
  static constexpr const char* name = "D2Q9";
  AEROLBM_HD static constexpr int c(int i, int a) {
    constexpr int v[9][3] = {{0, 0, 0},  {1, 0, 0},   {-1, 0, 0}, {0, 1, 0}, {0, -1, 0},
                             {1, 1, 0},  {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}};
    return v[i][a];
  }
  AEROLBM_HD static constexpr double w(int i) {
    return i == 0 ? 4.0 / 9.0 : (i < 5 ? 1.0 / 9.0 : 1.0 / 36.0);
  }
};

struct D3Q19 {
  static constexpr int D = 3, Q = 19;
  static constexpr const char* name = "D3Q19";
  AEROLBM_HD static constexpr int c(int i, int a) {
    constexpr int v[19][3] = {{0, 0, 0},  {1, 0, 0},  {-1, 0, 0},  {0, 1, 0},  {0, -1, 0},
                              {0, 0, 1},  {0, 0, -1}, {1, 1, 0},   {-1, -1, 0}, {1, 0, 1},
                              {-1, 0, -1}, {0, 1, 1}, {0, -1, -1}, {1, -1, 0}, {-1, 1, 0},
                              {1, 0, -1}, {-1, 0, 1}, {0, 1, -1},  {0, -1, 1}};
    return v[i][a];
  }
  AEROLBM_HD static constexpr double w(int i) {
    return i == 0 ? 1.0 / 3.0 : (i < 7 ? 1.0 / 18.0 : 1.0 / 36.0);
  }
};

struct D3Q27 {
  static constexpr int D = 3, Q = 27;
  static constexpr const char* name = "D3Q27";
  AEROLBM_HD static constexpr int c(int i, int a) {
    constexpr int v[27][3] = {
        {0, 0, 0},   {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {0, -1, 0},  {0, 0, 1},   {0, 0, -1},
        {1, 1, 0},   {-1, -1, 0}, {1, 0, 1},   {-1, 0, -1}, {0, 1, 1},   {0, -1, -1}, {1, -1, 0},
        {-1, 1, 0},  {1, 0, -1},  {-1, 0, 1},  {0, 1, -1},  {0, -1, 1},  {1, 1, 1},   {-1, -1, -1},
        {1, 1, -1},  {-1, -1, 1}, {1, -1, 1},  {-1, 1, -1}, {-1, 1, 1},  {1, -1, -1}};
    return v[i][a];
  }
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
