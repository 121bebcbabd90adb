// The halo exchange of one rank's block (mpi_halo_exchange.hpp).
// The C API only (Open MPI and MPICH would otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <spdlog/spdlog.h>

#include "src/parallel/mpi_halo_exchange.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "kernels/peer_copy.hpp"
#include "src/parallel/mpi_tags.hpp"
#include "src/parallel/parallel.hpp"

namespace aerolbm {

struct HaloExchange::Requests {
  std::vector<MPI_Request> ack_wait;  // per send link: the receiver's acknowledgement of the last copy
  std::vector<MPI_Request> ack_sent;  // per receive link: our acknowledgement of the last copy
};

HaloExchange::HaloExchange(Backend& local, HaloPlan plan, int rank)
    : local_(local), plan_(std::move(plan)), rank_(rank), requests_(std::make_unique<Requests>()) {
  for (const auto& l : plan_.send) send_ids_.push_back(local_.halo_register(l.cells, l.dirs));
  for (const auto& l : plan_.recv) recv_ids_.push_back(local_.halo_register(l.cells, l.dirs));
  choose_transport();
}

HaloExchange::~HaloExchange() {
  // The last exchange's answers: every rank ends the run together, so the ones still open are completed here.
  for (MPI_Request& r : requests_->ack_sent) MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (MPI_Request& r : requests_->ack_wait) MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (void* p : peer_dst_) peer::close_buffer(p);
}

std::int64_t HaloExchange::populations_sent() const {
  std::int64_t n = 0;
  for (const auto& l : plan_.send) n += std::int64_t(l.cells.size() * l.dirs.size());
  return n;
}

// How each link's populations travel (AEROLBM_MPI_TRANSPORT = auto | peer | cuda-aware | staged). auto, for a
// GPU run: CUDA IPC peer copies on every link whose two ranks share a node and whose GPUs can reach each other;
// MPI for the others, from device memory when the MPI library is CUDA-aware (asked at run time), else through
// pinned host buffers. A CPU run sends from host memory.
void HaloExchange::choose_transport() {
  std::string mode = "auto";
  if (const char* t = std::getenv("AEROLBM_MPI_TRANSPORT")) mode = t;
  if (mode != "auto" && mode != "peer" && mode != "cuda-aware" && mode != "staged")
    throw std::invalid_argument("AEROLBM_MPI_TRANSPORT: expected auto, peer, cuda-aware or staged, got '" + mode +
                                "'. Unset it to let each link choose.");
  peer_.assign(plan_.send.size(), 0);
  peer_dst_.assign(plan_.send.size(), nullptr);
  peer_recv_.assign(plan_.recv.size(), 0);
  requests_->ack_wait.assign(plan_.send.size(), MPI_REQUEST_NULL);
  requests_->ack_sent.assign(plan_.recv.size(), MPI_REQUEST_NULL);
  const bool gpu = local_.kind() == BackendKind::Cuda;
  device_pointers_ = gpu && mode != "staged" && mode != "peer" && mpi_cuda_aware();
  if (gpu && mode == "cuda-aware" && !device_pointers_)
    throw std::invalid_argument("AEROLBM_MPI_TRANSPORT=cuda-aware, but this MPI library cannot take device "
                                "pointers (MPIX_Query_cuda_support). Unset it, or use an MPI built with CUDA.");
  if (gpu && (mode == "auto" || mode == "peer")) open_peer_links(mode == "peer");
  if (!gpu && mode == "peer")
    throw std::invalid_argument("AEROLBM_MPI_TRANSPORT=peer needs the CUDA backend on every rank");
}

// Every receiver sends its sender (node name, device, IPC handle of the receive buffer); the sender maps it if it
// can and answers whether it did, so both ends of a link agree. Collective. required: fail unless every link is
// a peer link.
void HaloExchange::open_peer_links(bool required) {
  struct Offer {
    char node[MPI_MAX_PROCESSOR_NAME];
    int device;
    peer::IpcHandle handle;
  };
  Offer mine{};
  int len = 0;
  MPI_Get_processor_name(mine.node, &len);
  mine.device = peer::current_device();
  std::vector<Offer> offers_out(plan_.recv.size(), mine), offers_in(plan_.send.size());
  std::vector<MPI_Request> req;
  for (std::size_t k = 0; k < plan_.send.size(); ++k) {
    req.emplace_back();
    MPI_Irecv(&offers_in[k], int(sizeof(Offer)), MPI_BYTE, plan_.send[k].peer,
              mpi_tag::kHaloOffer + plan_.send[k].tag, MPI_COMM_WORLD, &req.back());
  }
  for (std::size_t k = 0; k < plan_.recv.size(); ++k) {
    offers_out[k].handle = peer::export_buffer(local_.halo_buffer(recv_ids_[k]).device);
    req.emplace_back();
    MPI_Isend(&offers_out[k], int(sizeof(Offer)), MPI_BYTE, plan_.recv[k].peer,
              mpi_tag::kHaloOffer + plan_.recv[k].tag, MPI_COMM_WORLD, &req.back());
  }
  MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
  req.clear();
  std::string why;
  for (std::size_t k = 0; k < plan_.send.size(); ++k) {
    const Offer& o = offers_in[k];
    if (std::strncmp(o.node, mine.node, MPI_MAX_PROCESSOR_NAME) != 0) {
      why = "rank " + std::to_string(plan_.send[k].peer) + " is on another node";
      continue;
    }
    if (!peer::can_access(o.device)) {
      why = "GPU " + std::to_string(mine.device) + " cannot reach GPU " + std::to_string(o.device);
      continue;
    }
    try {
      peer_dst_[k] = peer::open_buffer(o.handle);
      peer_[k] = 1;
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  for (std::size_t k = 0; k < plan_.recv.size(); ++k) {
    req.emplace_back();
    MPI_Irecv(&peer_recv_[k], 1, MPI_INT, plan_.recv[k].peer, mpi_tag::kHaloAnswer + plan_.recv[k].tag,
              MPI_COMM_WORLD, &req.back());
  }
  for (std::size_t k = 0; k < plan_.send.size(); ++k) {
    req.emplace_back();
    MPI_Isend(&peer_[k], 1, MPI_INT, plan_.send[k].peer, mpi_tag::kHaloAnswer + plan_.send[k].tag,
              MPI_COMM_WORLD, &req.back());
  }
  MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
  int all_peer = 1;
  for (int p : peer_) all_peer = all_peer && p;
  for (int p : peer_recv_) all_peer = all_peer && p;
  MPI_Allreduce(MPI_IN_PLACE, &all_peer, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (required && !all_peer)
    throw std::runtime_error("AEROLBM_MPI_TRANSPORT=peer: not every halo link can use CUDA peer copies" +
                             (why.empty() ? std::string() : " (" + why + ")") +
                             ". Unset AEROLBM_MPI_TRANSPORT to fall back to MPI for those links.");
  if (!why.empty()) spdlog::debug("MPI rank {}: some halo links use MPI: {}", rank_, why);
}

std::string HaloExchange::transport_summary() const {
  if (local_.kind() != BackendKind::Cuda) return "host memory";
  std::size_t links = peer_.size(), on_peer = 0;
  for (int p : peer_) on_peer += std::size_t(p);
  const std::string mpi = device_pointers_ ? "CUDA-aware MPI (device buffers)" : "host-staged MPI (pinned buffers)";
  if (links > 0 && on_peer == links) return "CUDA IPC peer copies (device to device, no host memory)";
  if (on_peer == 0) return mpi;
  return "CUDA IPC peer copies on " + std::to_string(on_peer) + " of " + std::to_string(links) +
         " links of rank 0, " + mpi + " on the others";
}

// Axis by axis: post the receives, pack and send, wait, unpack (halo_plan explains the order). A peer link copies
// the packed halo into the receiver's device buffer and sends an empty message when it is there; the receiver
// answers with an empty message once it has unpacked it, which the sender waits for before it writes that buffer
// again (the next exchange).
void HaloExchange::exchange() {
  std::vector<MPI_Request>& ack_wait = requests_->ack_wait;
  std::vector<MPI_Request>& ack_sent = requests_->ack_sent;
  double t0 = -1;  // when this rank's first halo is packed (its edge layers are done)
  for (int a = 0; a < 3; ++a) {
    std::vector<MPI_Request> req;
    std::vector<std::size_t> got;
    for (std::size_t k = 0; k < plan_.recv.size(); ++k) {
      if (plan_.recv[k].axis != a) continue;
      const HaloBuffer hb = local_.halo_buffer(recv_ids_[k]);
      const int tag = mpi_tag::kHalo + plan_.recv[k].tag;
      req.emplace_back();
      if (peer_recv_[k])
        MPI_Irecv(nullptr, 0, MPI_BYTE, plan_.recv[k].peer, tag, MPI_COMM_WORLD, &req.back());
      else
        MPI_Irecv(device_pointers_ ? hb.device : hb.host, int(hb.bytes), MPI_BYTE, plan_.recv[k].peer, tag,
                  MPI_COMM_WORLD, &req.back());
      got.push_back(k);
    }
    if (got.empty()) continue;
    for (std::size_t k = 0; k < plan_.send.size(); ++k) {
      if (plan_.send[k].axis != a) continue;
      const HaloBuffer hb = local_.halo_buffer(send_ids_[k]);
      const int tag = mpi_tag::kHalo + plan_.send[k].tag;
      req.emplace_back();
      if (peer_[k]) {
        local_.halo_pack(send_ids_[k], false);
        if (t0 < 0) t0 = MPI_Wtime();
        MPI_Wait(&ack_wait[k], MPI_STATUS_IGNORE);  // the receiver has unpacked what we copied last time
        peer::copy(peer_dst_[k], hb.device, hb.bytes);
        MPI_Isend(nullptr, 0, MPI_BYTE, plan_.send[k].peer, tag, MPI_COMM_WORLD, &req.back());
        MPI_Irecv(nullptr, 0, MPI_BYTE, plan_.send[k].peer, mpi_tag::kHaloAck + plan_.send[k].tag, MPI_COMM_WORLD,
                  &ack_wait[k]);
      } else {
        local_.halo_pack(send_ids_[k], !device_pointers_);
        if (t0 < 0) t0 = MPI_Wtime();
        MPI_Isend(device_pointers_ ? hb.device : hb.host, int(hb.bytes), MPI_BYTE, plan_.send[k].peer, tag,
                  MPI_COMM_WORLD, &req.back());
      }
    }
    MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
    for (std::size_t k : got) {
      local_.halo_unpack(recv_ids_[k], !device_pointers_ && !peer_recv_[k]);
      if (peer_recv_[k]) {
        MPI_Wait(&ack_sent[k], MPI_STATUS_IGNORE);
        MPI_Isend(nullptr, 0, MPI_BYTE, plan_.recv[k].peer, mpi_tag::kHaloAck + plan_.recv[k].tag, MPI_COMM_WORLD,
                  &ack_sent[k]);
      }
    }
  }
  if (t0 >= 0) seconds_ += MPI_Wtime() - t0;
  ++exchanges_;
}

}  // namespace aerolbm
