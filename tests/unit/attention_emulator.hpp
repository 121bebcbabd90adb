#pragma once
// Runs the fused attention tile code (kernels/attention/attention_tile.cuh) on the CPU: every CUDA thread of a
// block is a fiber (ucontext), __syncthreads is a barrier over them, and the warp-collective primitives
// (ldmatrix, mma.m16n8k16, quad shuffles) gather all 32 lanes' operands and hand each lane its part with the
// fragment layouts of the PTX ISA. cp.async either copies at once or only at cp.async.wait_group (`lazy`), and
// the scheduler interleaves fibers pseudo-randomly, so a missing wait or barrier shows up as a wrong result;
// shared memory starts as NaN patterns so that reading an unwritten byte does too. Arithmetic is exact-ish
// (double sums, exp2), not bit-identical to the GPU: the point is the index arithmetic, tails, online softmax
// and split-KV logic, tested in CI without a GPU. Include this before attention_tile.cuh.
#include <ucontext.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "kernels/attention/bf16.hpp"

// A fiber switch is a few register moves on x86-64 (glibc's swapcontext also makes a signal-mask system call,
// which made the emulation 10x slower); other architectures use swapcontext. Include in one translation unit.
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define AEROLBM_EMU_FAST_SWITCH 1
extern "C" void aerolbm_emu_switch(void** save_sp, void* next_sp);
asm(R"(
  .text
  .globl aerolbm_emu_switch
  .type aerolbm_emu_switch, @function
aerolbm_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size aerolbm_emu_switch, .-aerolbm_emu_switch
)");
#endif

// Whether the emulation can run here: sanitizers do not follow hand-made stacks (the ASan build skips it).
inline constexpr bool kEmulatorAvailable =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    false;
#else
    true;
#endif

