// The refined levels' hand-over on the device (kernels/level_coupling.hpp): one thread per value, on the levels'
// one stream (Backend::join_stream), behind the packs and steps queued before it; nothing waits for the host
// except read_pending. The arithmetic is kernels/physics/refinement.hpp's, as on the host (-fmad=false: the same
// rounding), so CPU and CUDA refined runs stay bit-identical.
#include <stdexcept>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

namespace cuda {

struct CouplingView {
  int dims, q;
  std::int64_t parents, ghosts, children, ring;
  const std::int32_t* neighbour;
  const std::int32_t* source0;
  const std::int32_t* source1;
  const std::uint8_t* child0;
  const std::uint8_t* child1;
  const std::int32_t* cross_begin;
  const std::int32_t* cross_child;
  const double* cross_weight;
  const std::int32_t* ring_children;
  double* sums;
  double* pending;
};

// Value k = i × ghosts + g of the ghost buffer.
template <class T>
__global__ void explode_kernel(CouplingView v, const T* __restrict__ parents, T* __restrict__ ghosts) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= v.ghosts * v.q) return;
  const int i = int(k / v.ghosts);
  const std::int64_t g = k % v.ghosts, at = g * v.q + i;
  const double a = refinement::child_value(parents, v.parents, v.neighbour, v.source0[at], v.child0[at], i, v.dims);
  const double b = refinement::child_value(parents, v.parents, v.neighbour, v.source1[at], v.child1[at], i, v.dims);
  ghosts[k] = T(0.5 * (a + b));
}

// Value j = r × Q + i of the sums; mode 0, 1: sub-step; 2: restart the pending half.
template <class T>
__global__ void crossings_kernel(CouplingView v, const T* __restrict__ children, int mode) {
  const std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= v.ring * v.q) return;
  const std::int64_t r = j / v.q;
  const int i = int(j % v.q);
  const double now =
      refinement::crossing_sum(children, v.children, v.cross_begin, v.cross_child, v.cross_weight, r, v.q, i);
  if (mode == 0) {
    v.sums[j] = v.pending[j] + now;
  } else if (mode == 1) {
    v.sums[j] += 0.5 * now;
    v.pending[j] = 0.5 * now;
  } else {
    v.pending[j] = 0.5 * now;
  }
}

// Value k = i × ring + r of the ring buffer.
template <int D, class T>
__global__ void coalesce_kernel(CouplingView v, const T* __restrict__ children, T* __restrict__ ring) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= v.ring * v.q) return;
  const int i = int(k / v.ring);
  const std::int64_t r = k % v.ring;
  ring[k] = T(refinement::coalesced_value<D>(v.sums[r * v.q + i], children, v.children, v.cross_begin,
                                             v.cross_weight, v.ring_children, r, v.q, i));
}

template <class U>
void upload(DeviceBuffer<U>& d, const std::vector<U>& h) {
  d.resize(std::max<std::size_t>(1, h.size()));
  d.upload(h.data(), h.size());
}

template <class T>
class CudaLevelCoupling final : public LevelCoupling {
 public:
  CudaLevelCoupling(Backend& coarse, Backend& fine, const LevelCouplingLists& lists, const LevelCouplingTables& t)
      : stream_(static_cast<cudaStream_t>(coarse.stream_handle())),
        parents_(static_cast<const T*>(coarse.halo_buffer(lists.parents).device)),
        ring_(static_cast<T*>(coarse.halo_buffer(lists.ring).device)),
        ghosts_(static_cast<T*>(fine.halo_buffer(lists.ghosts).device)),
        children_(static_cast<const T*>(fine.halo_buffer(lists.children).device)) {
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
    n_ = std::size_t(t.ring * t.q);
    sums_.resize(std::max<std::size_t>(1, n_));
    pending_.resize(std::max<std::size_t>(1, n_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, sums_.size() * sizeof(double), stream_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(pending_.data(), 0, pending_.size() * sizeof(double), stream_));
    v_ = CouplingView{t.dims,          t.q,
                      t.parents,       t.ghosts,
                      t.children,      t.ring,
                      neighbour_.data(), source_[0].data(),
                      source_[1].data(), child_[0].data(),
                      child_[1].data(), cross_begin_.data(),
                      cross_child_.data(), cross_weight_.data(),
                      ring_children_.data(), sums_.data(),
                      pending_.data()};
  }

  void explode() override {
    const std::int64_t n = v_.ghosts * v_.q;
    if (n == 0) return;
    explode_kernel<T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, parents_, ghosts_);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  void take_crossings(int sub) override { crossings(sub); }
  void restart_pending() override { crossings(2); }

  void coalesce() override {
    const std::int64_t n = v_.ring * v_.q;
    if (n == 0) return;
    if (v_.dims == 2) coalesce_kernel<2, T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, children_, ring_);
    else coalesce_kernel<3, T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, children_, ring_);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

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
    const std::int64_t n = v_.ring * v_.q;
    if (n == 0) return;
    crossings_kernel<T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, children_, mode);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  cudaStream_t stream_;
  const T* parents_;
  T* ring_;
  T* ghosts_;
  const T* children_;
  DeviceBuffer<std::int32_t> neighbour_, source_[2], cross_begin_, cross_child_, ring_children_;
  DeviceBuffer<std::uint8_t> child_[2];
  DeviceBuffer<double> cross_weight_, sums_, pending_;
  std::size_t n_ = 0;
  CouplingView v_{};
};

}  // namespace cuda

std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend& coarse, Backend& fine,
                                                        const LevelCouplingLists& lists,
                                                        const LevelCouplingTables& tables) {
  if (coarse.population_bytes() == sizeof(float))
    return std::make_unique<cuda::CudaLevelCoupling<float>>(coarse, fine, lists, tables);
  if (coarse.population_bytes() == sizeof(double))
    return std::make_unique<cuda::CudaLevelCoupling<double>>(coarse, fine, lists, tables);
  throw std::invalid_argument("refinement: fp32 or fp64 storage only");
}

}  // namespace aerolbm
