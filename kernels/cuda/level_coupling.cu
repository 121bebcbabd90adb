// The refined levels' hand-over on the device (kernels/level_coupling.hpp): one thread per value, on the levels'
// one stream (Backend::join_stream), behind the steps queued before it; nothing waits for the host except
// read_pending. The kernels read and write the two levels' lattices in place through the cell lists
// (refinement::ListedColumn; cuda::DeviceLatticeOwner gives the lattices as the queued work leaves them), so an
// interface costs three launches per coarse step and no halo buffer: the explosion writes the fine band into both
// fine lattices (no step writes a ghost cell, so it stays for both sub-steps), the second sub-step's crossings
// coalesce straight into the coarse ring. Only the values an own cell reads are computed
// (LevelCouplingTables::ghost_reads, ring_reads): in 3D the band's inner layer's inward populations, a few tenths
// of the band. The arithmetic is kernels/physics/refinement.hpp's, as on the host
// (-fmad=false: the same rounding), so CPU and CUDA refined runs stay bit-identical.
#include <stdexcept>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_lattices.hpp"
#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

namespace cuda {

struct CouplingView {
  int dims, q;
  std::int64_t ghosts, ring;
  std::int64_t ghost_reads, ring_reads;  // how many
  const std::int32_t* ghost_read;        // LevelCouplingTables::ghost_reads
  const std::int32_t* ring_read;         // LevelCouplingTables::ring_reads
  const std::int32_t* neighbour;
  const std::int32_t* source0;
  const std::int32_t* source1;
  const std::uint8_t* child0;
  const std::uint8_t* child1;
  const std::int32_t* cross_begin;
  const std::int32_t* cross_child;
  const double* cross_weight;
  const std::int32_t* ring_children;
  const std::int64_t* parent_cells;
  const std::int64_t* ghost_cells;
  const std::int64_t* children_cells;
  const std::int64_t* ring_cells;
  double* sums;
  double* pending;
};

// Value k = i × ghosts + g (the t-th that an own cell reads): ghost g's population i in both fine lattices, from
// the coarse state.
template <class T>
__global__ void explode_kernel(CouplingView v, const T* __restrict__ coarse, std::int64_t coarse_cells,
                               T* __restrict__ fine_a, T* __restrict__ fine_b, std::int64_t fine_cells) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= v.ghost_reads) return;
  const std::int64_t k = v.ghost_read[t];
  const int i = int(k / v.ghosts);
  const std::int64_t g = k % v.ghosts, at = g * v.q + i;
  const refinement::ListedColumn<T> parents{coarse + std::int64_t(i) * coarse_cells, v.parent_cells};
  const double a = refinement::child_value(parents, v.neighbour, v.source0[at], v.child0[at], v.dims);
  const double b = refinement::child_value(parents, v.neighbour, v.source1[at], v.child1[at], v.dims);
  const T value = T(0.5 * (a + b));
  const std::int64_t n = std::int64_t(i) * fine_cells + v.ghost_cells[g];
  fine_a[n] = value;
  fine_b[n] = value;
}

// Value j = r × Q + i of the sums (the t-th that is read), from the crossings of the fine state. Mode 0: sub-step
// 0; 1: sub-step 1, and ring cell r's population i coalesced into the coarse state; 2: restart the pending half.
template <int D, class T>
__global__ void crossings_kernel(CouplingView v, const T* __restrict__ fine, std::int64_t fine_cells, int mode,
                                 T* __restrict__ coarse, std::int64_t coarse_cells) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= v.ring_reads) return;
  const std::int64_t j = v.ring_read[t];
  const std::int64_t r = j / v.q;
  const int i = int(j % v.q);
  const refinement::ListedColumn<T> children{fine + std::int64_t(i) * fine_cells, v.children_cells};
  const double now = refinement::crossing_sum(children, v.cross_begin, v.cross_child, v.cross_weight, r, v.q, i);
  if (mode == 0) {
    v.sums[j] = v.pending[j] + now;
  } else if (mode == 1) {
    const double sum = v.sums[j] + 0.5 * now;
    v.sums[j] = sum;
    v.pending[j] = 0.5 * now;
    coarse[std::int64_t(i) * coarse_cells + v.ring_cells[r]] = T(refinement::coalesced_value<D>(
        sum, children, v.cross_begin, v.cross_weight, v.ring_children, r, v.q, i));
  } else {
    v.pending[j] = 0.5 * now;
  }
}

template <class U>
void upload(DeviceBuffer<U>& d, const std::vector<U>& h) {
  d.resize(std::max<std::size_t>(1, h.size()));
  d.upload(h.data(), h.size());
}

DeviceLatticeOwner& lattice_owner(Backend& b) {
  auto* o = dynamic_cast<DeviceLatticeOwner*>(&b);
  if (!o) throw std::logic_error("refinement: the CUDA hand-over needs CUDA backends");
  return *o;
}

