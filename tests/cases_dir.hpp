#pragma once
// Where tests find the repository's case files at run time. The GPU tests (and validation_tests with
// AEROLBM_TEST_BACKEND=cuda) run on a GPU host from the install bundle, where the build host's source tree does not
// exist, so they are built without a source path: $AEROLBM_CASES (ctest and scripts/gpu_session.sh set it), else
// the bundle's own copy (bin/../share/aerolbm/cases beside the test binary). The unit and validation tests are built
// with AEROLBM_SOURCE_DIR and fall back to the source tree's cases/.
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace aerolbm::testing {

inline std::filesystem::path cases_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("AEROLBM_CASES"); env && *env) {
    if (fs::is_regular_file(fs::path(env) / "naca0012_re1000_aoa5.yaml")) return env;
    throw std::runtime_error(std::string("AEROLBM_CASES=") + env +
                             " is not the aerolbm cases/ folder (it has no naca0012_re1000_aoa5.yaml)");
  }
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::is_directory(exe.parent_path().parent_path() / "share/aerolbm/cases"))
    return exe.parent_path().parent_path() / "share/aerolbm/cases";
#ifdef AEROLBM_SOURCE_DIR
  return fs::path(AEROLBM_SOURCE_DIR) / "cases";
#else
  throw std::runtime_error(
      "the case files were not found: set AEROLBM_CASES to the repository's cases/ folder "
      "(e.g. AEROLBM_CASES=$PWD/cases in the repository root), or run the test binary from an install bundle");
#endif
}

}  // namespace aerolbm::testing
