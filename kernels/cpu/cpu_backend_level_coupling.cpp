// The refined levels' hand-over on the host (kernels/level_coupling.hpp), for the CPU backend, through its halo
// buffers (host memory: each call packs what it reads and unpacks what it writes); make_level_coupling picks the
// CUDA form for CUDA backends. Compiled without FMA contraction, as the CPU backend's files are, so that it rounds
// as the device kernels (-fmad=false) do.
#include <omp.h>

#include <stdexcept>
#include <vector>

#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

namespace {

template <class T>
class HostLevelCoupling final : public LevelCoupling {
 public:
  HostLevelCoupling(Backend& coarse, Backend& fine, const LevelCouplingTables& t, int threads)
      : t_(t),
        threads_(threads > 0 ? threads : omp_get_max_threads()),
        coarse_(coarse),
        fine_(fine),
        parents_list_(coarse.halo_register(t.parent_cells, all_directions(t.q))),
        ring_list_(coarse.halo_register(t.ring_cells, all_directions(t.q))),
        ghosts_list_(fine.halo_register(t.ghost_cells, all_directions(t.q))),
        children_list_(fine.halo_register(t.children_cells, all_directions(t.q))),
        parents_(static_cast<const T*>(coarse.halo_buffer(parents_list_).host)),
        ring_(static_cast<T*>(coarse.halo_buffer(ring_list_).host)),
        ghosts_(static_cast<T*>(fine.halo_buffer(ghosts_list_).host)),
        children_(static_cast<const T*>(fine.halo_buffer(children_list_).host)),
        sums_(std::size_t(t.ring * t.q), 0.0),
        pending_(std::size_t(t.ring * t.q), 0.0) {}

  // Into the ghost buffer, unpacked before each sub-step (the fine level's two lattices swap at each step).
  // Every value on its own (the loops split over threads; the bits do not depend on how).
  void explode() override {
    coarse_.queue_halo_pack(parents_list_);
    const std::int64_t ng = t_.ghosts;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_) if (ng * t_.q > kSerial)
    for (int i = 0; i < t_.q; ++i)
      for (std::int64_t g = 0; g < ng; ++g) {
        const std::size_t at = std::size_t(g * t_.q + i);
        const T* v = parents_ + std::int64_t(i) * t_.parents;
        const double a =
            refinement::child_value(v, t_.neighbour.data(), t_.source[0][at], t_.source_child[0][at], t_.dims);
        const double b =
            refinement::child_value(v, t_.neighbour.data(), t_.source[1][at], t_.source_child[1][at], t_.dims);
        ghosts_[std::int64_t(i) * ng + g] = T(0.5 * (a + b));
      }
  }

  void before_sub_step(int sub) override {
    fine_.queue_halo_unpack(ghosts_list_);
    fine_.queue_halo_pack(children_list_);
#pragma omp parallel for schedule(static) num_threads(threads_) if (t_.ring * t_.q > kSerial)
    for (std::int64_t r = 0; r < t_.ring; ++r)
      for (int i = 0; i < t_.q; ++i) {
        const std::size_t j = std::size_t(r * t_.q + i);
        const double now = crossing(r, i);
        if (sub == 0) {
          sums_[j] = pending_[j] + now;
        } else {
          sums_[j] += 0.5 * now;
          pending_[j] = 0.5 * now;
        }
      }
    if (sub == 1) coalesce();
  }

  void restart_pending() override {
    fine_.queue_halo_pack(children_list_);
#pragma omp parallel for schedule(static) num_threads(threads_) if (t_.ring * t_.q > kSerial)
    for (std::int64_t r = 0; r < t_.ring; ++r)
      for (int i = 0; i < t_.q; ++i) pending_[std::size_t(r * t_.q + i)] = 0.5 * crossing(r, i);
  }

  void read_pending(std::vector<double>& out) override { out = pending_; }

  void write_pending(const std::vector<double>& in) override {
    if (in.size() != pending_.size()) throw std::invalid_argument("refinement: wrong length of values in transit");
    pending_ = in;
  }

 private:
  static std::vector<int> all_directions(int q) {
    std::vector<int> all(static_cast<std::size_t>(q));
    for (int i = 0; i < q; ++i) all[std::size_t(i)] = i;
    return all;
  }

  // The ring buffer from the sums and the children buffer (the state the crossings of sub-step 1 were taken of),
  // unpacked into the coarse level's current state.
  void coalesce() {
    const std::int64_t nr = t_.ring;
#pragma omp parallel for schedule(static) num_threads(threads_) if (nr * t_.q > kSerial)
    for (std::int64_t r = 0; r < nr; ++r)
      for (int i = 0; i < t_.q; ++i) {
        const double s = sums_[std::size_t(r * t_.q + i)];
        const T* v = children_ + std::int64_t(i) * t_.children;
        const double c = t_.dims == 2 ? refinement::coalesced_value<2>(s, v, t_.cross_begin.data(),
                                                                       t_.cross_weight.data(),
                                                                       t_.ring_children.data(), r, t_.q, i)
                                      : refinement::coalesced_value<3>(s, v, t_.cross_begin.data(),
                                                                       t_.cross_weight.data(),
                                                                       t_.ring_children.data(), r, t_.q, i);
        ring_[std::int64_t(i) * nr + r] = T(c);
      }
    coarse_.queue_halo_unpack(ring_list_);
  }

  double crossing(std::int64_t r, int i) const {
    return refinement::crossing_sum(children_ + std::int64_t(i) * t_.children, t_.cross_begin.data(),
                                    t_.cross_child.data(), t_.cross_weight.data(), r, t_.q, i);
  }

  static constexpr std::int64_t kSerial = 4096;  // values below which one thread does it all
  LevelCouplingTables t_;
  int threads_;
  Backend& coarse_;
  Backend& fine_;
  int parents_list_, ring_list_, ghosts_list_, children_list_;
  const T* parents_;
  T* ring_;
  T* ghosts_;
  const T* children_;
  std::vector<double> sums_, pending_;
};

}  // namespace

std::unique_ptr<LevelCoupling> make_level_coupling(Backend& coarse, Backend& fine, const LevelCouplingTables& tables,
                                                   int threads) {
  if (coarse.kind() != fine.kind()) throw std::invalid_argument("refinement: the levels run on different backends");
  if (coarse.kind() == BackendKind::Cuda) return make_cuda_level_coupling(coarse, fine, tables);
  if (coarse.population_bytes() == sizeof(float))
    return std::make_unique<HostLevelCoupling<float>>(coarse, fine, tables, threads);
  if (coarse.population_bytes() == sizeof(double))
    return std::make_unique<HostLevelCoupling<double>>(coarse, fine, tables, threads);
  throw std::invalid_argument("refinement: fp32 or fp64 storage only");
}

}  // namespace aerolbm
