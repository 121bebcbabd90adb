#pragma once
// One CUDA backend factory per lattice, each compiled in its own translation unit (cuda_backend_<lattice>.cu), and
// one per lattice with the entropic collision (EntropicCollision<L>, cuda_backend_<lattice>_kbc.cu).
#include <memory>

#include "kernels/backend.hpp"
#include "kernels/lattice/lattice.hpp"
#include "kernels/physics/collision.hpp"

namespace aerolbm {

template <class L>
std::unique_ptr<Backend> make_cuda_backend_for(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p);

extern template std::unique_ptr<Backend> make_cuda_backend_for<D2Q9>(const BackendConfig&, const DomainData&,
                                                                     const PhysicsParams&);
extern template std::unique_ptr<Backend> make_cuda_backend_for<D3Q19>(const BackendConfig&, const DomainData&,
                                                                      const PhysicsParams&);
extern template std::unique_ptr<Backend> make_cuda_backend_for<D3Q27>(const BackendConfig&, const DomainData&,
                                                                      const PhysicsParams&);
extern template std::unique_ptr<Backend> make_cuda_backend_for<EntropicCollision<D2Q9>>(const BackendConfig&,
                                                                                        const DomainData&,
                                                                                        const PhysicsParams&);
extern template std::unique_ptr<Backend> make_cuda_backend_for<EntropicCollision<D3Q19>>(const BackendConfig&,
                                                                                         const DomainData&,
                                                                                         const PhysicsParams&);
extern template std::unique_ptr<Backend> make_cuda_backend_for<EntropicCollision<D3Q27>>(const BackendConfig&,
                                                                                         const DomainData&,
                                                                                         const PhysicsParams&);

}  // namespace aerolbm
