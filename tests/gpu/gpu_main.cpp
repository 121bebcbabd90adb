// GPU tests skip as a whole (exit 77, which ctest reports as skipped) where no CUDA device is present.
#include <gtest/gtest.h>

#include <cstdio>

#include "kernels/backend.hpp"

int main(int argc, char** argv) {
  if (aerolbm::cuda_device_count() == 0) {
    std::printf("SKIPPED: no CUDA device here (%s); the gpu tests run on a GPU host.\n",
                aerolbm::cuda_device_summary().c_str());
    return 77;
  }
  std::printf("%s\n", aerolbm::cuda_device_summary().c_str());
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
