#include "src/compare/plots.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace aerolbm {
namespace fs = std::filesystem;
namespace {

// fork + execv: no shell, so paths with spaces or quotes need no escaping. Returns the exit status (127 when the
// program could not be started, -1 when it was killed).
int run_program(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (quiet) {
      if (std::freopen("/dev/null", "w", stdout) == nullptr || std::freopen("/dev/null", "w", stderr) == nullptr)
        _exit(127);
    } else {
      dup2(STDERR_FILENO, STDOUT_FILENO);  // keep compare's own stdout for its summary
    }
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string python() {
  const char* env = std::getenv("AEROLBM_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

}  // namespace

fs::path find_postprocess_dir() {
  std::error_code ec;
  const auto ok = [&](const fs::path& p) { return !p.empty() && fs::is_regular_file(p / "plot_forces.py", ec); };
  if (const char* env = std::getenv("AEROLBM_POSTPROCESS_DIR"); env && ok(env)) return env;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "aerolbm" / "postprocess";
    if (ok(installed)) return installed;
  }
#ifdef AEROLBM_POSTPROCESS_DIR
  if (ok(AEROLBM_POSTPROCESS_DIR)) return AEROLBM_POSTPROCESS_DIR;
#endif
  return {};
}

ReportImages make_compare_plots(const fs::path& run_a, const fs::path& run_b, const fs::path& errors_h5,
                                bool fields_with_mask, const fs::path& report_dir) {
  ReportImages r;
  const std::string py = python();
  const fs::path scripts = find_postprocess_dir();
  if (scripts.empty()) {
    r.note = "Images skipped: the postprocess/ scripts were not found (set AEROLBM_POSTPROCESS_DIR).";
    return r;
  }
  if (access(py.c_str(), X_OK) != 0 ||
      run_program({py, "-c", "import numpy, h5py, matplotlib"}, true) != 0) {
    r.note = "Images skipped: " + py + " with numpy, h5py and matplotlib is not available (on Debian: apt-get "
             "install python3-numpy python3-h5py python3-matplotlib).";
    return r;
  }
  const fs::path final_dir = report_dir / "images";
  const fs::path tmp = report_dir / "images.tmp";
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) {
    r.note = "Images skipped: cannot create " + tmp.string() + ": " + ec.message();
    return r;
  }
  struct Job {
    std::vector<std::string> argv;
    std::string image;
  };
  const std::string a = fs::absolute(run_a).string(), b = fs::absolute(run_b).string();
  std::vector<Job> jobs;
  jobs.push_back({{py, (scripts / "plot_forces.py").string(), a, b, "--labels", "A", "B", "--output", tmp.string()},
                  "forces.png"});
  if (fields_with_mask)
    jobs.push_back({{py, (scripts / "plot_cp.py").string(), a, b, "--labels", "A", "B", "--output", tmp.string()},
                    "cp.png"});
  if (!errors_h5.empty() && fs::exists(errors_h5, ec))
    jobs.push_back({{py, (scripts / "plot_errors.py").string(), errors_h5.string(), "--output", tmp.string()},
                    "errors.png"});
  for (const auto& j : jobs) {
    const int rc = run_program(j.argv, false);
    if (rc != 0 || !fs::is_regular_file(tmp / j.image, ec)) {
      fs::remove_all(tmp, ec);
      r.note = "Images skipped: " + fs::path(j.argv[1]).filename().string() + " failed (exit status " +
               std::to_string(rc) + "); its messages are above.";
      return r;
    }
  }
  fs::remove_all(final_dir, ec);
  fs::rename(tmp, final_dir, ec);
  if (ec) {
    fs::remove_all(tmp, ec);
    r.note = "Images skipped: cannot move them into " + final_dir.string();
    return r;
  }
  for (const auto& j : jobs) r.files.push_back("images/" + j.image);
  return r;
}

}  // namespace aerolbm
