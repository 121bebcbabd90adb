// Builds without CUDA: no device, so no peer copies (kernels/peer_copy.hpp).
#ifndef AEROLBM_HAVE_CUDA
#include <stdexcept>

#include "kernels/peer_copy.hpp"

namespace aerolbm::peer {

int current_device() { return -1; }
bool can_access(int) { return false; }
IpcHandle export_buffer(void*) { throw std::runtime_error("this build has no CUDA"); }
void* open_buffer(const IpcHandle&) { throw std::runtime_error("this build has no CUDA"); }
void close_buffer(void*) {}
void copy(void*, const void*, std::size_t) { throw std::runtime_error("this build has no CUDA"); }

}  // namespace aerolbm::peer
#endif
