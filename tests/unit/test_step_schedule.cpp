// The step schedule of Simulation and run_averaged: where chunks and pieces of steps end, and what is due.
#include <gtest/gtest.h>

#include <vector>

#include "src/solver/step_schedule.hpp"

namespace aerolbm {
namespace {

StepSchedule schedule() {
  StepSchedule s;
  s.total = 250;
  s.watchdog = {100, 0};
  s.frames = {30, 0};
  s.forces = {7, 0};
  s.means = {5, 40};
  return s;
}

TEST(StepSchedule, ChunksEndAtEveryChunkEventAndAtTheLastStep) {
  const StepSchedule s = schedule();
  std::vector<std::int64_t> ends;
  for (std::int64_t step = 0; step < s.total; step = s.chunk_end(step)) ends.push_back(s.chunk_end(step));
  const std::vector<std::int64_t> expected = {30, 60, 90, 100, 120, 150, 180, 200, 210, 240, 250};
  EXPECT_EQ(ends, expected);
  // Past the last step (advance() may go on) only the events themselves end a chunk; checkpoints are off.
  EXPECT_EQ(s.chunk_end(250), 270);
}

TEST(StepSchedule, PiecesEndAtForceSamplesAndInsideTheWindowAtMeanSamples) {
  const StepSchedule s = schedule();
  EXPECT_EQ(s.piece_end(0, 30), 7);
  EXPECT_EQ(s.piece_end(28, 30), 30);   // the chunk's end
  EXPECT_EQ(s.piece_end(30, 60), 35);   // a force sample; 35 is before the window: no mean sample
  EXPECT_EQ(s.piece_end(36, 60), 40);   // 40: the window's first mean sample
  EXPECT_EQ(s.piece_end(40, 60), 42);
  EXPECT_EQ(s.piece_end(42, 60), 45);
}

TEST(StepSchedule, DueAtMultiplesFromTheFirstStepAndAtTheLastStep) {
  const StepSchedule s = schedule();
  EXPECT_TRUE(s.due(s.forces, 14));
  EXPECT_FALSE(s.due(s.forces, 15));
  EXPECT_TRUE(s.due(s.forces, 250));  // not a multiple of 7: the last step
  EXPECT_FALSE(s.due(s.means, 35));   // before the window
  EXPECT_TRUE(s.due(s.means, 45));
  EXPECT_TRUE(s.due(s.means, 250));
  EXPECT_FALSE(s.due(s.checkpoints, 250));  // off: not even at the last step
}

}  // namespace
}  // namespace aerolbm
