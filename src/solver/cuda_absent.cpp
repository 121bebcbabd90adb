// CPU-only builds: the CUDA entry points exist and report that there is no CUDA backend.
#ifndef AEROLBM_HAVE_CUDA
#include <stdexcept>

#include "kernels/backend.hpp"
#include "kernels/level_coupling.hpp"

namespace aerolbm {

int cuda_device_count() { return 0; }
std::string cuda_device_summary() { return "this build has no CUDA backend (no CUDA compiler at configure time)"; }
void cuda_use_device(int) {}
double cuda_copy_bandwidth_gbs(std::size_t, int) { return 0.0; }
bool cuda_device_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
  free_bytes = total_bytes = 0;
  return false;
}
std::unique_ptr<Backend> make_cuda_backend(const BackendConfig&, const DomainData&, const PhysicsParams&) {
  throw std::runtime_error(cuda_device_summary());
}

std::unique_ptr<LevelCoupling> make_cuda_level_coupling(Backend&, Backend&, const LevelCouplingTables&) {
  throw std::runtime_error(cuda_device_summary());
}

}  // namespace aerolbm
#endif
