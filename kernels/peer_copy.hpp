#pragma once
// Device-to-device copies between the GPUs of one node, for the MPI halo exchange when the MPI library cannot take
// device pointers: the receiver exports its device buffer as a CUDA IPC handle, the sender opens it once and copies
// its packed halo straight into it (NVLink or PCIe peer-to-peer; no host memory on the way). Plain C++ (the MPI
// layer includes it); implemented in kernels/cuda/peer_copy.cu; builds without CUDA get
// src/parallel/peer_copy_absent.cpp, where nothing is available.
#include <array>
#include <cstddef>

namespace aerolbm::peer {

using IpcHandle = std::array<char, 64>;  // cudaIpcMemHandle_t's bytes, sent over MPI

// The CUDA device this process uses now (−1 without CUDA).
int current_device();
// Whether this process's device can write into `other`'s memory (true for the same device).
bool can_access(int other);
// The handle of a cudaMalloc'ed buffer (its base address).
IpcHandle export_buffer(void* device_ptr);
// Maps another process's buffer into this one; throws std::runtime_error with CUDA's message when it cannot.
void* open_buffer(const IpcHandle& handle);
void close_buffer(void* mapped);
// Copies `bytes` from this process's device buffer into a mapped one; returns when the copy is complete.
void copy(void* mapped_dst, const void* local_src, std::size_t bytes);

}  // namespace aerolbm::peer
