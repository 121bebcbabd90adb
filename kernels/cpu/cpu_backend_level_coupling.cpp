// The refined levels' hand-over on the host (kernels/level_coupling.hpp), for the CPU backend, whose halo buffers
// are host memory; make_level_coupling picks the CUDA form for CUDA backends. Compiled without FMA contraction, as
// the CPU backend's files are, so that it rounds as the device kernels (-fmad=false) do.
#include <omp.h>

#include <stdexcept>

#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

namespace {

template <class T>
class HostLevelCoupling final : public LevelCoupling {
 public:
  HostLevelCoupling(Backend& coarse, Backend& fine, const LevelCouplingLists& lists, const LevelCouplingTables& t,
                    int threads)
      : t_(t),
        threads_(threads > 0 ? threads : omp_get_max_threads()),
        parents_(static_cast<const T*>(coarse.halo_buffer(lists.parents).host)),
        ring_(static_cast<T*>(coarse.halo_buffer(lists.ring).host)),
        ghosts_(static_cast<T*>(fine.halo_buffer(lists.ghosts).host)),
        children_(static_cast<const T*>(fine.halo_buffer(lists.children).host)),
        sums_(std::size_t(t.ring * t.q), 0.0),
        pending_(std::size_t(t.ring * t.q), 0.0) {}

  // Every value on its own (the loops split over threads; the bits do not depend on how).
  void explode() override {
    const std::int64_t ng = t_.ghosts;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_) if (ng * t_.q > kSerial)
    for (int i = 0; i < t_.q; ++i)
      for (std::int64_t g = 0; g < ng; ++g) {
        const std::size_t at = std::size_t(g * t_.q + i);
        const double a = refinement::child_value(parents_, t_.parents, t_.neighbour.data(), t_.source[0][at],
                                                 t_.source_child[0][at], i, t_.dims);
        const double b = refinement::child_value(parents_, t_.parents, t_.neighbour.data(), t_.source[1][at],
                                                 t_.source_child[1][at], i, t_.dims);
        ghosts_[std::int64_t(i) * ng + g] = T(0.5 * (a + b));
      }
  }

  void take_crossings(int sub) override {
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
  }

  void coalesce() override {
    const std::int64_t nr = t_.ring;
#pragma omp parallel for schedule(static) num_threads(threads_) if (nr * t_.q > kSerial)
    for (std::int64_t r = 0; r < nr; ++r)
      for (int i = 0; i < t_.q; ++i) {
        const double s = sums_[std::size_t(r * t_.q + i)];
        const double v =
            t_.dims == 2
                ? refinement::coalesced_value<2>(s, children_, t_.children, t_.cross_begin.data(),
                                                 t_.cross_weight.data(), t_.ring_children.data(), r, t_.q, i)
                : refinement::coalesced_value<3>(s, children_, t_.children, t_.cross_begin.data(),
                                                 t_.cross_weight.data(), t_.ring_children.data(), r, t_.q, i);
        ring_[std::int64_t(i) * nr + r] = T(v);
      }
  }

  void restart_pending() override {
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
  double crossing(std::int64_t r, int i) const {
    return refinement::crossing_sum(children_, t_.children, t_.cross_begin.data(), t_.cross_child.data(),
                                    t_.cross_weight.data(), r, t_.q, i);
  }

  static constexpr std::int64_t kSerial = 4096;  // values below which one thread does it all
  LevelCouplingTables t_;
  int threads_;
  const T* parents_;
  T* ring_;
  T* ghosts_;
  const T* children_;
  std::vector<double> sums_, pending_;
};

}  // namespace

std::unique_ptr<LevelCoupling> make_level_coupling(Backend& coarse, Backend& fine, const LevelCouplingLists& lists,
                                                   const LevelCouplingTables& tables, int threads) {
  if (coarse.kind() != fine.kind()) throw std::invalid_argument("refinement: the levels run on different backends");
  if (coarse.kind() == BackendKind::Cuda) return make_cuda_level_coupling(coarse, fine, lists, tables);
  if (coarse.population_bytes() == sizeof(float))
    return std::make_unique<HostLevelCoupling<float>>(coarse, fine, lists, tables, threads);
  if (coarse.population_bytes() == sizeof(double))
    return std::make_unique<HostLevelCoupling<double>>(coarse, fine, lists, tables, threads);
  throw std::invalid_argument("refinement: fp32 or fp64 storage only");
}

}  // namespace aerolbm
