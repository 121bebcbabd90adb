#pragma once
// RUN/forces.csv: the force history a run produces every K steps. Lines are flushed one by one (one write call
// each) so that a run killed at any moment leaves a file of complete lines that pandas/numpy read without cleanup;
// a write that fails half-way (disk full, file size limit) is cut back to the last complete line.
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace aerolbm {

class ForcesCsv {
 public:
  // Creates (truncates) `path` and writes one '# key: value' line per header entry (reference values, units),
  // then the column line: step,time,Fx,Fy,Cd,Cl (dims 2) or step,time,Fx,Fy,Fz,Cd,Cl,Cs (dims 3).
  // Throws std::invalid_argument for dims other than 2 or 3, std::runtime_error (with the path) on I/O failure.
  // `extra_columns` follow the coefficients (3D bodies: the moments), one value each per append().
  ForcesCsv(std::filesystem::path path, const std::vector<std::pair<std::string, std::string>>& header, int dims,
            const std::vector<std::string>& extra_columns = {});

  // Continues the file of an earlier run at `after_step`: keeps its header and the complete lines up to and
  // including that step (a later or torn line, written after the checkpoint, is dropped; the file is replaced
  // atomically), then appends. A missing file is started afresh with `header`.
  static ForcesCsv resume(std::filesystem::path path, const std::vector<std::pair<std::string, std::string>>& header,
                          int dims, std::int64_t after_step, const std::vector<std::string>& extra_columns = {});

  // One complete line, 9 significant digits (float-exact), flushed to the OS. In 2D force[2] and cs are ignored.
  // `extra` must hold one value per extra column (std::invalid_argument otherwise).
  void append(std::int64_t step, double time, const std::array<double, 3>& force, double cd, double cl,
              double cs = 0.0, const std::vector<double>& extra = {});

  const std::filesystem::path& path() const { return path_; }
  int dims() const { return dims_; }

 private:
  struct Reopen {};
  ForcesCsv(Reopen, std::filesystem::path path, int dims, std::size_t extra)
      : path_(std::move(path)), dims_(dims), extra_(extra) {}
  void put(const std::string& text);  // write + fflush, throws on failure (the file is cut back to whole lines)

  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::filesystem::path path_;
  int dims_;
  std::size_t extra_ = 0;
  std::unique_ptr<std::FILE, Closer> file_;
  long long good_size_ = 0;  // bytes of complete lines on disk
};

}  // namespace aerolbm
