#include "src/solver/resources.hpp"

#include <sys/statvfs.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/backend.hpp"
#include "src/solver/case_backend.hpp"
#include "src/solver/output_budget.hpp"

namespace aerolbm {

std::string format_bytes(double b) {
  const char* unit[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int i = 0;
  while (b >= 1000 && i < 5) {
    b /= 1000;
    ++i;
  }
  char s[32];
  std::snprintf(s, sizeof(s), i == 0 ? "%.0f %s" : "%.3g %s", b, unit[i]);
  return s;
}

ResourceNeeds estimate_resources(const Case& c, const LatticeUnits& u, bool cuda, std::int64_t first_step) {
  ResourceNeeds n;
  // With refinement.boxes: every level's grid (each stores, steps and writes frames like level 0); while the run is
  // set up, each level's box is first built at its resolution with a cell to spare (flags and wall-link index).
  const double cells = c.refinement_boxes.empty() ? double(u.nx) * double(u.ny) * double(u.nz)
                                                   : refined_grid_cells(c, u);
  const double level_setup = 5 * refined_setup_cells(c, u);
  const double q = lattice_q(c.stencil);
  const double store = c.precision == Precision::FP64 ? 8 : c.precision == Precision::FP16S ? 2 : 4;
  const bool three_d = dimensions(c.stencil) == 3;
  double floats = 0, mask = 0;  // per cell, one frame
  for (const auto& f : c.fields) {
    if (f == "mask") mask = 1;
    else floats += f == "velocity" ? 3 : (f == "vorticity" && three_d) ? 3 : 1;
  }
  const bool output = c.output_every > 0 && !c.formats.empty();

  // Populations: two lattices (pull, tiled) or one updated in place (aa, plus its 4-byte snapshot-row index per
  // cell). Domain: flags (1 B) and the wall-link index (4 B) per cell.
  const bool in_place = c.kernel == KernelVariant::AA;
  const double lattice = (in_place ? 1 : 2) * q * cells * store + (in_place ? 4 * cells : 0);
  const double domain = 5 * cells;
  // Frames in flight (src/solver/output_budget.hpp): on the GPU the finished fields in pinned slots (and one mask);
  // on the CPU each frame's density, velocity and fields.
  const double per_frame = frame_host_bytes(c.fields, three_d, cells, !cuda);
  const double frames_in_flight_bytes = output ? frames_in_flight(per_frame) * per_frame + mask * cells : 0;
  // A checkpoint reads the whole state as doubles; the pipeline may still be writing the previous one.
  const double checkpoint_staging = 2 * q * cells * 8;
  // The mean fields (output.averages): mean and sum of squared deviations of 4 quantities per cell in double where
  // the state lives, and on the host at the end their copy and the mean frame (8 floats and the mask per cell).
  const double averages = c.averages ? 64 * cells : 0;
  const double mean_frame = c.averages ? 64 * cells + 33 * cells : 0;
  n.host_bytes = domain + std::max(frames_in_flight_bytes, mean_frame) + checkpoint_staging + (cuda ? 0 : lattice) +
                 (cuda ? 0 : averages) + level_setup;
  // Device: the lattices, the domain tables, the frame kernel's input (density, velocity) and two output blocks.
  n.device_bytes =
      cuda ? lattice + domain + averages + (output ? 16 * cells + 2 * 4 * std::max(1.0, floats) * cells : 0) : 0;

  const std::int64_t total = u.total_steps;
  if (output) {
    n.frames = total / c.output_every - first_step / c.output_every + (total % c.output_every ? 1 : 0);
    // Uncompressed size + headers, an upper bound: VTK keeps 4-byte floats, HDF5 takes output.precision.
    for (const auto& f : c.formats) {
      const double float_bytes = f == "hdf5" && c.output_precision == "fp16" ? 2 : 4;
      n.frame_bytes += cells * (floats * float_bytes + mask) + 16384;
    }
  }
  // The new checkpoint is written beside the old one before it replaces it; populations as float or double (double
  // when a value would not survive as float: fp64 storage), every level's with refinement.
  n.checkpoint_bytes = 2 * q * cells * (c.precision == Precision::FP64 ? 8 : 4);
  n.forces_bytes = double(total - first_step) / double(std::max<std::int64_t>(1, c.forces_every)) * 120;
  // The mean frame: 8 floats and the mask per cell in each format.
  const double mean_frame_bytes = c.averages ? double(c.formats.size()) * (cells * 33 + 16384) : 0;
  n.disk_bytes = double(n.frames) * n.frame_bytes + n.checkpoint_bytes + n.forces_bytes + mean_frame_bytes;
  return n;
}

namespace {

double mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream ss(line.substr(13));
      double kb = -1;
      ss >> kb;
      return kb >= 0 ? kb * 1024 : -1;
    }
  }
  return -1;
}

}  // namespace

ResourcesAvailable available_resources(const std::filesystem::path& output_dir, bool cuda) {
  ResourcesAvailable a;
  a.host_bytes = mem_available();
  if (cuda) {
    std::size_t free = 0, total = 0;
    if (cuda_device_memory(free, total)) a.device_bytes = double(free);
  }
  std::filesystem::path p = std::filesystem::absolute(output_dir);
  std::error_code ec;
  while (!p.empty() && !std::filesystem::exists(p, ec) && p != p.parent_path()) p = p.parent_path();
  struct statvfs st {};
  if (::statvfs(p.c_str(), &st) == 0) a.disk_bytes = double(st.f_bavail) * double(st.f_frsize);
  return a;
}

void check_resources(const ResourceNeeds& need, const ResourcesAvailable& have, const std::filesystem::path& dir) {
  std::string problems;
  const std::string escape = " (--ignore-resources runs it anyway.)";
  if (have.host_bytes >= 0 && need.host_bytes > have.host_bytes) {
    problems += "not enough host memory: the run needs about " + format_bytes(need.host_bytes) +
                " (populations, domain tables, frames in flight, checkpoint staging), and " +
                format_bytes(have.host_bytes) +
                " is available (MemAvailable). Use a coarser grid (geometry.chord_cells) or a smaller domain "
                "(domain.size_chords), lattice.kernel: aa (one lattice instead of two), fp32 instead of fp64, or the "
                "GPU backend." + escape + "\n";
  }
  if (have.device_bytes >= 0 && need.device_bytes > have.device_bytes) {
    problems += "not enough GPU memory: the run needs about " + format_bytes(need.device_bytes) + ", and " +
                format_bytes(have.device_bytes) +
                " is free on the device. Use a coarser grid or a smaller domain, lattice.kernel: aa (one lattice "
                "instead of two), lattice.precision: fp16s, or --backend cpu." + escape + "\n";
  }
  if (have.disk_bytes >= 0 && need.disk_bytes > have.disk_bytes) {
    problems += "not enough disk space for the outputs in " + dir.string() + ": about " +
                format_bytes(need.disk_bytes) + " (" + std::to_string(need.frames) + " frames x " +
                format_bytes(need.frame_bytes) + ", checkpoint " + format_bytes(need.checkpoint_bytes) +
                ", forces " + format_bytes(need.forces_bytes) + "), and " + format_bytes(have.disk_bytes) +
                " is free. Raise output.every, write fewer output.fields or output.formats, or choose another "
                "--output." + escape + "\n";
  }
  if (!problems.empty()) {
    problems.pop_back();
    throw CaseError(problems);
  }
}

}  // namespace aerolbm
