// The one path from a command's exceptions to its exit status (src/app/exit_status.hpp).
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/app/exit_status.hpp"
#include "src/case/case.hpp"
#include "src/compare/input_error.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/rank_context.hpp"
#include "src/surrogate/model_file.hpp"

namespace aerolbm::app {
namespace {

struct Reported {
  std::vector<std::pair<int, std::string>> lines;
  ErrorReport report() {
    return [this](int status, const std::string& line) { lines.emplace_back(status, line); };
  }
};

TEST(ExitStatus, TheWorksOwnStatusStands) {
  Reported r;
  EXPECT_EQ(exit_status("compare", [] { return kRunFailure; }, r.report()), kRunFailure);
  EXPECT_EQ(exit_status("run", [] { return 128 + 2; }, r.report()), 130);
  EXPECT_TRUE(r.lines.empty());
}

TEST(ExitStatus, EveryInputErrorIsStatusTwoWithItsMessage) {
  const auto bad = [](auto error) { return [error]() -> int { throw error; }; };
  Reported r;
  EXPECT_EQ(exit_status("run", bad(CaseError("case.yaml:3: physics.mach: expected ...")), r.report()), kBadInput);
  EXPECT_EQ(exit_status("compare", bad(CompareInputError("a/forces.csv: missing")), r.report()), kBadInput);
  EXPECT_EQ(exit_status("predict", bad(surrogate::ModelFileError("model file m.h5: no")), r.report()), kBadInput);
  EXPECT_EQ(exit_status("sweep", bad(BackendUnavailable("--backend cuda: none")), r.report()), kBadInput);
  EXPECT_EQ(exit_status("bench", bad(InputError("--lattice: expected D2Q9")), r.report()), kBadInput);
  ASSERT_EQ(r.lines.size(), 5u);
  EXPECT_EQ(r.lines[0], std::make_pair(kBadInput, std::string("error: case.yaml:3: physics.mach: expected ...")));
  EXPECT_EQ(r.lines[1].second, "error: a/forces.csv: missing");
  EXPECT_EQ(r.lines[2].second, "error: model file m.h5: no");
  EXPECT_EQ(r.lines[3].second, "error: --backend cuda: none");
  EXPECT_EQ(r.lines[4].second, "error: --lattice: expected D2Q9");
}

TEST(ExitStatus, OtherExceptionsAreRunFailuresNamingTheCommand) {
  Reported r;
  const int status =
      exit_status("bench attention", []() -> int { throw std::runtime_error("out of memory"); }, r.report());
  EXPECT_EQ(status, kRunFailure);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0], std::make_pair(kRunFailure, std::string("error: bench attention failed: out of memory")));
}

TEST(ExitStatus, TheDefaultReportIsOneLineOnStderr) {
  testing::internal::CaptureStderr();
  const int status = exit_status("check", []() -> int { throw CaseError("x.yaml: expected a case"); });
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "error: x.yaml: expected a case\n");
  EXPECT_EQ(status, kBadInput);
}

// A rank of an MPI run; abort() throws instead of ending the process.
struct FakeRanks : RankContext {
  explicit FakeRanks(int r) : r_(r) {}
  int rank() const override { return r_; }
  int size() const override { return 2; }
  int max_over_ranks(int v) override { return v; }
  void barrier() override {}
  struct Aborted {
    int status;
  };
  [[noreturn]] void abort(int status) override { throw Aborted{status}; }
  BlockBackend make_backend(BackendKind, const std::array<int, 3>&, const BackendConfig&, const DomainData&,
                            const PhysicsParams&) override {
    return {};
  }
  int r_;
};

TEST(ExitStatus, UnderMpiRankZeroPrintsUntilTheRanksDiverge) {
  std::shared_ptr<RankContext> ranks;
  bool diverged = false;
  const auto fail = []() -> int { throw CaseError("bad"); };
  for (int r : {0, 1}) {
    ranks = std::make_shared<FakeRanks>(r);
    testing::internal::CaptureStderr();
    EXPECT_EQ(exit_status("run", fail, report_on_ranks(ranks, diverged)), kBadInput);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), r == 0 ? "error: bad\n" : "");
  }
}

TEST(ExitStatus, UnderMpiTheFailingRankPrintsAndEndsEveryRankOnceDiverged) {
  std::shared_ptr<RankContext> ranks = std::make_shared<FakeRanks>(1);
  bool diverged = true;
  testing::internal::CaptureStderr();
  try {
    exit_status("run", []() -> int { throw std::runtime_error("disk full"); }, report_on_ranks(ranks, diverged));
    ADD_FAILURE() << "the ranks were not ended";
  } catch (const FakeRanks::Aborted& a) {
    EXPECT_EQ(a.status, kRunFailure);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "rank 1: error: run failed: disk full\n");
}

}  // namespace
}  // namespace aerolbm::app
