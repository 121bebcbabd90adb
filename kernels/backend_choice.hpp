#pragma once
// What a run chooses of its backend: which backend and which kernel variant, as enums with one name table each.
// The command line, the case file (lattice.kernel), the Python module, messages and JSON read and write these
// names. Plain C++17 (the .cu files include it through kernels/backend.hpp; src/case includes it too).
#include <cstdint>

#include "kernels/physics/enum_names.hpp"

namespace aerolbm {

// As asked for (Auto: the GPU when one is present, resolve_backend in src/solver/backend_select.hpp) and, Cpu or
// Cuda, as made.
enum class BackendKind : std::uint8_t { Auto, Cpu, Cuda };
inline constexpr EnumName<BackendKind> kBackendNames[] = {
    {BackendKind::Auto, "auto"}, {BackendKind::Cpu, "cpu"}, {BackendKind::Cuda, "cuda"}};
constexpr const char* backend_name(BackendKind k) { return enum_name(kBackendNames, k); }

// lattice.kernel. Auto: pull. Pull: two lattices, one thread per cell; AA: one lattice updated in place (CPU and
// CUDA); Tiled: the CUDA pull kernel staged through shared memory (the CPU runs pull).
enum class KernelVariant : std::uint8_t { Auto, Pull, AA, Tiled };
inline constexpr EnumName<KernelVariant> kKernelNames[] = {{KernelVariant::Auto, "auto"},
                                                           {KernelVariant::Pull, "pull"},
                                                           {KernelVariant::AA, "aa"},
                                                           {KernelVariant::Tiled, "tiled"}};
constexpr const char* kernel_name(KernelVariant k) { return enum_name(kKernelNames, k); }

}  // namespace aerolbm
