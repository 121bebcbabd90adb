// The refined levels' hand-over on the host (kernels/level_coupling.hpp), for the CPU backend: the values of
// refinement::explode_value and crossings_value in OpenMP loops over the levels' lattices in place;
// make_level_coupling picks the CUDA form for CUDA backends. Compiled without FMA contraction, as the CPU backend's
// files are, so that it rounds as the device kernels (-fmad=false) do.
#include <omp.h>

#include <stdexcept>
#include <vector>

#include "kernels/lattice_owner.hpp"
#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

LatticeOwner& coupling_lattices(Backend& b) {
  auto* o = dynamic_cast<LatticeOwner*>(&b);
  if (!o) throw std::logic_error("refinement: the hand-over needs backends that give their lattices");
  return *o;
}

namespace {

template <class T>
class HostLevelCoupling final : public LevelCoupling {
 public:
  HostLevelCoupling(Backend& coarse, Backend& fine, const LevelCouplingTables& t, int threads)
      : t_(t),
        threads_(threads > 0 ? threads : omp_get_max_threads()),
        coarse_(coupling_lattices(coarse)),
        fine_(coupling_lattices(fine)),
        sums_(t.ring_reads.size(), 0.0),
        staged_(t.ring_reads.size(), 0.0) {
    v_ = refinement::CouplingView{t_.dims,
                                  t_.q,
                                  std::int64_t(t_.read_dir.size()),
                                  std::int64_t(t_.ring_reads.size()),
                                  t_.read_dir.data(),
                                  t_.read_dir1.data(),
                                  t_.read_cell.data(),
                                  t_.read_source[0].data(),
                                  t_.read_source[1].data(),
                                  t_.read_child[0].data(),
                                  t_.read_child[1].data(),
                                  t_.neighbour.data(),
                                  t_.parent_cells.data(),
                                  t_.mirror.data(),
                                  t_.ring_reads.data(),
                                  t_.cross_begin.data(),
                                  t_.cross_cell.data(),
                                  t_.cross_dir.data(),
                                  t_.cross_weight.data(),
                                  t_.ring_child_cell.data(),
                                  t_.ring_cell.data(),
                                  t_.along_begin.data(),
                                  t_.along.data(),
                                  sums_.data(),
                                  staged_.data()};
  }

  // Every value on its own (the loops split over threads; the bits do not depend on how).
  void explode() override {
    const Lattices c = coarse_.lattices(), f = fine_.lattices();
    const auto* coarse = static_cast<const T*>(c.current);
    auto* fa = static_cast<T*>(f.current);
    auto* fb = static_cast<T*>(f.other);
    const std::int64_t n = v_.ghost_reads;
#pragma omp parallel for schedule(static) num_threads(threads_) if (n > kSerial)
    for (std::int64_t t = 0; t < n; ++t) refinement::explode_value(v_, t, coarse, c.stride, fa, fb, f.stride);
  }

  // Sub-step 1 stages every ring value first, then writes them with the exchange along the ring (which reads the
  // staged values of other ring cells).
  void before_sub_step(int sub) override {
    const Lattices f = fine_.lattices();
    const auto* fine = static_cast<const T*>(f.current);
    const std::int64_t n = v_.ring_reads;
    if (t_.dims == 2) {
#pragma omp parallel for schedule(static) num_threads(threads_) if (n > kSerial)
      for (std::int64_t t = 0; t < n; ++t) refinement::crossings_value<2>(v_, t, sub, fine, f.stride);
    } else {
#pragma omp parallel for schedule(static) num_threads(threads_) if (n > kSerial)
      for (std::int64_t t = 0; t < n; ++t) refinement::crossings_value<3>(v_, t, sub, fine, f.stride);
    }
    if (sub == 0) return;
    const Lattices c = coarse_.lattices();
    auto* coarse = static_cast<T*>(c.current);
#pragma omp parallel for schedule(static) num_threads(threads_) if (n > kSerial)
    for (std::int64_t t = 0; t < n; ++t) refinement::ring_value(v_, t, coarse, c.stride);
  }

 private:
  static constexpr std::int64_t kSerial = 4096;  // values below which one thread does it all
  LevelCouplingTables t_;
  int threads_;
  LatticeOwner& coarse_;
  LatticeOwner& fine_;
  std::vector<double> sums_, staged_;
  refinement::CouplingView v_{};
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
