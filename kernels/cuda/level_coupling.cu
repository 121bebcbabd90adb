// The refined levels' hand-over on the device (kernels/level_coupling.hpp): one thread per value
// (refinement::explode_value, crossings_value, ring_value), on the levels' one stream (Backend::join_stream), behind
// the steps queued before it, on the two levels' lattices in place (LatticeOwner); nothing waits for the host. An
// interface costs three launches per coarse step: the explosion with the crossings before the first fine sub-step
// (independent: one kernel), the crossings before the second with the coalescence (staged), and the staged values
// into the coarse ring with their exchange along it (which reads other ring cells' staged values, hence a launch of
// its own). The arithmetic is kernels/physics/refinement.hpp's, as on the host (-fmad=false: the same rounding), so
// CPU and CUDA refined runs stay bit-identical.
#include <cuda_fp16.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/lattice_owner.hpp"
#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

namespace cuda {

template <class T>
__global__ void explode_kernel(refinement::CouplingView v, const T* __restrict__ coarse, std::int64_t coarse_stride,
                               T* __restrict__ fine_a, T* __restrict__ fine_b, std::int64_t fine_stride) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < v.ghost_reads) refinement::explode_value(v, t, coarse, coarse_stride, fine_a, fine_b, fine_stride);
}

template <int D, class T>
__global__ void crossings_kernel(refinement::CouplingView v, int sub, const T* __restrict__ fine,
                                 std::int64_t fine_stride) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < v.ring_reads) refinement::crossings_value<D>(v, t, sub, fine, fine_stride);
}

template <class T>
__global__ void ring_kernel(refinement::CouplingView v, T* __restrict__ coarse, std::int64_t coarse_stride) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < v.ring_reads) refinement::ring_value(v, t, coarse, coarse_stride);
}

// explode_kernel's threads in the first `explode_blocks` blocks, crossings_kernel's of mode 0 in the rest: the
// explosion writes the fine level's band, the crossings read its own cells (no __restrict__: both are views of the
// fine lattice).
template <int D, class T>
__global__ void explode_and_cross_kernel(refinement::CouplingView v, const T* coarse, std::int64_t coarse_stride,
                                         T* fine_a, T* fine_b, std::int64_t fine_stride, unsigned explode_blocks) {
  if (blockIdx.x < explode_blocks) {
    const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < v.ghost_reads) refinement::explode_value(v, t, coarse, coarse_stride, fine_a, fine_b, fine_stride);
  } else {
    const std::int64_t t = std::int64_t(blockIdx.x - explode_blocks) * blockDim.x + threadIdx.x;
    if (t < v.ring_reads)
      refinement::crossings_value<D>(v, t, 0, static_cast<const T*>(fine_a), fine_stride);
  }
}

template <class U>
void upload(DeviceBuffer<U>& d, const std::vector<U>& h) {
  d.resize(std::max<std::size_t>(1, h.size()));
  d.upload(h.data(), h.size());
}

