#pragma once
// RUN/fields.pvd: the VTK collection that makes ParaView load vtk/*.vti as one time series. Regenerated from
// the finished frames and replaced atomically, so it only ever lists complete .vti files.
#include <filesystem>
#include <string>
#include <vector>

namespace aerolbm {

struct PvdEntry {
  double time = 0;
  std::string file;  // relative to the .pvd, e.g. "vtk/fields_000123.vti"
};

std::string pvd_document(const std::vector<PvdEntry>& entries);

// Replaces the file atomically; returns its size in bytes.
std::size_t write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries);

}  // namespace aerolbm
