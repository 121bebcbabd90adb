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
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernels/cuda/cuda_check.cuh"
#include "kernels/cuda/device_lattices.hpp"
#include "kernels/level_coupling.hpp"
#include "kernels/physics/refinement.hpp"

namespace aerolbm {

namespace cuda {

// Each thread's tables laid out by thread (the t-th value read), lattice cells as 32-bit indices (a level's grid on
// one GPU holds fewer than 2^31 cells).
struct CouplingView {
  int dims, q;
  std::int64_t ghost_reads, ring_reads;  // how many (LevelCouplingTables::ghost_reads, ring_reads)
  // Per ghost value read: its population, the parent slot and child of each sub-step's value, its cell.
  const std::uint8_t* read_dir;
  const std::int32_t* read_source0;
  const std::int32_t* read_source1;
  const std::uint8_t* read_child0;
  const std::uint8_t* read_child1;
  const std::int32_t* read_cell;
  const std::int32_t* neighbour;      // parent_count × 6, parent slots (refinement::child_value)
  const std::int64_t* parent_cells;   // slot → coarse cell
  // Per ring value read: j = r × Q + i.
  const std::int32_t* ring_read;
  const std::int32_t* cross_begin;      // ring × Q + 1
  const std::int32_t* cross_cell;       // per crossing: the child's fine cell
  const double* cross_weight;
  const std::int32_t* ring_child_cell;  // ring × 2^D: the children's fine cells
  const std::int32_t* ring_cell;        // ring: the coarse cell
  double* sums;
  double* pending;
};

// The t-th ghost value read: its population i in both fine lattices, from the coarse state.
template <class T>
__global__ void explode_kernel(CouplingView v, const T* __restrict__ coarse, std::int64_t coarse_cells,
                               T* __restrict__ fine_a, T* __restrict__ fine_b, std::int64_t fine_cells) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= v.ghost_reads) return;
  const int i = v.read_dir[t];
  const refinement::ListedColumn<T> parents{coarse + std::int64_t(i) * coarse_cells, v.parent_cells};
  const double a = refinement::child_value(parents, v.neighbour, v.read_source0[t], v.read_child0[t], v.dims);
  const double b = refinement::child_value(parents, v.neighbour, v.read_source1[t], v.read_child1[t], v.dims);
  const T value = T(0.5 * (a + b));
  const std::int64_t n = std::int64_t(i) * fine_cells + v.read_cell[t];
  fine_a[n] = value;
  fine_b[n] = value;
}

// Value j = r × Q + i of the sums (the t-th ring value read), from the crossings of the fine state. Mode 0:
// sub-step 0; 1: sub-step 1, and ring cell r's population i coalesced into the coarse state; 2: restart the
// pending half.
template <int D, class T>
__global__ void crossings_kernel(CouplingView v, const T* __restrict__ fine, std::int64_t fine_cells, int mode,
                                 T* __restrict__ coarse, std::int64_t coarse_cells) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= v.ring_reads) return;
  const std::int64_t j = v.ring_read[t];
  const std::int64_t r = j / v.q;
  const int i = int(j % v.q);
  const T* children = fine + std::int64_t(i) * fine_cells;  // the children's population i, by fine cell
  const double now = refinement::crossing_sum(children, v.cross_begin, v.cross_cell, v.cross_weight, r, v.q, i);
  if (mode == 0) {
    v.sums[j] = v.pending[j] + now;
  } else if (mode == 1) {
    const double sum = v.sums[j] + 0.5 * now;
    v.sums[j] = sum;
    v.pending[j] = 0.5 * now;
    coarse[std::int64_t(i) * coarse_cells + v.ring_cell[r]] = T(refinement::coalesced_value<D>(
        sum, children, v.cross_begin, v.cross_weight, v.ring_child_cell, r, v.q, i));
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
    // The tables by thread, lattice cells as 32-bit indices.
    auto cell32 = [](std::int64_t n) {
      if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
        throw std::invalid_argument("refinement: a level of 2^31 cells or more does not fit one GPU's hand-over");
      return std::int32_t(n);
    };
    const std::size_t reads = t.ghost_reads.size();
    std::vector<std::uint8_t> dir(reads), child0(reads), child1(reads);
    std::vector<std::int32_t> source0(reads), source1(reads), cell(reads);
    for (std::size_t r = 0; r < reads; ++r) {
      const std::int64_t k = t.ghost_reads[r], i = k / t.ghosts, g = k % t.ghosts;
      const std::size_t at = std::size_t(g * t.q + i);
      dir[r] = std::uint8_t(i);
      source0[r] = t.source[0][at];
      source1[r] = t.source[1][at];
      child0[r] = t.source_child[0][at];
      child1[r] = t.source_child[1][at];
      cell[r] = cell32(t.ghost_cells[std::size_t(g)]);
    }
    std::vector<std::int32_t> cross_cell(t.cross_child.size()), ring_child_cell(t.ring_children.size()),
        ring_cell(t.ring_cells.size());
    for (std::size_t j = 0; j < cross_cell.size(); ++j)
      cross_cell[j] = cell32(t.children_cells[std::size_t(t.cross_child[j])]);
    for (std::size_t j = 0; j < ring_child_cell.size(); ++j)
      ring_child_cell[j] = cell32(t.children_cells[std::size_t(t.ring_children[j])]);
    for (std::size_t j = 0; j < ring_cell.size(); ++j) ring_cell[j] = cell32(t.ring_cells[j]);
    upload(read_dir_, dir);
    upload(read_source_[0], source0);
    upload(read_source_[1], source1);
    upload(read_child_[0], child0);
    upload(read_child_[1], child1);
    upload(read_cell_, cell);
    upload(neighbour_, t.neighbour);
    upload(parent_cells_, t.parent_cells);
    upload(ring_read_, t.ring_reads);
    upload(cross_begin_, t.cross_begin);
    upload(cross_cell_, cross_cell);
    upload(cross_weight_, t.cross_weight);
    upload(ring_child_cell_, ring_child_cell);
    upload(ring_cell_, ring_cell);
    n_ = std::size_t(t.ring * t.q);
    sums_.resize(std::max<std::size_t>(1, n_));
    pending_.resize(std::max<std::size_t>(1, n_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, sums_.size() * sizeof(double), stream_));
    AEROLBM_CUDA_CHECK(cudaMemsetAsync(pending_.data(), 0, pending_.size() * sizeof(double), stream_));
    v_ = CouplingView{t.dims,
                      t.q,
                      std::int64_t(reads),
                      std::int64_t(t.ring_reads.size()),
                      read_dir_.data(),
                      read_source_[0].data(),
                      read_source_[1].data(),
                      read_child_[0].data(),
                      read_child_[1].data(),
                      read_cell_.data(),
                      neighbour_.data(),
                      parent_cells_.data(),
                      ring_read_.data(),
                      cross_begin_.data(),
                      cross_cell_.data(),
                      cross_weight_.data(),
                      ring_child_cell_.data(),
                      ring_cell_.data(),
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
  DeviceBuffer<std::uint8_t> read_dir_, read_child_[2];
  DeviceBuffer<std::int32_t> read_source_[2], read_cell_, neighbour_, ring_read_, cross_begin_, cross_cell_,
      ring_child_cell_, ring_cell_;
  DeviceBuffer<std::int64_t> parent_cells_;
  DeviceBuffer<double> cross_weight_, sums_, pending_;
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