namespace aerolbm::attention::emu {

struct Copy {
  std::uint32_t dst;
  const void* src;
  bool valid;
};

struct Fiber {
  ucontext_t ctx{};
  void* sp = nullptr;  // saved stack pointer (fast switch)
  std::vector<char> stack;
  bool done = false;
  std::vector<Copy> open;                  // cp.async issued since the last commit
  std::vector<std::vector<Copy>> pending;  // committed groups, oldest first
};

struct WarpSlots {
  int arrived = 0;
  long gen = 0;
  std::uint32_t u[32][10];
  float f[32][4];
};

struct Block {
  int threads = 0;
  bool lazy = false;
  std::vector<unsigned char> smem;
  std::vector<Fiber> fibers;
  std::vector<WarpSlots> warps;
  ucontext_t main_ctx{};
  void* main_sp = nullptr;
  int cur = 0;
  int block_arrived = 0;
  long block_gen = 0;
  long spins = 0;  // yields without progress, to catch a deadlock
  std::mt19937 rng;
  std::function<void(int)> body;
};

inline Block*& current() {
  static Block* b = nullptr;
  return b;
}

inline void yield() {
  Block& b = *current();
  if (++b.spins > 2000000L) {
    std::fprintf(stderr, "attention emulator: deadlock (a collective or barrier not reached by every thread)\n");
    std::abort();
  }
#ifdef AEROLBM_EMU_FAST_SWITCH
  aerolbm_emu_switch(&b.fibers[std::size_t(b.cur)].sp, b.main_sp);
#else
  swapcontext(&b.fibers[std::size_t(b.cur)].ctx, &b.main_ctx);
#endif
}

inline int lane() { return current()->cur & 31; }

inline void warp_barrier() {
  Block& b = *current();
  WarpSlots& w = b.warps[std::size_t(b.cur >> 5)];
  const long gen = w.gen;
  if (++w.arrived == 32) {
    w.arrived = 0;
    ++w.gen;
    b.spins = 0;
  } else {
    while (w.gen == gen) yield();
  }
}

inline void apply(const Copy& c) {
  unsigned char* dst = current()->smem.data() + c.dst;
  if (c.dst + 16 > current()->smem.size()) {
    std::fprintf(stderr, "attention emulator: cp.async past the end of shared memory\n");
    std::abort();
  }
  if (c.valid)
    std::memcpy(dst, c.src, 16);
  else
    std::memset(dst, 0, 16);
}

inline std::uint16_t smem_u16(std::uint32_t byte_addr) {
  const Block& b = *current();
  if (byte_addr + 2 > b.smem.size() || byte_addr % 2) {
    std::fprintf(stderr, "attention emulator: bad shared-memory address %u\n", byte_addr);
    std::abort();
  }
  std::uint16_t v;
  std::memcpy(&v, b.smem.data() + byte_addr, 2);
  return v;
}

inline float lo(std::uint32_t x) { return bf16_to_float(std::uint16_t(x & 0xFFFFu)); }
inline float hi(std::uint32_t x) { return bf16_to_float(std::uint16_t(x >> 16)); }

inline void trampoline() {
  Block& b = *current();
  b.body(b.cur);
  b.fibers[std::size_t(b.cur)].done = true;
#ifdef AEROLBM_EMU_FAST_SWITCH
  aerolbm_emu_switch(&b.fibers[std::size_t(b.cur)].sp, b.main_sp);
#else
  swapcontext(&b.fibers[std::size_t(b.cur)].ctx, &b.main_ctx);
#endif
  std::abort();  // a finished fiber is never resumed
}

// Runs body(tid) for every thread of one block until all have returned.
inline void run_block(int threads, int smem_bytes, bool lazy, std::uint32_t seed, std::function<void(int)> body) {
  Block b;
  b.threads = threads;
  b.lazy = lazy;
  b.smem.assign(std::size_t(smem_bytes), 0xFF);  // NaN bit patterns in bf16
  b.fibers.resize(std::size_t(threads));
  b.warps.resize(std::size_t((threads + 31) / 32));
  b.rng.seed(seed);
  b.body = std::move(body);
  current() = &b;
  for (auto& f : b.fibers) {
    f.stack.resize(256 * 1024);
#ifdef AEROLBM_EMU_FAST_SWITCH
    // Initial frame as aerolbm_emu_switch leaves it: six callee-saved registers, then the entry point as the
    // return address, placed so that the entry sees the stack alignment of a call.
    auto top = (reinterpret_cast<std::uintptr_t>(f.stack.data() + f.stack.size())) & ~std::uintptr_t(15);
    auto* sp = reinterpret_cast<void**>(top);
    *--sp = nullptr;                                       // fake return address of trampoline
    *--sp = reinterpret_cast<void*>(&trampoline);          // popped by ret
    for (int r = 0; r < 6; ++r) *--sp = nullptr;           // rbp, rbx, r12-r15
    f.sp = sp;
    continue;
#endif
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = f.stack.data();
    f.ctx.uc_stack.ss_size = f.stack.size();
    f.ctx.uc_link = nullptr;
    makecontext(&f.ctx, trampoline, 0);
  }
  int alive = threads;
  int next = 0;
  while (alive > 0) {
    // Mostly round robin (cheap for warp barriers), sometimes a random jump to vary the interleaving.
    if (b.rng() % 8 == 0) next = int(b.rng() % unsigned(threads));
    for (int tries = 0; b.fibers[std::size_t(next)].done && tries < threads; ++tries) next = (next + 1) % threads;
    b.cur = next;
#ifdef AEROLBM_EMU_FAST_SWITCH
    aerolbm_emu_switch(&b.main_sp, b.fibers[std::size_t(next)].sp);
#else
    swapcontext(&b.main_ctx, &b.fibers[std::size_t(next)].ctx);
#endif
    if (b.fibers[std::size_t(next)].done) {
      --alive;
      if (!b.fibers[std::size_t(next)].pending.empty() || !b.fibers[std::size_t(next)].open.empty()) {
        std::fprintf(stderr, "attention emulator: thread %d exited with cp.async in flight\n", next);
        std::abort();
      }
    }
    next = (next + 1) % threads;
  }
  current() = nullptr;
}

}  // namespace aerolbm::attention::emu

// ---- the primitives of attention_primitives.cuh, emulated ----------------------------------------------------
namespace aerolbm::attention::prim {

inline std::uint32_t smem_addr(const void* p) {
  return std::uint32_t(static_cast<const unsigned char*>(p) - emu::current()->smem.data());
}

inline void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
  emu::Block& b = *emu::current();
  if (b.lazy)
    b.fibers[std::size_t(b.cur)].open.push_back({dst, src, valid});
  else
    emu::apply({dst, src, valid});
}

inline void cp_async_commit() {
  emu::Block& b = *emu::current();
  emu::Fiber& f = b.fibers[std::size_t(b.cur)];
  f.pending.push_back(std::move(f.open));
  f.open.clear();
}

template <int N>
inline void cp_async_wait() {
  emu::Block& b = *emu::current();
  emu::Fiber& f = b.fibers[std::size_t(b.cur)];
  while (f.pending.size() > std::size_t(N)) {
    for (const auto& c : f.pending.front()) emu::apply(c);
    f.pending.erase(f.pending.begin());
  }
}

inline void block_sync() {
  emu::Block& b = *emu::current();
  const long gen = b.block_gen;
  if (++b.block_arrived == b.threads) {
    b.block_arrived = 0;
    ++b.block_gen;
    b.spins = 0;
  } else {
    while (b.block_gen == gen) emu::yield();
  }
}

