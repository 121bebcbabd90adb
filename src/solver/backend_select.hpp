#pragma once
#include <memory>
#include <string>

#include "kernels/backend.hpp"
#include "src/util/input_error.hpp"

namespace aerolbm {

// A backend that cannot be had (no GPU for --backend cuda, a precision the backend lacks): bad usage, exit 2.
class BackendUnavailable : public InputError {
 public:
  using InputError::InputError;
};

// which: auto (the GPU when one is present, else the CPU) | cpu | cuda.
std::unique_ptr<Backend> select_backend(const std::string& which, const BackendConfig& cfg, const DomainData& d,
                                        const PhysicsParams& p);

}  // namespace aerolbm
