#pragma once
// The one way a backend is made for a case's lattice and storage precision, shared by the CPU and the CUDA
// backend: each is a class template B<L, T> over the velocity set L and the stored type T, and names the T that
// stands for each precision (void where it stores none). Plain C++17, for the .cu files too.
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "kernels/backend.hpp"
#include "kernels/lattice/lattice.hpp"

namespace aerolbm {

// fn(L{}) with L the velocity set of `s`: the one switch from the run-time stencil to the compile-time lattice.
template <class Fn>
auto with_lattice(Stencil s, Fn&& fn) -> decltype(fn(D2Q9{})) {
  switch (s) {
    case Stencil::D2Q9: return fn(D2Q9{});
    case Stencil::D3Q19: return fn(D3Q19{});
    case Stencil::D3Q27: return fn(D3Q27{});
  }
  throw std::invalid_argument("unknown stencil");
}

template <class T>
struct Stored {
  using type = T;
};

// B<L, T> for T the stored type of `cfg.precision` among Fp32, Fp64 and Fp16s; a precision whose type is void
// throws std::invalid_argument(`unsupported`).
template <template <class, class> class B, class L, class Fp32, class Fp64, class Fp16s>
std::unique_ptr<Backend> make_for_precision(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p,
                                            const char* unsupported) {
  const auto make = [&](auto stored) -> std::unique_ptr<Backend> {
    using T = typename decltype(stored)::type;
    if constexpr (std::is_void_v<T>)
      throw std::invalid_argument(unsupported);
    else
      return std::make_unique<B<L, T>>(cfg, d, p);
  };
  switch (cfg.precision) {
    case Precision::FP32: return make(Stored<Fp32>{});
    case Precision::FP64: return make(Stored<Fp64>{});
    case Precision::FP16S: return make(Stored<Fp16s>{});
  }
  throw std::invalid_argument("unknown precision");
}

}  // namespace aerolbm
