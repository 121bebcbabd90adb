#pragma once
// How the CUDA backend's pull and in-place steps reach the cells that are not plain interior (faces, walls, open
// boundaries): the rules, measured on the shipped cases (kernels/PERFORMANCE.md), each with an environment variable
// that overrides it for tests and measurements. Host code, in a file of its own (step_rules.cu) so a rule can change
// without recompiling the kernels.
#include <cstdint>

namespace aerolbm::cuda {

// one   — inside the one-pass kernel, beside the interior cells of their warps (the MPI step's kernel);
// roles — one launch whose first blocks take a list of them and whose other blocks the interior (BlockRoles);
// split — pull only: the interior in a kernel sized for it, then the list in a kernel that starts as the first
//         one's last blocks start (stream_collide_pull_plane); the in-place variant takes roles instead.
enum class BoundaryPass { one, roles, split };

// AEROLBM_BOUNDARY_PASS=one|roles|split overrides the rule.
BoundaryPass boundary_pass(int dims, bool in_place, std::int64_t cells);
// Pull: whether the inlet and outlet nodes stay in the plane blocks. AEROLBM_OPEN_FACES=list|plane overrides it.
bool open_faces_in_plane(int dims);
const char* boundary_pass_name(BoundaryPass p);

}  // namespace aerolbm::cuda
