#pragma once
// The one place that decides which backend runs (resolve_backend) and makes it (select_backend).
#include <memory>
#include <string>

#include "kernels/backend.hpp"
#include "src/case/case.hpp"
#include "src/util/input_error.hpp"

namespace aerolbm {

// A backend that cannot be had (no GPU for --backend cuda, a precision the backend lacks): bad usage, exit 2.
class BackendUnavailable : public InputError {
 public:
  using InputError::InputError;
};

// "auto" | "cpu" | "cuda" (kBackendNames). Throws BackendUnavailable for any other name.
BackendKind parse_backend(const std::string& name);

// Throws BackendUnavailable for Cuda where there is no CUDA device (checked before anything is written).
void require_backend(BackendKind which);

// Where a choice runs: Auto is Cuda when a CUDA device is present, else Cpu; Cpu and Cuda stay as they are.
BackendKind resolve_backend(BackendKind which);

// Makes the backend of `which` (resolved as above). Throws BackendUnavailable for Cuda without a device and for
// fp16s storage on the CPU.
std::unique_ptr<Backend> select_backend(BackendKind which, const BackendConfig& cfg, const DomainData& d,
                                        const PhysicsParams& p);

// What a case asks of its backend: stencil, storage precision, kernel variant; `threads` CPU threads (0: default).
BackendConfig backend_config(const Case& c, int threads);

}  // namespace aerolbm
