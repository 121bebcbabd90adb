#include "src/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace aerolbm {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* operation, int err) {
  throw std::runtime_error("cannot write '" + path.string() + "': " + operation + " failed: " + std::strerror(err));
}

// Closes and removes the temp file unless the rename went through, so a failure leaves no stray .tmp.
struct TempFile {
  std::string name;
  int fd = -1;
  bool renamed = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!renamed) ::unlink(name.c_str());
  }
};

// Persists the directory entry of a renamed file; best effort, since some file systems refuse fsync on folders.
void fsync_folder_of(const std::filesystem::path& path) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  TempFile tmp;
  tmp.name = path.string() + ".tmp";
  tmp.fd = ::open(tmp.name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (tmp.fd < 0) fail(path, "open of temp file", errno);

  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(tmp.fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "write", errno);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // Without fsync the rename can reach the disk before the data, and a power cut leaves an empty file.
  if (::fsync(tmp.fd) != 0) fail(path, "fsync", errno);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) fail(path, "close", errno);
  if (::rename(tmp.name.c_str(), path.c_str()) != 0) fail(path, "rename", errno);
  tmp.renamed = true;
  fsync_folder_of(path);
}

void sync_file(const std::filesystem::path& tmp, const std::filesystem::path& path) {
  // Data on disk before the name: otherwise a power cut after the rename can leave an empty file.
  const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, "fsync", err);
  }
  ::close(fd);
}

void rename_into_place(const std::filesystem::path& tmp, const std::filesystem::path& path) {
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "rename", err);
  }
  fsync_folder_of(path);
}

void publish_file(const std::filesystem::path& tmp, const std::filesystem::path& path) {
  sync_file(tmp, path);
  rename_into_place(tmp, path);
}

}  // namespace aerolbm
