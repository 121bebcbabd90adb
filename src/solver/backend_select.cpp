#include "src/solver/backend_select.hpp"

namespace aerolbm {

BackendKind parse_backend(const std::string& name) {
  if (const auto k = enum_from_name(kBackendNames, name)) return *k;
  throw BackendUnavailable("--backend: expected auto, cpu or cuda, got '" + name + "'.");
}

void require_backend(BackendKind which) {
  if (which == BackendKind::Cuda && cuda_device_count() == 0) {
    throw BackendUnavailable("--backend cuda: no usable CUDA device (" + cuda_device_summary() +
                             "). Use --backend cpu or auto.");
  }
}

BackendKind resolve_backend(BackendKind which) {
  if (which != BackendKind::Auto) return which;
  return cuda_device_count() > 0 ? BackendKind::Cuda : BackendKind::Cpu;
}

std::unique_ptr<Backend> select_backend(BackendKind which, const BackendConfig& cfg, const DomainData& d,
                                        const PhysicsParams& p) {
  require_backend(which);
  if (resolve_backend(which) == BackendKind::Cuda) return make_cuda_backend(cfg, d, p);
  if (cfg.precision == Precision::FP16S) {
    throw BackendUnavailable("lattice.precision: fp16s storage needs the CUDA backend; use fp32 on the CPU.");
  }
  return make_cpu_backend(cfg, d, p);
}

BackendConfig backend_config(const Case& c, int threads) {
  BackendConfig cfg;
  cfg.stencil = c.stencil;
  cfg.precision = c.precision;
  cfg.kernel = c.kernel;
  cfg.threads = threads;
  return cfg;
}

}  // namespace aerolbm