template <class T>
class CudaLevelCoupling final : public LevelCoupling {
 public:
  CudaLevelCoupling(Backend& coarse, Backend& fine, const LevelCouplingTables& t)
      : stream_(static_cast<cudaStream_t>(coarse.stream_handle())),
        coarse_(lattice_owner(coarse)),
        fine_(lattice_owner(fine)) {
    if (!stream_ || stream_ != static_cast<cudaStream_t>(fine.stream_handle()))
      throw std::logic_error("refinement: the CUDA levels must share one stream (Backend::join_stream)");
    upload(neighbour_, t.neighbour);
    upload(source_[0], t.source[0]);
    upload(source_[1], t.source[1]);
    upload(child_[0], t.source_child[0]);
    upload(child_[1], t.source_child[1]);
    upload(cross_begin_, t.cross_begin);
    upload(cross_child_, t.cross_child);
    upload(cross_weight_, t.cross_weight);
    upload(ring_children_, t.ring_children);
    upload(ghost_read_, t.ghost_reads);
    upload(ring_read_, t.ring_reads);
    upload(parent_cells_, t.parent_cells);
    upload(ghost_cells_, t.ghost_cells);
    upload(children_cells_, t.children_cells);
    upload(ring_cells_, t.ring_cells);
    n_ = std::size_t(t.ring * t.q);
    sums_.resize(std::max<std::size_t>(1, n_));
    pending_.resize(std::max<std::size_t>(1, n_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, sums_.size() * sizeof(double), stream_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(pending_.data(), 0, pending_.size() * sizeof(double), stream_));
    v_ = CouplingView{t.dims,
                      t.q,
                      t.ghosts,
                      t.ring,
                      std::int64_t(t.ghost_reads.size()),
                      std::int64_t(t.ring_reads.size()),
                      ghost_read_.data(),
                      ring_read_.data(),
                      neighbour_.data(),
                      source_[0].data(),
                      source_[1].data(),
                      child_[0].data(),
                      child_[1].data(),
                      cross_begin_.data(),
                      cross_child_.data(),
                      cross_weight_.data(),
                      ring_children_.data(),
                      parent_cells_.data(),
                      ghost_cells_.data(),
                      children_cells_.data(),
                      ring_cells_.data(),
                      sums_.data(),
                      pending_.data()};
  }

  void explode() override {
    const std::int64_t n = v_.ghost_reads;
    if (n == 0) return;
    const DeviceLattices c = coarse_.device_lattices(), f = fine_.device_lattices();
    explode_kernel<T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, static_cast<const T*>(c.current), c.cells,
                                                               static_cast<T*>(f.current), static_cast<T*>(f.other),
                                                               f.cells);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  void before_sub_step(int sub) override { crossings(sub); }
  void restart_pending() override { crossings(2); }

  void read_pending(std::vector<double>& out) override {
    out.resize(n_);
    if (n_ == 0) return;
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(out.data(), pending_.data(), n_ * sizeof(double), cudaMemcpyDeviceToHost, stream_));
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void write_pending(const std::vector<double>& in) override {
    if (in.size() != n_) throw std::invalid_argument("refinement: wrong length of values in transit");
    if (n_ == 0) return;
    AEROLBM_CUDA_CHECK(cudaMemcpyAsync(pending_.data(), in.data(), n_ * sizeof(double), cudaMemcpyHostToDevice, stream_));
    AEROLBM_CUDA_CHECK(cudaStreamSynchronize(stream_));  // `in` may go as soon as this returns
  }

 private:
  void crossings(int mode) {
    const std::int64_t n = v_.ring_reads;
    if (n == 0) return;
    const DeviceLattices f = fine_.device_lattices();
    // Only sub-step 1 writes the coarse state (the ring).
    const DeviceLattices c = mode == 1 ? coarse_.device_lattices() : DeviceLattices{};
    auto* fine = static_cast<const T*>(f.current);
    auto* coarse = static_cast<T*>(c.current);
    if (v_.dims == 2)
      crossings_kernel<2, T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, fine, f.cells, mode, coarse, c.cells);
    else
      crossings_kernel<3, T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, fine, f.cells, mode, coarse, c.cells);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  cudaStream_t stream_;
  DeviceLatticeOwner& coarse_;
  DeviceLatticeOwner& fine_;
  DeviceBuffer<std::int32_t> neighbour_, source_[2], cross_begin_, cross_child_, ring_children_, ghost_read_,
      ring_read_;
  DeviceBuffer<std::uint8_t> child_[2];
  DeviceBuffer<double> cross_weight_, sums_, pending_;
  DeviceBuffer<std::int64_t> parent_cells_, ghost_cells_, children_cells_, ring_cells_;
  std::size_t n_ = 0;
  CouplingView v_{};
};

}  // namespace cuda

std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend& coarse, Backend& fine,
                                                        const LevelCouplingTables& tables) {
  if (coarse.population_bytes() == sizeof(float))
    return std::make_unique<cuda::CudaLevelCoupling<float>>(coarse, fine, tables);
  if (coarse.population_bytes() == sizeof(double))
    return std::make_unique<cuda::CudaLevelCoupling<double>>(coarse, fine, tables);
  throw std::invalid_argument("refinement: fp32 or fp64 storage only");
}

}  // namespace aerolbm
