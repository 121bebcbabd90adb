// checkpoint.h5 and forces.csv continuation, read back through the project's own readers.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/io/checkpoint.hpp"
#include "src/io/forces_csv.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm {
namespace {

using test::read_text;
using test::TempDir;

Checkpoint sample(double scale) {
  Checkpoint c;
  c.stencil = "D2Q9";
  c.precision = "fp64";
  c.collision = "trt";
  c.nx = 40;
  c.ny = 3;
  c.nz = 1;
  c.q = 9;
  c.geometry_hash = 0xfedcba9876543210ull;
  c.tau = 0.53;
  c.u_lattice = 0.0577;
  c.step = 1234;
  c.time = 5.5;
  for (int i = 0; i < 9 * 120; ++i) c.populations.push_back(scale * (i - 50));
  c.force_steps = {10, 20};
  c.force_times = {0.1, 0.2};
  c.cd = {1.5, 1.25};
  c.cl = {0.1, -0.1};
  c.cs = {0, 0};
  c.frame_times = {0.0, 3.25};
  c.case_yaml = "schema_version: 1\n";
  return c;
}

void expect_same(const Checkpoint& a, const Checkpoint& b) {
  EXPECT_EQ(a.stencil, b.stencil);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.collision, b.collision);
  EXPECT_EQ(a.nx, b.nx);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.geometry_hash, b.geometry_hash);
  EXPECT_EQ(a.tau, b.tau);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.populations, b.populations);  // bit for bit
  EXPECT_EQ(a.force_steps, b.force_steps);
  EXPECT_EQ(a.cd, b.cd);
  EXPECT_EQ(a.cl, b.cl);
  EXPECT_EQ(a.frame_times, b.frame_times);
  EXPECT_EQ(a.case_yaml, b.case_yaml);
}

TEST(IoCheckpoint, RoundTripIsExactForFloatAndDoubleStates) {
  TempDir tmp;
  const auto path = tmp.path() / "checkpoint.h5";
  const Checkpoint f = sample(0.125);  // exact in float: stored as float
  write_checkpoint(path, f);
  expect_same(f, read_checkpoint(path));
  const auto float_size = std::filesystem::file_size(path);
  const Checkpoint d = sample(0.1);  // not exact in float: stored as double, still exact
  write_checkpoint(path, d);
  expect_same(d, read_checkpoint(path));
  EXPECT_GT(std::filesystem::file_size(path), float_size);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "checkpoint.h5.tmp"));
}

// 3D bodies keep their moment coefficients, so that a restarted run's window statistics cover them too; a
// checkpoint without them (2D, or written before they were kept) reads back with none.
TEST(IoCheckpoint, MomentCoefficientsRoundTripWhenPresent) {
  TempDir tmp;
  const auto path = tmp.path() / "checkpoint.h5";
  Checkpoint c = sample(0.125);
  c.croll = {0.01, 0.02};
  c.cyaw = {-0.5, 0.25};
  c.cpitch = {0.125, 1.0 / 3.0};
  write_checkpoint(path, c);
  const Checkpoint r = read_checkpoint(path);
  EXPECT_EQ(r.croll, c.croll);
  EXPECT_EQ(r.cyaw, c.cyaw);
  EXPECT_EQ(r.cpitch, c.cpitch);
  write_checkpoint(path, sample(0.125));
  const Checkpoint none = read_checkpoint(path);
  EXPECT_TRUE(none.croll.empty() && none.cyaw.empty() && none.cpitch.empty());
}

TEST(IoCheckpoint, NotACheckpointIsRefusedWithTheFileName) {
  TempDir tmp;
  test::write_file(tmp.path() / "x.h5", "not hdf5");
  for (const char* name : {"x.h5", "missing.h5"}) {
    try {
      read_checkpoint(tmp.path() / name);
      FAIL() << name;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

// A checkpoint that cannot be written completely (file size limit) leaves the previous one as it was.
TEST(IoCheckpoint, FailedWriteKeepsThePreviousCheckpoint) {
  TempDir tmp;
  const auto path = tmp.path() / "checkpoint.h5";
  write_checkpoint(path, sample(0.125));
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 2;
    try {
      ::signal(SIGXFSZ, SIG_IGN);
      Checkpoint big = sample(0.1);
      big.populations.assign(9 * 120 * 100, 0.1);
      big.nx = 4000;
      rlimit tight{16384, 16384};
      ::setrlimit(RLIMIT_FSIZE, &tight);
      write_checkpoint(path, big);
    } catch (const std::runtime_error& e) {
      code = std::string(e.what()).find("checkpoint.h5") != std::string::npos ? 0 : 3;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << "2: no error, 3: message lacks the file";
  expect_same(sample(0.125), read_checkpoint(path));
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "checkpoint.h5.tmp"));
}

TEST(IoForcesCsv, ResumeKeepsCompleteLinesUpToTheStep) {
  TempDir tmp;
  const auto path = tmp.path() / "forces.csv";
  test::write_file(path, "# case: x\nstep,time,Fx,Fy,Cd,Cl\n10,0.1,1,2,3,4\n20,0.2,1,2,3,4\n30,0.3,1,2,3,4\n40,0.4,1,2");
  {
    ForcesCsv csv = ForcesCsv::resume(path, {{"case", "y"}}, 2, 20);
    csv.append(30, 0.3, {5, 6, 0}, 7, 8);
  }
  EXPECT_EQ(read_text(path), "# case: x\nstep,time,Fx,Fy,Cd,Cl\n10,0.1,1,2,3,4\n20,0.2,1,2,3,4\n30,0.3,5,6,7,8\n");
}

}  // namespace
}  // namespace aerolbm
