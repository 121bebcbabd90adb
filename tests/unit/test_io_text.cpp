// forces.csv, summary.json and the atomic file helper.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <limits>

#include "src/io/atomic_file.hpp"
#include "src/io/forces_csv.hpp"
#include "src/io/json.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm {
namespace {

using test::read_text;
using test::TempDir;

TEST(IoForcesCsv, TwoDimensionalFormat) {
  TempDir tmp;
  const auto path = tmp.path() / "forces.csv";
  {
    ForcesCsv csv(path, {{"U_ref", "0.05"}, {"note", "two\nlines"}}, 2);
    csv.append(10, 0.125, {1.5, -0.25, 99.0}, 0.0123456789012, 1.0 / 3.0, 42.0);
    csv.append(20, 0.25, {2e-12, 3e20, 0.0}, -1.0, 0.0);
  }
  EXPECT_EQ(read_text(path),
            "# U_ref: 0.05\n"
            "# note: two lines\n"
            "step,time,Fx,Fy,Cd,Cl\n"
            "10,0.125,1.5,-0.25,0.0123456789,0.333333333\n"
            "20,0.25,2e-12,3e+20,-1,0\n");
}

TEST(IoForcesCsv, ThreeDimensionalFormat) {
  TempDir tmp;
  const auto path = tmp.path() / "forces.csv";
  ForcesCsv csv(path, {{"A_ref", "1"}}, 3);
  csv.append(123456789012, 7.5, {1, 2, 3}, 0.5, 0.25, -0.125);
  // No destructor yet: the line must already be in the file (flushed per line).
  EXPECT_EQ(read_text(path), "# A_ref: 1\nstep,time,Fx,Fy,Fz,Cd,Cl,Cs\n123456789012,7.5,1,2,3,0.5,0.25,-0.125\n");
}

TEST(IoForcesCsv, BadDimsAndBadPathThrow) {
  TempDir tmp;
  EXPECT_THROW(ForcesCsv(tmp.path() / "f.csv", {}, 1), std::invalid_argument);
  const auto bad = tmp.path() / "missing" / "forces.csv";
  try {
    ForcesCsv csv(bad, {}, 2);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
}

TEST(IoForcesCsv, DiskFullThrows) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  try {
    ForcesCsv csv("/dev/full", {{"k", "v"}}, 2);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
  }
}

TEST(IoForcesCsv, KilledProcessLeavesCompleteLines) {
  TempDir tmp;
  const auto path = tmp.path() / "forces.csv";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      ForcesCsv csv(path, {}, 2);
      for (int i = 0; i < 3; ++i) csv.append(i, 0.5 * i, {1, 2, 0}, 0.1, 0.2);
      ::kill(::getpid(), SIGKILL);
    } catch (...) {
    }
    ::_exit(3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(read_text(path), "step,time,Fx,Fy,Cd,Cl\n0,0,1,2,0.1,0.2\n1,0.5,1,2,0.1,0.2\n2,1,1,2,0.1,0.2\n");
}

TEST(IoJson, EscapesStrings) {
  EXPECT_EQ(Json("a\"b\\c/d\n\t\r\b\f\x01\x1f é").dump(), "\"a\\\"b\\\\c/d\\n\\t\\r\\b\\f\\u0001\\u001f é\"");
  EXPECT_EQ(Json::object().set("k\"ey", 1).dump(0), "{\"k\\\"ey\":1}");
}

TEST(IoJson, NumbersAndNonFinite) {
  EXPECT_EQ(Json(0.1).dump(), "0.1");
  EXPECT_EQ(Json(1e300).dump(), "1e+300");
  EXPECT_EQ(Json(-2.5f).dump(), "-2.5");
  EXPECT_EQ(Json(std::int64_t{9007199254740993}).dump(), "9007199254740993");  // not representable as double
  EXPECT_EQ(Json(std::size_t{7}).dump(), "7");
  EXPECT_EQ(Json(std::nan("")).dump(), "null");
  EXPECT_EQ(Json(std::numeric_limits<double>::infinity()).dump(), "null");
  EXPECT_EQ(Json(-std::numeric_limits<double>::infinity()).dump(), "null");
  EXPECT_EQ(Json(true).dump(), "true");
  EXPECT_EQ(Json().dump(), "null");
  EXPECT_EQ(Json("x").type(), Json::Type::String);  // a string literal must not turn into a bool
}

TEST(IoJson, KeepsInsertionOrderAndPrettyPrints) {
  Json j;
  j["zeta"] = "first";
  j["alpha"] = 2;
  j["grid"]["nx"] = 7;
  j["grid"]["ny"] = 5;
  j["zeta"] = "replaced";  // keeps its place
  j["list"].push_back(1.5);
  j["list"].push_back(Json());
  j["list"].push_back(Json::array());
  j["empty"] = Json::object();
  EXPECT_EQ(j.dump(),
            "{\n"
            "  \"zeta\": \"replaced\",\n"
            "  \"alpha\": 2,\n"
            "  \"grid\": {\n"
            "    \"nx\": 7,\n"
            "    \"ny\": 5\n"
            "  },\n"
            "  \"list\": [\n"
            "    1.5,\n"
            "    null,\n"
            "    []\n"
            "  ],\n"
            "  \"empty\": {}\n"
            "}");
  EXPECT_EQ(j.dump(0), "{\"zeta\":\"replaced\",\"alpha\":2,\"grid\":{\"nx\":7,\"ny\":5},\"list\":[1.5,null,[]],"
                       "\"empty\":{}}");
  ASSERT_NE(j.find("alpha"), nullptr);
  EXPECT_EQ(j.find("missing"), nullptr);
  EXPECT_THROW(j.push_back(1), std::logic_error);
  EXPECT_THROW(j["alpha"]["x"], std::logic_error);
}

TEST(IoJson, WritesFileAtomically) {
  TempDir tmp;
  const auto path = tmp.path() / "summary.json";
  Json j;
  j["cd"] = std::nan("");
  j["steps"] = 100;
  write_json_atomically(path, j);
  EXPECT_EQ(read_text(path), "{\n  \"cd\": null,\n  \"steps\": 100\n}\n");
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "summary.json.tmp"));
}

TEST(IoAtomicFile, ReplacesContentAndLeavesNoTemp) {
  TempDir tmp;
  const auto path = tmp.path() / "index.xml";
  write_file_atomically(path, "old content that is longer");
  write_file_atomically(path, "new");
  EXPECT_EQ(read_text(path), "new");
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "index.xml.tmp"));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.path())) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(IoAtomicFile, FailureThrowsWithPathAndLeavesNoTemp) {
  TempDir tmp;
  const auto missing = tmp.path() / "no_such_dir" / "x.json";
  try {
    write_file_atomically(missing, "x");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  // Rename fails (target is a non-empty directory): the written temp file must be removed again.
  const auto blocked = tmp.path() / "blocked";
  std::filesystem::create_directories(blocked / "inside");
  EXPECT_THROW(write_file_atomically(blocked, "x"), std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "blocked.tmp"));
  EXPECT_TRUE(std::filesystem::is_directory(blocked / "inside"));
}

}  // namespace
}  // namespace aerolbm
