#include "src/solver/backend_select.hpp"

namespace aerolbm {

std::unique_ptr<Backend> select_backend(const std::string& which, const BackendConfig& cfg, const DomainData& d,
                                        const PhysicsParams& p) {
  const bool gpu = cuda_device_count() > 0;
  if (which == "cuda" && !gpu) {
    throw BackendUnavailable("--backend cuda: no usable CUDA device (" + cuda_device_summary() +
                             "). Use --backend cpu or auto.");
  }
  if (which == "cuda" || (which == "auto" && gpu)) return make_cuda_backend(cfg, d, p);
  if (which == "cpu" || which == "auto") {
    if (cfg.precision == Precision::FP16S) {
      throw BackendUnavailable("lattice.precision: fp16s storage needs the CUDA backend; use fp32 on the CPU.");
    }
    return make_cpu_backend(cfg, d, p);
  }
  throw BackendUnavailable("--backend: expected auto, cpu or cuda, got '" + which + "'.");
}

}  // namespace aerolbm
