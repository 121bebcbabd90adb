#include "src/app/run_folder.hpp"
#include "src/app/entry_points.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "src/case/case.hpp"
#include "src/io/field_writer.hpp"

namespace aerolbm::app {
namespace fs = std::filesystem;

namespace {

const char* const kFiles[] = {"case.yaml",  "summary.json", "forces.csv",    "fields.h5", "fields.xdmf",
                              "fields.pvd", "surface.pvd",  "checkpoint.h5", "polar.csv"};

bool present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(p, ec));
}

// A real folder (not a link to one elsewhere) whose frame files we may remove.
bool real_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(p, ec));
}

void remove_one(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);  // removes a link itself, not its target; a non-empty folder is an error we report
  if (ec) throw std::runtime_error("cannot remove '" + p.string() + "': " + ec.message());
}

}  // namespace

std::vector<std::string> run_outputs_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const char* f : kFiles)
    if (present(dir / f)) found.push_back(f);
  for (const char* sub : {"fields", "vtk", "surface"})
    if (present(dir / sub)) found.push_back(std::string(sub) + "/");
  return found;
}

void remove_run_outputs(const fs::path& dir) {
  for (const char* f : kFiles) {
    if (present(dir / f)) remove_one(dir / f);
    if (present(dir / (std::string(f) + ".tmp"))) remove_one(dir / (std::string(f) + ".tmp"));
  }
  // Frame series: folder, file prefix, suffixes (the surface: .vtp in 3D, .csv in 2D).
  struct Series {
    const char* sub;
    const char* prefix;
    std::vector<const char*> suffixes;
  };
  const Series series[] = {{"fields", "frame_", {".h5"}}, {"vtk", "fields_", {".vti"}},
                           {"surface", "surface_", {".vtp", ".csv"}}};
  for (const auto& [sub, prefix, suffixes] : series) {
    const fs::path d = dir / sub;
    if (real_dir(d)) {
      for (const char* suffix : suffixes) remove_frame_files(d, prefix, suffix, 0);
      std::error_code ec;
      if (fs::is_empty(d, ec)) remove_one(d);
    } else if (present(d)) {
      remove_one(d);  // a link or a plain file with our folder's name: only the entry itself goes
    }
  }
  // Refined runs: each level's frames in levels/level<ℓ>/, a run folder's frame files of their own.
  const fs::path levels = dir / "levels";
  if (real_dir(levels)) {
    std::error_code ec;
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(levels, ec))
      if (e.path().filename().string().rfind("level", 0) == 0 && real_dir(e.path())) found.push_back(e.path());
    for (const fs::path& level : found) {
      remove_run_outputs(level);
      if (fs::is_empty(level, ec)) remove_one(level);
    }
    if (fs::is_empty(levels, ec)) remove_one(levels);
  }
}

RunFolderLock::RunFolderLock(const fs::path& dir) {
  const fs::path path = dir / ".aerolbm.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw CaseError("cannot create the lock file '" + path.string() + "': " + std::strerror(errno) +
                    ". Choose a writable --output folder.");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char pid[32] = {0};
    const ssize_t n = ::pread(fd_, pid, sizeof(pid) - 1, 0);
    ::close(fd_);
    fd_ = -1;
    std::string who = n > 0 ? std::string(pid, std::size_t(n)) : std::string();
    while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
    if (err == EWOULDBLOCK)
      throw CaseError("--output " + dir.string() + ": another aerolbm run" +
                      (who.empty() ? std::string() : " (process " + who + ")") +
                      " is writing to this folder. Wait for it to finish, stop it, or choose another --output.");
    throw CaseError("cannot lock '" + path.string() + "': " + std::strerror(err));
  }
  const std::string me = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    const ssize_t ignored = ::pwrite(fd_, me.data(), me.size(), 0);
    (void)ignored;
  }
}

RunFolderLock::~RunFolderLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock; the file stays, so no other run's lock is ever unlinked
}

// The output folder must be creatable and writable before anything runs. Only checks; creates nothing.
void check_output_dir(const fs::path& dir) {
  fs::path p = fs::absolute(dir);
  std::error_code ec;
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) {
    throw CaseError("--output " + dir.string() + ": exists and is not a directory. Choose another --output.");
  }
  while (!fs::exists(p, ec)) p = p.parent_path();
  if (!fs::is_directory(p, ec) || access(p.c_str(), W_OK | X_OK) != 0) {
    throw CaseError("--output " + dir.string() + ": " + p.string() +
                    " is not writable. Choose a writable --output folder.");
  }
}

void refuse_existing_run(const fs::path& out) {
  const auto found = run_outputs_in(out);
  if (found.empty()) return;
  std::string list;
  for (const auto& f : found) list += (list.empty() ? "" : ", ") + f;
  throw CaseError("--output " + out.string() + " already holds a run (" + list +
                  "). Use --overwrite to replace it, --restart " + out.string() +
                  " to continue it, or choose another --output.");
}

}  // namespace aerolbm::app
