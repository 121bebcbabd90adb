// The CPU backend for D3Q27 (kernels/cpu/cpu_backend_impl.hpp); one lattice per file, so the three compile in parallel.
#include "kernels/cpu/cpu_backend_impl.hpp"

namespace aerolbm::cpu {
template std::unique_ptr<Backend> make_cpu_backend_for<D3Q27>(const BackendConfig&, const DomainData&,
                                                           const PhysicsParams&);
}  // namespace aerolbm::cpu
