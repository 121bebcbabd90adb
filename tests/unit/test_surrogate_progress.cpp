// aerolbm sweep's progress store (src/surrogate/sweep_progress.hpp) and its case files: a case comes back with
// exactly the values it was kept with, a store of another sweep file or one held by another sweep is refused,
// and a kill's leftover .tmp file is ignored.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "src/case/case.hpp"
#include "src/surrogate/case_result_file.hpp"
#include "src/surrogate/sweep_progress.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm::surrogate {
namespace {

using test::TempDir;

CaseResult sample_result(float seed) {
  CaseResult r;
  for (int t = 0; t < 6; ++t) {
    r.u.push_back(seed + 0.1f * float(t));
    r.v.push_back(-seed / 3.0f + float(t));
    r.p.push_back(std::nextafter(seed, 2.0f * seed + 1.0f));
    r.sdf.push_back(float(t) / 7.0f);
    r.mask.push_back(std::uint8_t(t % 2));
  }
  r.sx = {0.1f, 0.2f};
  r.sy = {seed, -seed};
  r.scp = {1.0f / 3.0f, -2.0f / 3.0f};
  r.cl = 0.1 + 1.0 / 3.0;
  r.cd = std::nextafter(0.2, 1.0);
  r.seconds = 1.25;
  r.wall = 1.5;
  r.ok = true;
  return r;
}

SweepSpec spec(const std::string& text) {
  SweepSpec s;
  s.file = "sweep.yaml";
  s.text = text;
  return s;
}

TEST(SurrogateProgress, CaseFileKeepsEveryValueExactly) {
  TempDir dir;
  const CaseResult r = sample_result(0.7f);
  write_case_result(dir.path() / "c.h5", 4, r, "cpu");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "c.h5.tmp"));
  const StoredCase got = read_case_result(dir.path() / "c.h5", 4, 6);
  EXPECT_EQ(got.backend, "cpu");
  EXPECT_TRUE(got.result.ok);
  EXPECT_EQ(got.result.u, r.u);
  EXPECT_EQ(got.result.v, r.v);
  EXPECT_EQ(got.result.p, r.p);
  EXPECT_EQ(got.result.sdf, r.sdf);
  EXPECT_EQ(got.result.mask, r.mask);
  EXPECT_EQ(got.result.sx, r.sx);
  EXPECT_EQ(got.result.sy, r.sy);
  EXPECT_EQ(got.result.scp, r.scp);
  EXPECT_EQ(got.result.cl, r.cl);
  EXPECT_EQ(got.result.cd, r.cd);
  EXPECT_EQ(got.result.seconds, r.seconds);
  EXPECT_EQ(got.result.wall, r.wall);
  EXPECT_THROW(read_case_result(dir.path() / "c.h5", 5, 6), std::runtime_error);  // another case's file
  EXPECT_THROW(read_case_result(dir.path() / "c.h5", 4, 7), std::runtime_error);  // another sample grid

  CaseResult bad;
  bad.error = "diverged at step 12";
  write_case_result(dir.path() / "f.h5", 2, bad, "cuda");
  const StoredCase f = read_case_result(dir.path() / "f.h5", 2, 6);
  EXPECT_FALSE(f.result.ok);
  EXPECT_EQ(f.result.error, "diverged at step 12");
  EXPECT_EQ(f.backend, "cuda");
}

TEST(SurrogateProgress, StoreContinuesOnlyItsOwnSweep) {
  TempDir dir;
  const auto dataset = dir.path() / "ds.h5";
  const auto folder = progress_folder(dataset);
  EXPECT_EQ(folder, dir.path() / "ds.h5.partial");
  {
    SweepProgress store(dataset, spec("count: 3\n"));
    EXPECT_THROW(SweepProgress(dataset, spec("count: 3\n")), CaseError);  // locked by `store`
    store.save(1, sample_result(0.5f), "cpu");
  }
  std::ofstream(folder / "case_000002.h5.tmp") << "half a file";  // as a kill between write and rename leaves
  try {
    SweepProgress other(dataset, spec("count: 4\n"));
    ADD_FAILURE() << "a store of another sweep text was accepted";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("ds.h5.partial belongs to another sweep file"), std::string::npos)
        << e.what();
  }
  SweepProgress store(dataset, spec("count: 3\n"));
  std::vector<CaseResult> results;
  std::vector<bool> have;
  std::vector<std::string> backends;
  EXPECT_EQ(store.load(3, 6, results, have, backends), 1u);
  EXPECT_EQ(have, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(results[1].u, sample_result(0.5f).u);
  EXPECT_EQ(backends, std::vector<std::string>{"cpu"});
  EXPECT_FALSE(std::filesystem::exists(folder / "case_000002.h5.tmp"));
  store.remove();
  EXPECT_FALSE(std::filesystem::exists(folder));
}

TEST(SurrogateProgress, CasesWithoutSweepTextAreRefused) {
  TempDir dir;
  const auto dataset = dir.path() / "ds.h5";
  std::filesystem::create_directory(progress_folder(dataset));
  write_case_result(progress_folder(dataset) / "case_000000.h5", 0, sample_result(0.1f), "cpu");
  EXPECT_THROW(SweepProgress(dataset, spec("count: 3\n")), CaseError);
}

}  // namespace
}  // namespace aerolbm::surrogate
