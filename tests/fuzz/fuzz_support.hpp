#pragma once
// Shared by the fuzz targets (and their replay executables): a scratch folder whose path stays the same for the
// whole process, so one input always gives the same messages, and a loud stop for a broken promise.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace aerolbm::fuzz {

// <tmp>/aerolbm_fuzz_<pid>: per process because libFuzzer's -jobs/-fork runs several at once. Removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("aerolbm_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return d;
  }();
  return dir;
}

inline void write_file(const std::filesystem::path& file, std::string_view bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "fuzz harness: cannot write %s\n", file.c_str());
    std::abort();
  }
}

// The code under test broke one of its promises: abort so that libFuzzer (or ctest) records the input.
[[noreturn]] inline void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "\nFUZZ INVARIANT BROKEN: %s\n---\n%s\n---\n", what.c_str(), detail.c_str());
  std::abort();
}

}  // namespace aerolbm::fuzz
