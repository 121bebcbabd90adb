#include "src/io/disk_bandwidth.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace aerolbm {

DiskBandwidth measure_disk_write_bandwidth(const std::filesystem::path& dir, std::size_t bytes) {
  constexpr std::size_t kBlock = std::size_t(8) << 20;
  const std::size_t blocks = std::max<std::size_t>(1, (bytes + kBlock - 1) / kBlock);
  // Random-looking bytes (xorshift), so that neither compression nor zero detection shortens the write.
  std::vector<std::uint64_t> data(kBlock / sizeof(std::uint64_t));
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (auto& v : data) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = x;
  }
  std::string name = (dir / ".aerolbm_disk_bandwidth_XXXXXX").string();
  const auto fail = [&](const char* what, int err) {
    throw std::runtime_error("cannot measure the disk bandwidth with '" + name + "': " + what + " failed: " +
                             std::strerror(err));
  };
  const auto t0 = std::chrono::steady_clock::now();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail("create", errno);
  ::unlink(name.c_str());  // the data still go to the disk; nothing is left behind whatever happens
  for (std::size_t b = 0; b < blocks; ++b) {
    const char* p = reinterpret_cast<const char*>(data.data());
    std::size_t left = kBlock;
    while (left > 0) {
      const ssize_t n = ::write(fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int err = errno;
        ::close(fd);
        fail("write", err);
      }
      p += n;
      left -= std::size_t(n);
    }
    data[b % data.size()] ^= b + 1;  // no two blocks alike
  }
  if (::fdatasync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    fail("fdatasync", err);
  }
  const auto t1 = std::chrono::steady_clock::now();
  ::close(fd);
  DiskBandwidth r;
  r.bytes = blocks * kBlock;
  r.seconds = std::chrono::duration<double>(t1 - t0).count();
  r.mb_per_s = r.seconds > 0 ? double(r.bytes) / 1e6 / r.seconds : 0;
  return r;
}

}  // namespace aerolbm
