#pragma once
// Before a run starts: what it will need in host memory, device memory and disk space, compared with what there
// is (MemAvailable, the device's free memory, statvfs of the output folder). A run that cannot fit is refused
// with the numbers, before anything is allocated or written.
#include <cstdint>
#include <filesystem>
#include <string>

#include "src/case/case.hpp"
#include "src/case/units.hpp"

namespace aerolbm {

struct ResourceNeeds {
  double host_bytes = 0;
  double device_bytes = 0;  // 0 for the CPU backend
  double disk_bytes = 0;
  std::int64_t frames = 0;  // frames still to write
  double frame_bytes = 0;   // per frame, all formats
  double checkpoint_bytes = 0;
  double forces_bytes = 0;
};

// `cuda`: the run will use the CUDA backend. `first_step`: where a restart begins (frames before it exist).
ResourceNeeds estimate_resources(const Case& c, const LatticeUnits& u, bool cuda, std::int64_t first_step = 0);

struct ResourcesAvailable {
  double host_bytes = -1;    // /proc/meminfo MemAvailable; -1 unknown
  double device_bytes = -1;  // free device memory; -1 unknown or no device
  double disk_bytes = -1;    // free space for an unprivileged user where the run folder is (or will be)
};

ResourcesAvailable available_resources(const std::filesystem::path& output_dir, bool cuda);

// Throws CaseError (exit 2) with the numbers and what to do when a need exceeds what is available.
void check_resources(const ResourceNeeds& need, const ResourcesAvailable& have, const std::filesystem::path& dir);

// "1.23 GB" (decimal units, as df -H).
std::string format_bytes(double bytes);

}  // namespace aerolbm
