#include "src/io/field_writer.hpp"

#include <unistd.h>

#include <stdexcept>
#include <system_error>
#include <vector>

#include "src/io/atomic_file.hpp"

namespace aerolbm {

FieldWriter::~FieldWriter() = default;

EncodedFrame::~EncodedFrame() {
  if (!committed && !tmp.empty()) ::unlink(tmp.c_str());
}

void FieldWriter::write(const Frame& frame) {
  FrameData data{frame.step, frame.time, fields_of(frame)};  // checked before any file is touched
  const auto encoded = encode(data, frames());
  sync_file(encoded->tmp, encoded->path);
  commit(*encoded);
}

void create_output_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // Since C++20 (P1164) an existing non-directory at `dir` is an error here too, not a silent success.
  if (ec) throw std::runtime_error("cannot create output folder '" + dir.string() + "': " + ec.message());
}

std::vector<PvdEntry> resumed_frames(const std::filesystem::path& run_dir, const std::vector<double>& resume_times,
                                     const std::function<std::string(std::int64_t)>& name, const std::string& what) {
  std::vector<PvdEntry> entries;
  for (std::size_t k = 0; k < resume_times.size(); ++k) {
    const std::string file = name(std::int64_t(k));
    if (!std::filesystem::exists(run_dir / file))
      throw std::runtime_error("cannot continue the run: " + what + " file '" + (run_dir / file).string() +
                               "' is missing (the checkpoint counts it as written)");
    entries.push_back({resume_times[k], file});
  }
  return entries;
}

int remove_frame_files(const std::filesystem::path& dir, const std::string& prefix, const std::string& suffix,
                       std::int64_t first) {
  namespace fs = std::filesystem;
  int removed = 0;
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    if (name.ends_with(".tmp")) {
      doomed.push_back(e.path());
      continue;
    }
    if (!name.ends_with(suffix)) continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::stoll(digits) >= first) doomed.push_back(e.path());
  }
  for (const auto& p : doomed) {
    // fs::remove never follows a symbolic link; it removes the link.
    if (fs::remove(p, ec)) ++removed;
    if (ec) throw std::runtime_error("cannot remove stale output '" + p.string() + "': " + ec.message());
  }
  return removed;
}

}  // namespace aerolbm
