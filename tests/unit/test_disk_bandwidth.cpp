// measure_disk_write_bandwidth writes (and flushes) the bytes asked for into the folder, leaves nothing behind,
// and names the folder when it cannot write there.
#include <gtest/gtest.h>

#include <filesystem>

#include "src/io/disk_bandwidth.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm {
namespace {

TEST(DiskBandwidth, WritesWholeBlocksAndLeavesNothing) {
  test::TempDir tmp;
  const DiskBandwidth b = measure_disk_write_bandwidth(tmp.path(), 12u << 20);
  EXPECT_EQ(b.bytes, 16u << 20);  // two 8 MiB blocks
  EXPECT_GT(b.seconds, 0.0);
  EXPECT_GT(b.mb_per_s, 0.0);
  EXPECT_NEAR(b.mb_per_s, double(b.bytes) / 1e6 / b.seconds, 1e-9 * b.mb_per_s);
  std::printf("disk write bandwidth of %s: %.0f MB/s (16 MiB, fdatasync)\n", tmp.path().c_str(), b.mb_per_s);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(DiskBandwidth, AMissingFolderIsNamed) {
  test::TempDir tmp;
  try {
    measure_disk_write_bandwidth(tmp.path() / "no_such_folder", 1u << 20);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace aerolbm
