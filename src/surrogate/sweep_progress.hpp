#pragma once
// The progress store of `aerolbm sweep`: the folder DATASET.partial beside the dataset (DATASET being --out),
// holding sweep.yaml (the sweep file's exact text, which it belongs to) and one case_NNNNNN.h5 per finished case
// (src/surrogate/case_result_file.hpp), each written to a temporary name and renamed. A sweep killed at any
// moment loses only the cases in flight; the same command continues from the store, and removes it once the
// dataset is written. An exclusive lock (flock on its file `lock`) keeps two sweeps from sharing one store.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "src/surrogate/sweep_file.hpp"
#include "src/surrogate/sweep_runner.hpp"

namespace aerolbm::surrogate {

// DATASET.partial for the dataset's path.
std::filesystem::path progress_folder(const std::filesystem::path& dataset);

class SweepProgress {
 public:
  // Opens the store of `dataset` for the sweep `s` (creating it when there is none) and locks it. Throws
  // CaseError (exit 2) when it belongs to another sweep file (other text) or holds cases but no sweep.yaml,
  // when another sweep holds its lock, and when it cannot be created; each message names the folder and what
  // to do.
  SweepProgress(const std::filesystem::path& dataset, const SweepSpec& s);
  ~SweepProgress();
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

  const std::filesystem::path& folder() const { return folder_; }

  // Loads every finished case of the store into results (sized to `cases`), marking it in `have`; a case file
  // that cannot be read (which the rename should make impossible) is removed with a warning and runs again.
  // `backends` gets each backend the stored cases ran on, in case order, without repeats. Returns how many.
  std::size_t load(std::size_t cases, std::size_t points, std::vector<CaseResult>& results, std::vector<bool>& have,
                   std::vector<std::string>& backends) const;
  // Keeps case i (ok or failed) in the store.
  void save(std::size_t i, const CaseResult& r, const std::string& backend) const;
  // Removes the store (after the dataset is published).
  void remove();

 private:
  std::filesystem::path case_path(std::size_t i) const;
  void check_owner(const SweepSpec& s) const;  // the store is this sweep's, or throws CaseError
  std::filesystem::path folder_;
  int lock_fd_ = -1;
};

}  // namespace aerolbm::surrogate
