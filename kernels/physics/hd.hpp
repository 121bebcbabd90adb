#pragma once
// AEROLBM_HD marks per-cell physics that both backends call: __host__ __device__ under nvcc, nothing otherwise.
// AEROLBM_HD_COLD marks the rare paths (boundaries): compiled once, called, not inlined into every direction of
// every kernel, which keeps the hot loop small and the device compile fast.
// AEROLBM_UNROLL fully unrolls a loop over directions on both compilers, so lattice constants fold away.
#if defined(__CUDACC__)
#define AEROLBM_HD __host__ __device__ __forceinline__
#define AEROLBM_HD_COLD __host__ __device__ __noinline__
#define AEROLBM_UNROLL _Pragma("unroll")
#else
#define AEROLBM_HD inline __attribute__((always_inline))
#define AEROLBM_HD_COLD inline __attribute__((noinline))
#define AEROLBM_UNROLL _Pragma("GCC unroll 32")
#endif