// lanes 8j..8j+7 address the rows of matrix j; lane (g = lane/4, t = lane%4) receives row g, columns 2t, 2t+1
// (trans: column g, rows 2t, 2t+1 of the stored matrix).
inline void ldmatrix_impl(std::uint32_t (&r)[4], std::uint32_t addr, bool trans) {
  emu::Block& b = *emu::current();
  const int ln = emu::lane();
  emu::WarpSlots& w = b.warps[std::size_t(b.cur >> 5)];
  if (addr % 16) {
    std::fprintf(stderr, "attention emulator: ldmatrix row address %u not 16-byte aligned\n", addr);
    std::abort();
  }
  w.u[ln][0] = addr;
  emu::warp_barrier();
  const int g = ln >> 2, t = ln & 3;
  for (int j = 0; j < 4; ++j) {
    std::uint16_t e0, e1;
    if (!trans) {
      const std::uint32_t row = w.u[8 * j + g][0];
      e0 = emu::smem_u16(row + 2u * std::uint32_t(2 * t));
      e1 = emu::smem_u16(row + 2u * std::uint32_t(2 * t + 1));
    } else {
      e0 = emu::smem_u16(w.u[8 * j + 2 * t][0] + 2u * std::uint32_t(g));
      e1 = emu::smem_u16(w.u[8 * j + 2 * t + 1][0] + 2u * std::uint32_t(g));
    }
    r[j] = std::uint32_t(e0) | (std::uint32_t(e1) << 16);
  }
  emu::warp_barrier();
}
inline void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) { ldmatrix_impl(r, addr, false); }
inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t addr) { ldmatrix_impl(r, addr, true); }

inline void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0, std::uint32_t b1) {
  emu::Block& b = *emu::current();
  const int ln = emu::lane();
  emu::WarpSlots& w = b.warps[std::size_t(b.cur >> 5)];
  for (int i = 0; i < 4; ++i) w.u[ln][i] = a[i];
  w.u[ln][4] = b0;
  w.u[ln][5] = b1;
  emu::warp_barrier();
  float A[16][16], B[16][8];
  for (int l = 0; l < 32; ++l) {
    const int g = l >> 2, t = l & 3;
    const std::uint32_t* u = w.u[l];
    A[g][2 * t] = emu::lo(u[0]), A[g][2 * t + 1] = emu::hi(u[0]);
    A[g + 8][2 * t] = emu::lo(u[1]), A[g + 8][2 * t + 1] = emu::hi(u[1]);
    A[g][2 * t + 8] = emu::lo(u[2]), A[g][2 * t + 9] = emu::hi(u[2]);
    A[g + 8][2 * t + 8] = emu::lo(u[3]), A[g + 8][2 * t + 9] = emu::hi(u[3]);
    B[2 * t][g] = emu::lo(u[4]), B[2 * t + 1][g] = emu::hi(u[4]);
    B[2 * t + 8][g] = emu::lo(u[5]), B[2 * t + 9][g] = emu::hi(u[5]);
  }
  const int g = ln >> 2, t = ln & 3;
  const int rows[4] = {g, g, g + 8, g + 8}, cols[4] = {2 * t, 2 * t + 1, 2 * t, 2 * t + 1};
  float out[4];
  for (int e = 0; e < 4; ++e) {
    double s = d[e];
    for (int k = 0; k < 16; ++k) s += double(A[rows[e]][k]) * double(B[k][cols[e]]);
    out[e] = float(s);
  }
  emu::warp_barrier();
  for (int e = 0; e < 4; ++e) d[e] = out[e];
}

inline float shfl_xor(float x, int mask) {
  emu::Block& b = *emu::current();
  const int ln = emu::lane();
  emu::WarpSlots& w = b.warps[std::size_t(b.cur >> 5)];
  w.f[ln][0] = x;
  emu::warp_barrier();
  const float y = w.f[ln ^ mask][0];
  emu::warp_barrier();
  return y;
}
inline float quad_max(float x) {
  x = std::fmax(x, shfl_xor(x, 1));
  return std::fmax(x, shfl_xor(x, 2));
}
inline float quad_sum(float x) {
  x += shfl_xor(x, 1);
  return x + shfl_xor(x, 2);
}

inline float exp2_approx(float x) { return std::exp2(x); }

inline std::uint32_t pack_bf16(float l, float h) {
  return std::uint32_t(float_to_bf16(l)) | (std::uint32_t(float_to_bf16(h)) << 16);
}

inline void store_bf16x2(std::uint16_t* dst, std::uint32_t v) { std::memcpy(dst, &v, 4); }

}  // namespace aerolbm::attention::prim
