#pragma once
// Every MPI message tag of the program, in one place, so that no two kinds of message can meet. Point-to-point
// messages between face neighbours carry face(axis, towards_plus) (0..5) plus the base of their kind; collectives
// need no tag. Plain C++ (no MPI header): halo_plan (decomposition.cpp) writes the face part into its lists.
namespace aerolbm::mpi_tag {

// The face part: 2·axis + 1 when the message travels towards +axis.
constexpr int face(int axis, bool towards_plus) { return 2 * axis + (towards_plus ? 1 : 0); }

// The halo exchange (mpi_halo_exchange.cpp), on top of the face part.
constexpr int kHalo = 0;          // the populations; on a peer link, an empty "copied" note
constexpr int kHaloAck = 100;     // peer link: the receiver has unpacked, the sender may write its buffer again
constexpr int kHaloOffer = 200;   // peer link set-up: the receiver's node, device and IPC handle
constexpr int kHaloAnswer = 400;  // peer link set-up: whether the sender mapped the receiver's buffer
// The layer of neighbour values for collective output (mpi_block_fields.cpp), on top of the face part.
constexpr int kBlockFields = 300;
// Gathers too large for MPI's int counts: one message per rank to rank 0 (mpi_distributed_backend.cpp).
constexpr int kLargeGather = 77;

}  // namespace aerolbm::mpi_tag
