#pragma once
// RUN/checkpoint.h5: everything a run needs to go on exactly where it was (bit for bit): the populations, the
// step, the force history (for the averaging window and the Strouhal number) and the frames already written,
// plus what the state belongs to (lattice, grid, geometry), so that a restart with another case is refused.
// Written to checkpoint.h5.tmp, flushed to disk and renamed over the previous checkpoint: at every moment the
// folder holds one complete checkpoint (the old one until the new one is whole).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace aerolbm {

struct Checkpoint {
  // What the state belongs to.
  std::string stencil, precision, collision;
  std::int64_t nx = 0, ny = 0, nz = 0;
  int q = 0;
  std::uint64_t geometry_hash = 0;  // of the cell flags: same body, same place, same boundaries
  double tau = 0, u_lattice = 0;
  // Where the run is.
  std::int64_t step = 0;
  double time = 0;
  std::vector<double> populations;  // q × cells, shifted (f − w), SoA as Backend::read_populations gives them
  // Force samples so far (forces.csv holds the same numbers, rounded).
  std::vector<std::int64_t> force_steps;
  std::vector<double> force_times, cd, cl, cs;
  // 3D bodies: the moment coefficients of the same samples (empty otherwise, and in checkpoints written before
  // they were kept).
  std::vector<double> croll, cyaw, cpitch;
  // The pressure part of each sample's C_D (empty in checkpoints written before it was kept).
  std::vector<double> cd_pressure;
  // Times of the field frames written up to `step` (their files are numbered 0 .. n-1).
  std::vector<double> frame_times;
  std::string case_yaml;  // the case as run, for people
};

// Populations are stored as float when every value converts exactly (fp32 and fp16s storage), else as double.
// Throws std::runtime_error naming the file on any failure; the previous checkpoint is then left as it was.
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c);

// The same for the output pipeline's checkpoint thread: once the file is complete and synced under its temporary
// name, `before_publish` runs (it waits for the frames the checkpoint counts to be in place, or throws to abandon
// the checkpoint: the temporary file is removed and the previous checkpoint stays); then the file is renamed into
// place. Returns its size in bytes.
std::uint64_t write_checkpoint(const std::filesystem::path& path, const Checkpoint& c,
                               const std::function<void()>& before_publish);

// Throws std::runtime_error naming the file when it is missing, unreadable or not a checkpoint.
Checkpoint read_checkpoint(const std::filesystem::path& path);

// 64-bit FNV-1a over bytes: the geometry fingerprint.
std::uint64_t fingerprint(const void* data, std::size_t bytes);

}  // namespace aerolbm