template <class T>
class CudaLevelCoupling final : public LevelCoupling {
 public:
  CudaLevelCoupling(Backend& coarse, Backend& fine, const LevelCouplingTables& t)
      : stream_(static_cast<cudaStream_t>(coarse.stream_handle())),
        coarse_(coupling_lattices(coarse)),
        fine_(coupling_lattices(fine)) {
    if (!stream_ || stream_ != static_cast<cudaStream_t>(fine.stream_handle()))
      throw std::logic_error("refinement: the CUDA levels must share one stream (Backend::join_stream)");
    upload(read_dir_, t.read_dir);
    upload(read_dir1_, t.read_dir1);
    upload(read_cell_, t.read_cell);
    upload(read_source_[0], t.read_source[0]);
    upload(read_source_[1], t.read_source[1]);
    upload(read_child_[0], t.read_child[0]);
    upload(read_child_[1], t.read_child[1]);
    upload(neighbour_, t.neighbour);
    upload(parent_cells_, t.parent_cells);
    upload(mirror_, t.mirror);
    upload(ring_read_, t.ring_reads);
    upload(cross_begin_, t.cross_begin);
    upload(cross_cell_, t.cross_cell);
    upload(cross_dir_, t.cross_dir);
    upload(cross_weight_, t.cross_weight);
    upload(ring_child_cell_, t.ring_child_cell);
    upload(ring_cell_, t.ring_cell);
    upload(along_begin_, t.along_begin);
    upload(along_, t.along);
    const std::size_t n = std::max<std::size_t>(1, t.ring_reads.size());
    sums_.resize(n);
    staged_.resize(n);
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, n * sizeof(double), stream_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(staged_.data(), 0, n * sizeof(double), stream_));
    v_ = refinement::CouplingView{t.dims,
                                  t.q,
                                  std::int64_t(t.read_dir.size()),
                                  std::int64_t(t.ring_reads.size()),
                                  read_dir_.data(),
                                  read_dir1_.data(),
                                  read_cell_.data(),
                                  read_source_[0].data(),
                                  read_source_[1].data(),
                                  read_child_[0].data(),
                                  read_child_[1].data(),
                                  neighbour_.data(),
                                  parent_cells_.data(),
                                  mirror_.data(),
                                  ring_read_.data(),
                                  cross_begin_.data(),
                                  cross_cell_.data(),
                                  cross_dir_.data(),
                                  cross_weight_.data(),
                                  ring_child_cell_.data(),
                                  ring_cell_.data(),
                                  along_begin_.data(),
                                  along_.data(),
                                  sums_.data(),
                                  staged_.data()};
  }

  void explode() override {
    const std::int64_t n = v_.ghost_reads;
    if (n == 0) return;
    const Lattices c = coarse_.lattices(), f = fine_.lattices();
    explode_kernel<T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, static_cast<const T*>(c.current), c.stride,
                                                               static_cast<T*>(f.current), static_cast<T*>(f.other),
                                                               f.stride);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  void before_sub_step(int sub) override {
    crossings(sub);
    const std::int64_t n = v_.ring_reads;
    if (sub == 0 || n == 0) return;
    const Lattices c = coarse_.lattices();
    ring_kernel<T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, static_cast<T*>(c.current), c.stride);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  void explode_and_first_crossings() override {
    const std::int64_t ne = v_.ghost_reads, nc = v_.ring_reads;
    if (ne == 0 || nc == 0 || !fused_) {
      explode();
      crossings(0);
      return;
    }
    const Lattices c = coarse_.lattices(), f = fine_.lattices();
    const unsigned be = blocks_for(ne, 128), bc = blocks_for(nc, 128);
    auto* coarse = static_cast<const T*>(c.current);
    auto* fa = static_cast<T*>(f.current);
    auto* fb = static_cast<T*>(f.other);
    if (v_.dims == 2)
      explode_and_cross_kernel<2, T><<<be + bc, 128, 0, stream_>>>(v_, coarse, c.stride, fa, fb, f.stride, be);
    else
      explode_and_cross_kernel<3, T><<<be + bc, 128, 0, stream_>>>(v_, coarse, c.stride, fa, fb, f.stride, be);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

 private:
  void crossings(int sub) {
    const std::int64_t n = v_.ring_reads;
    if (n == 0) return;
    const Lattices f = fine_.lattices();
    auto* fine = static_cast<const T*>(f.current);
    if (v_.dims == 2)
      crossings_kernel<2, T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, sub, fine, f.stride);
    else
      crossings_kernel<3, T><<<blocks_for(n, 128), 128, 0, stream_>>>(v_, sub, fine, f.stride);
    AEROLBM_CUDA_LAUNCH_CHECK();
  }

  cudaStream_t stream_;
  LatticeOwner& coarse_;
  LatticeOwner& fine_;
  DeviceBuffer<std::uint8_t> read_dir_, read_dir1_, read_child_[2], mirror_, cross_dir_;
  DeviceBuffer<std::int32_t> read_cell_, read_source_[2], neighbour_, ring_read_, cross_begin_, cross_cell_,
      ring_child_cell_, ring_cell_, along_begin_, along_;
  DeviceBuffer<std::int64_t> parent_cells_;
  DeviceBuffer<double> cross_weight_, sums_, staged_;
  refinement::CouplingView v_{};
  // AEROLBM_REFINED_FUSED_HANDOVER=off: the explosion and the first crossings as two launches (for comparison).
  bool fused_ = [] {
    const char* e = std::getenv("AEROLBM_REFINED_FUSED_HANDOVER");
    return !(e && std::string(e) == "off");
  }();
};

}  // namespace cuda

std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend& coarse, Backend& fine,
                                                        const LevelCouplingTables& tables) {
  if (coarse.population_bytes() == sizeof(float))
    return std::make_unique<cuda::CudaLevelCoupling<float>>(coarse, fine, tables);
  if (coarse.population_bytes() == sizeof(double))
    return std::make_unique<cuda::CudaLevelCoupling<double>>(coarse, fine, tables);
  // fp16s: the shifted populations in half precision, read through float and written by one rounding from double
  // (__half(double)); the hand-over's arithmetic stays in double.
  if (coarse.population_bytes() == sizeof(__half))
    return std::make_unique<cuda::CudaLevelCoupling<__half>>(coarse, fine, tables);
  throw std::invalid_argument("refinement: fp32, fp64 or fp16s storage only");
}

}  // namespace aerolbm
