#pragma once
// The check both backend factories (make_cpu_backend, make_cuda_backend) make before they build anything: a
// two-dimensional velocity set cannot update a grid of several z-planes (it would stream nothing along z and leave
// the planes uncoupled, and the backends would size their arrays for one plane). A three-dimensional set on a
// single plane is a quasi-two-dimensional run and is allowed.
#include <stdexcept>
#include <string>

#include "kernels/backend.hpp"

namespace aerolbm {

template <class L>
void require_grid_fits_lattice(const BackendConfig& cfg, const DomainData& d) {
  if (L::D == 2 && d.nz != 1)
    throw std::invalid_argument(std::string("the lattice ") + stencil_name(cfg.stencil) + " is two-dimensional, the grid has " +
                                std::to_string(d.nz) + " z-planes: choose D3Q19 or D3Q27 (lattice.stencil)");
}

}  // namespace aerolbm
