#include "src/surrogate/sweep_progress.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "src/case/case.hpp"
#include "src/io/atomic_file.hpp"
#include "src/surrogate/case_result_file.hpp"

namespace aerolbm::surrogate {
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_case_file(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.rfind("case_", 0) == 0 && p.extension() == ".h5";
}

}  // namespace

fs::path progress_folder(const fs::path& dataset) { return fs::path(dataset.string() + ".partial"); }

SweepProgress::SweepProgress(const fs::path& dataset, const SweepSpec& s) : folder_(progress_folder(dataset)) {
  const std::string what_to_do = " Delete the folder to start the sweep afresh, or give another --out.";
  std::error_code ec;
  if (fs::exists(folder_, ec) && !fs::is_directory(folder_, ec))
    throw CaseError("the sweep's progress store " + folder_.string() + " is not a folder." + what_to_do);
  fs::create_directory(folder_, ec);
  if (ec) throw CaseError("cannot create the sweep's progress store " + folder_.string() + ": " + ec.message());
  const fs::path lock = folder_ / "lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw CaseError("cannot open " + lock.string() + " (the sweep's progress store)");
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw CaseError("another aerolbm sweep is writing the progress store " + folder_.string() +
                    " (it holds its lock). Wait for it to end, or give another --out.");
  }
  try {
    check_owner(s);
  } catch (...) {  // a throwing constructor runs no destructor: let go of the lock here
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw;
  }
}

void SweepProgress::check_owner(const SweepSpec& s) const {
  const std::string what_to_do = " Delete the folder to start the sweep afresh, or give another --out.";
  std::error_code ec;
  const fs::path yaml = folder_ / "sweep.yaml";
  if (fs::exists(yaml, ec)) {
    if (read_text(yaml) != s.text)
      throw CaseError("the progress store " + folder_.string() + " belongs to another sweep file (its sweep.yaml " +
                      "differs from " + s.file.string() + "), so its finished cases are not this sweep's." +
                      what_to_do);
    return;
  }
  for (const auto& e : fs::directory_iterator(folder_))
    if (is_case_file(e.path()))
      throw CaseError("the progress store " + folder_.string() + " holds finished cases but no sweep.yaml, so " +
                      "nothing says which sweep they belong to." + what_to_do);
  write_file_atomically(yaml, s.text);
}

SweepProgress::~SweepProgress() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

fs::path SweepProgress::case_path(std::size_t i) const {
  char name[32];
  std::snprintf(name, sizeof(name), "case_%06zu.h5", i);
  return folder_ / name;
}

std::size_t SweepProgress::load(std::size_t cases, std::size_t points, std::vector<CaseResult>& results,
                                std::vector<bool>& have, std::vector<std::string>& backends) const {
  results.assign(cases, CaseResult{});
  have.assign(cases, false);
  backends.clear();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder_))  // a kill between write and rename leaves a .tmp
    if (e.path().extension() == ".tmp") fs::remove(e.path(), ec);
  std::size_t n = 0;
  for (std::size_t i = 0; i < cases; ++i) {
    const fs::path p = case_path(i);
    if (!fs::exists(p, ec)) continue;
    try {
      StoredCase c = read_case_result(p, i, points);
      results[i] = std::move(c.result);
      have[i] = true;
      ++n;
      if (std::find(backends.begin(), backends.end(), c.backend) == backends.end()) backends.push_back(c.backend);
    } catch (const std::exception& e) {
      spdlog::warn("{}; it runs again", e.what());
      fs::remove(p, ec);
    }
  }
  return n;
}

void SweepProgress::save(std::size_t i, const CaseResult& r, const std::string& backend) const {
  write_case_result(case_path(i), i, r, backend);
}

void SweepProgress::remove() {
  std::error_code ec;
  fs::remove_all(folder_, ec);
  if (ec) spdlog::warn("could not remove the progress store {}: {}", folder_.string(), ec.message());
  if (lock_fd_ >= 0) ::close(lock_fd_);
  lock_fd_ = -1;
}

}  // namespace aerolbm::surrogate
