#pragma once
#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/backend.hpp"

namespace aerolbm {

// A backend that cannot be had (no GPU for --backend cuda, a precision the backend lacks): bad usage, exit 2.
class BackendUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// which: auto (the GPU when one is present, else the CPU) | cpu | cuda.
std::unique_ptr<Backend> select_backend(const std::string& which, const BackendConfig& cfg, const DomainData& d,
                                        const PhysicsParams& p);

}  // namespace aerolbm
