#pragma once
// Safety of the run folder: a folder that holds a run is not written into unless the user says so (--overwrite
// to replace it, --restart to continue it); one run at a time per folder (an flock'ed lock file); and replacing
// a run removes only files aerolbm writes, never anything else and never anything outside the folder.
#include <filesystem>
#include <string>
#include <vector>

namespace aerolbm::app {

// The names of aerolbm's outputs found in `dir` (empty: no run there).
std::vector<std::string> run_outputs_in(const std::filesystem::path& dir);

// Removes aerolbm's outputs from `dir`: the files of the run folder contract, the frame files inside fields/ and
// vtk/ (and those folders when they end up empty), and their unfinished *.tmp files. Other files stay; symbolic
// links are removed as links, never followed. Throws std::runtime_error when a removal fails.
void remove_run_outputs(const std::filesystem::path& dir);

// Holds an exclusive flock on DIR/.aerolbm.lock for its lifetime (the kernel releases it when the process ends,
// also after kill -9). Throws CaseError, naming the process holding it, when another run has the folder.
class RunFolderLock {
 public:
  explicit RunFolderLock(const std::filesystem::path& dir);
  ~RunFolderLock();
  RunFolderLock(const RunFolderLock&) = delete;
  RunFolderLock& operator=(const RunFolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace aerolbm::app
