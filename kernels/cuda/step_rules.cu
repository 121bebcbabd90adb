#include "kernels/cuda/step_rules.cuh"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace aerolbm::cuda {
namespace {
const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}
}  // namespace

// roles measured faster than one on the shipped cases, pull and aa, fp32 and fp16s, except pull on the smallest 2D
// case (2 to 5 points slower there) and, by at most 1.3 points, pull on the STL body and the default case in
// fp16s; and faster than an earlier split pass (the list on a second stream beside an interior-only kernel). split
// (the list after the interior kernel, overlapping its tail): on the 3D grids of 4 M cells and more, pull fp32
// gained 0.6-1.3 points over roles on the D3Q19 cases (wing 84.0 -> 85.0 % of its box), 5.9 on the Re 3900
// cylinder (D3Q27, entropic collision), 7.3 on the wing in D3Q27; on the small 3D grids it lost 13-18 points (the
// list's chain of loads waits for the plane kernel's last blocks to start), and on every 2D case 5-21 points
// (2026-12-04, H200).
BoundaryPass boundary_pass(int dims, bool in_place, std::int64_t cells) {
  BoundaryPass p = dims == 3 && cells >= (std::int64_t(1) << 22) ? BoundaryPass::split : BoundaryPass::roles;
  if (const char* v = env("AEROLBM_BOUNDARY_PASS")) {
    const std::string s = v;
    if (s == "one") p = BoundaryPass::one;
    else if (s == "roles") p = BoundaryPass::roles;
    else if (s == "split") p = BoundaryPass::split;
    else throw std::invalid_argument("AEROLBM_BOUNDARY_PASS: '" + s + "'; use one, roles or split");
  }
  return in_place && p == BoundaryPass::split ? BoundaryPass::roles : p;
}

// In 3D, where a listed column of inlet and outlet nodes costs more sectors than the divergence of their warps (the
// wing 72.8 -> 82.2 % of its box with roles; with split 74.5 -> 85.0 %); not in 2D, where it is the other way
// round (the cylinder 89.2 % listed, 85.0 % in the plane). The aa variant always lists them: tried in its plane
// blocks, those warps ran the snapshot path beside the in-place one and every case lost (the wing 79.1 -> 60.0 %).
bool open_faces_in_plane(int dims) {
  if (const char* v = env("AEROLBM_OPEN_FACES")) {
    const std::string s = v;
    if (s == "plane") return true;
    if (s == "list") return false;
    throw std::invalid_argument("AEROLBM_OPEN_FACES: '" + s + "'; use list or plane");
  }
  return dims == 3;
}

const char* boundary_pass_name(BoundaryPass p) {
  switch (p) {
    case BoundaryPass::one: return "one pass";
    case BoundaryPass::roles: return "boundary and interior blocks";
    case BoundaryPass::split: return "interior kernel, then the boundary list overlapping its tail";
  }
  return "";
}

}  // namespace aerolbm::cuda
