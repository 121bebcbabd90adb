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

// fsync of an already written file, for files produced by libraries (VTK) before they are renamed into place
// and listed in an index. Throws std::runtime_error with the path on failure.
void fsync_file(const std::filesystem::path& path);

}  // namespace aerolbm
