#pragma once
// AEROLBM_HD marks per-cell physics that both backends call: __host__ __device__ under nvcc, nothing otherwise.
// AEROLBM_HD_COLD marks the rare paths (boundaries). On the device they are inlined too: the stream-collide kernels
// handle boundary cells in the same pass as the bulk, with every population in registers (a call that takes arrays
// by reference puts them in local memory: the old boundary kernel spent 94 % of a 3D wing step there). On the host
// they stay out of line, which keeps the CPU's interior loop small.
// AEROLBM_UNROLL fully unrolls a loop over directions on both compilers, so lattice constants fold away.
#if defined(__CUDACC__)
#define AEROLBM_HD __host__ __device__ __forceinline__
#define AEROLBM_HD_COLD __host__ __device__ __forceinline__
#define AEROLBM_UNROLL _Pragma("unroll")
#else
#define AEROLBM_HD inline __attribute__((always_inline))
#define AEROLBM_HD_COLD inline __attribute__((noinline))
#define AEROLBM_UNROLL _Pragma("GCC unroll 32")
#endif
