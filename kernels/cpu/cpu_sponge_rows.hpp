#pragma once
// The sponge layer's σ along the grid rows, tabulated. sponge_sigma(x, y, z) is a function of the distance d to the
// nearest sponge face, the minimum of the x faces' terms and of a term d_yz that is the same for every cell of a
// row (y, z): so two rows with the same d_yz have the same σ at every x, and a grid has only a few dozen distinct
// d_yz. Each distinct one gets a table of nx values, filled by sponge_sigma itself at a row of that class (the same
// numbers the row walk used to compute for each of its cells, one cell at a time: on the CI half wing, whose layer
// holds half its cells, that walk was as costly as the sponge's own arithmetic), and, per x, how many cells from x
// up and from x down have σ > 0, so that a row segment finds the cells the sponge relaxes in constant time. Rebuilt
// only when the sponge's constants change (they do not during the inflow ramp); the free stream, which the ramp
// scales, is taken each step.
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "kernels/physics/boundaries.hpp"

namespace aerolbm::cpu {

template <class L, class R>
struct SpongeRows {
  std::vector<std::int32_t> table;  // per grid row y + ny·z: its table
  std::vector<R> sigma;             // per table, nx values of σ
  std::vector<std::int32_t> up;     // per table and x: cells x, x+1, ... with σ > 0 before the first without
  std::vector<std::int32_t> down;   // per table and x: cells x, x−1, ... with σ > 0
  R fs[L::Q];                       // the free stream's populations of the step
  int nx = 0;

  // For the constants of this step (k.sponge_faces set).
  void update(const GridView& g, const StepConstants<R>& k) {
    for (int i = 0; i < L::Q; ++i) fs[i] = free_stream_population<L, R>(k, i);
    bool same = built_ && strength_ == k.sponge_strength && inv_width_ == k.sponge_inv_width;
    for (int f = 0; same && f < 6; ++f) same = pad_[f] == k.sponge_pad[f];
    if (same) return;
    built_ = true;
    strength_ = k.sponge_strength;
    inv_width_ = k.sponge_inv_width;
    for (int f = 0; f < 6; ++f) pad_[f] = k.sponge_pad[f];
    nx = g.n[0];
    const std::int64_t rows = std::int64_t(g.n[1]) * g.n[2];
    table.assign(std::size_t(rows), 0);
    sigma.clear();
    up.clear();
    down.clear();
    std::map<std::int32_t, std::int32_t> of_distance;
    for (std::int64_t r = 0; r < rows; ++r) {
      const int y = int(r % g.n[1]), z = int(r / g.n[1]);
      const int c[3] = {0, y + g.origin[1], z + g.origin[2]};
      std::int32_t d = kSpongeFar;  // as sponge_sigma takes it, for the axes other than x
      for (int a = 1; a < L::D; ++a) {
        d = std::min(d, c[a] + k.sponge_pad[2 * a]);
        d = std::min(d, g.global_size(a) - 1 - c[a] + k.sponge_pad[2 * a + 1]);
      }
      const auto [it, added] = of_distance.emplace(d, std::int32_t(of_distance.size()));
      table[std::size_t(r)] = it->second;
      if (!added) continue;
      const std::size_t t0 = sigma.size();
      sigma.resize(t0 + std::size_t(nx));
      up.resize(t0 + std::size_t(nx));
      down.resize(t0 + std::size_t(nx));
      for (int x = 0; x < nx; ++x) sigma[t0 + x] = sponge_sigma<L, R>(g, k, x, y, z);
      for (int x = 0, n = 0; x < nx; ++x) down[t0 + x] = n = sigma[t0 + x] > R(0) ? n + 1 : 0;
      for (int x = nx - 1, n = 0; x >= 0; --x) up[t0 + x] = n = sigma[t0 + x] > R(0) ? n + 1 : 0;
    }
  }

  // Row (y, z)'s σ, indexed by x.
  const R* row(int y, int z, const GridView& g) const {
    return sigma.data() + std::size_t(table[std::size_t(y + std::int64_t(g.n[1]) * z)]) * std::size_t(nx);
  }
  // The cells of x0 .. x1−1 the sponge relaxes, as the walk in from both ends finds them (σ > 0 from x0 up to the
  // first cell without, and from x1 − 1 down to the next one): [x0, lo) and [hi, x1).
  void ends(int y, int z, const GridView& g, int x0, int x1, int& lo, int& hi) const {
    const std::size_t t = std::size_t(table[std::size_t(y + std::int64_t(g.n[1]) * z)]) * std::size_t(nx);
    lo = x0 + std::min(up[t + x0], x1 - x0);
    hi = x1 - std::max(0, std::min(down[t + x1 - 1], x1 - 1 - lo));
  }

 private:
  bool built_ = false;
  R strength_ = 0, inv_width_ = 0;
  std::int32_t pad_[6] = {};
};

}  // namespace aerolbm::cpu
