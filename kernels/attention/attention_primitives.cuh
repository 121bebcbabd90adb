#pragma once
// The few warp-level instructions the fused attention kernel is built from, as inline PTX (sm_80 and newer):
// cp.async with zero fill, ldmatrix (plain and transposed), the bf16 m16n8k16 tensor-core product with fp32
// accumulation, quad shuffles and ex2.approx. attention_tile.cuh calls only these, so that the same tile code can
// also run on the CPU under tests/unit/attention_emulator.hpp, which implements the same functions with the
// PTX ISA's fragment layouts (that is how the index arithmetic is tested without a GPU).
#include <cstdint>

namespace aerolbm::attention::prim {

// 32-bit shared-memory address of a generic pointer into dynamic shared memory.
__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared, bypassing L1; with valid == false nothing is read and the 16 bytes become zero
// (the tail rows of a tile past the end of the sequence).
__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
  const int src_bytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Wait until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ __forceinline__ void block_sync() { __syncthreads(); }

// Four 8x8 b16 matrices; lanes 8j..8j+7 give the row addresses of matrix j, r[j] receives this lane's pair of it.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// d += a * b for one 16x8x16 tile: a row-major bf16 (4 regs), b column-major bf16 (2 regs), d fp32 (4 regs).
__device__ __forceinline__ void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                         std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Reductions over the four lanes that share a fragment row (lane / 4 equal).
__device__ __forceinline__ float quad_max(float x) {
  x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
  return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ __forceinline__ float quad_sum(float x) {
  x += __shfl_xor_sync(0xffffffffu, x, 1);
  return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

// 2^x in one MUFU instruction; 2^-inf = +0, which is how masked keys drop out of the softmax.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

// Two floats to a bf16 pair, round to nearest even; `lo` lands in the low half (the lower column index).
__device__ __forceinline__ std::uint32_t pack_bf16(float lo, float hi) {
  std::uint32_t r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

// A bf16 pair to global memory (4-byte aligned).
__device__ __forceinline__ void store_bf16x2(std::uint16_t* dst, std::uint32_t v) {
  *reinterpret_cast<std::uint32_t*>(dst) = v;
}

}  // namespace aerolbm::attention::prim
