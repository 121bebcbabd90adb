#pragma once
// The halo exchange of one rank's block: after every step the populations that stream across block faces go into
// the neighbours' ghost layers, axis by axis (halo_plan explains the order). Each link travels by MPI from host
// memory (CPU, or pinned buffers staged from the GPU), by CUDA-aware MPI from device memory, or by CUDA IPC peer
// copies between GPUs of one node (AEROLBM_MPI_TRANSPORT = auto | peer | cuda-aware | staged). Its tags are in
// src/parallel/mpi_tags.hpp. Included only by src/parallel/mpi_*.cpp, but itself free of MPI headers.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/parallel/decomposition.hpp"

namespace aerolbm {

class HaloExchange {
 public:
  // Registers the plan's lists as halo buffers of `local` (which must outlive this) and chooses each link's
  // transport; on GPUs it opens the peer links. Collective. Throws std::invalid_argument for a bad
  // AEROLBM_MPI_TRANSPORT, std::runtime_error when it asks for peer links that cannot be had.
  HaloExchange(Backend& local, HaloPlan plan, int rank);
  // Completes the last exchange's acknowledgements (every rank ends the run together) and unmaps peer buffers.
  ~HaloExchange();
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  // One exchange: post the receives, pack and send, wait, unpack, axis by axis. Collective among neighbours.
  void exchange();

  // How the links travel, in words, for the log line ("host memory", "CUDA IPC peer copies ...").
  std::string transport_summary() const;
  // Populations this rank sends per exchange.
  std::int64_t populations_sent() const;
  // Host time from the first halo packed to the last unpacked, summed over the exchanges, and their count.
  double seconds() const { return seconds_; }
  std::int64_t exchanges() const { return exchanges_; }

 private:
  void choose_transport();
  void open_peer_links(bool required);

  struct Requests;  // the MPI requests of the peer links' acknowledgements (MPI types stay in the .cpp)

  Backend& local_;
  HaloPlan plan_;
  int rank_;
  std::vector<int> send_ids_, recv_ids_;  // the backend's halo buffer of each send / receive list
  bool device_pointers_ = false;          // MPI sends from device memory (CUDA-aware)
  std::vector<int> peer_, peer_recv_;     // per send / receive link: 1 when it uses CUDA IPC peer copies
  std::vector<void*> peer_dst_;           // per send link: the receiver's buffer, mapped here
  std::unique_ptr<Requests> requests_;
  double seconds_ = 0;
  std::int64_t exchanges_ = 0;
};

}  // namespace aerolbm
