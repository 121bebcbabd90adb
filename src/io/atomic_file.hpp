#pragma once
// Small text files that other tools poll (fields.xdmf, fields.pvd, summary.json) must never be seen half-written:
// a reader either sees the previous version or the new one, also after a kill or a power cut.
#include <filesystem>
#include <string>

namespace aerolbm {

// Writes `content` to path + ".tmp", flushes it to disk (fsync) and renames it over `path`.
// Throws std::runtime_error naming the path and the failed operation; no .tmp file is left behind on failure.
// The parent folder must exist.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

// Moves a complete temporary file (written by a library: HDF5, VTK) into place: fsync it, rename it over `path`,
// fsync the folder (best effort). On failure the temporary file is removed and std::runtime_error names `path`
// and the failed operation.
void publish_file(const std::filesystem::path& tmp, const std::filesystem::path& path);

// publish_file in two steps, for writers that sync several files at once before moving them in order:
// sync_file flushes `tmp` to disk (fsync; on failure removes it and throws, naming `path`); rename_into_place
// renames the synced file over `path` and fsyncs the folder (on failure removes `tmp` and throws).
void sync_file(const std::filesystem::path& tmp, const std::filesystem::path& path);
void rename_into_place(const std::filesystem::path& tmp, const std::filesystem::path& path);

}  // namespace aerolbm
