#pragma once
// The write bandwidth of the file system a run writes to, measured the way the output pipeline writes: a file
// written in large blocks and flushed with fdatasync, timed from open to the end of the flush. For benchmarks that
// set the bytes per second their frames were written at beside what the disk takes (aerolbm bench --case ...).
#include <cstddef>
#include <filesystem>

namespace aerolbm {

struct DiskBandwidth {
  double mb_per_s = 0;     // bytes / 1e6 per second, the flush included
  double seconds = 0;      // the time taken
  std::size_t bytes = 0;   // bytes written
};

// Writes `bytes` (rounded up to whole 8 MiB blocks of non-zero, incompressible data) to a new temporary file in
// `dir`, fdatasyncs it, removes it and returns the rate. Throws std::runtime_error naming the file when it cannot
// be written (the file is removed). Measure with at least a few hundred MB: a smaller file can be absorbed by a
// disk's write cache.
DiskBandwidth measure_disk_write_bandwidth(const std::filesystem::path& dir, std::size_t bytes);

}  // namespace aerolbm
