// The output pipeline (src/solver/async_frame_writer.cpp) with several frames in flight: every frame is written,
// committed in order in every format, the memory bound holds, a checkpoint is put in place only after the frames
// before it, and an error keeps the frames before it, stops every later one and leaves no temporary file.
#include <gtest/gtest.h>

#include <hdf5.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

#include "src/io/atomic_file.hpp"
#include "src/io/checkpoint.hpp"
#include "src/solver/async_frame_writer.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm {
namespace {

using test::TempDir;

DomainData small_domain() {
  DomainData d;
  d.nx = 9;
  d.ny = 6;
  d.nz = 1;
  d.flags.assign(std::size_t(d.cells()), cell::fluid);
  d.flags[20] = cell::solid;
  d.link.assign(std::size_t(d.cells()), -1);
  return d;
}

// A transfer as the CUDA backend hands it over: the finished fields (here: pressure = the step everywhere),
// counted while alive, so that the test sees how many frames the pipeline holds.
std::atomic<int> g_alive{0}, g_most_alive{0};

class FakeTransfer final : public FieldsTransfer {
 public:
  FakeTransfer(std::int64_t cells, float value, bool finished)
      : rho_(std::size_t(cells), 1.0f + value * 1e-3f), u_(std::size_t(3 * cells), 0.01f) {
    pressure_.assign(std::size_t(cells), value);
    arrays_.pressure = pressure_.data();
    finished_ = finished;
    const int now = ++g_alive;
    int most = g_most_alive.load();
    while (now > most && !g_most_alive.compare_exchange_weak(most, now)) {
    }
  }
  ~FakeTransfer() override { --g_alive; }
  void wait() override {}
  const float* rho() const override { return finished_ ? nullptr : rho_.data(); }
  const float* u() const override { return finished_ ? nullptr : u_.data(); }
  const FrameArrays* frame() const override { return finished_ ? &arrays_ : nullptr; }

 private:
  std::vector<float> rho_, u_, pressure_;
  FrameArrays arrays_;
  bool finished_ = true;
};

// A writer that writes the frame's first pressure value into a small file, with random encode times, checks that
// commits come in order, and records what it saw.
class RecordingWriter final : public FieldWriter {
 public:
  RecordingWriter(std::filesystem::path dir, std::string name, int encodes, int fail_at = -1,
                  std::chrono::milliseconds commit_delay = std::chrono::milliseconds(0))
      : dir_(std::move(dir)), name_(std::move(name)), encodes_(encodes), fail_at_(fail_at), delay_(commit_delay) {}

  std::unique_ptr<EncodedFrame> encode(const FrameData& f, std::int64_t number) override {
    const int now = ++encoding_;
    {
      std::lock_guard<std::mutex> lock(m_);
      most_encoding_ = std::max(most_encoding_, now);
    }
    unsigned pause;
    {
      std::lock_guard<std::mutex> lock(m_);
      pause = unsigned(rng_() % 4000);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(pause));
    --encoding_;
    if (number == fail_at_) throw std::runtime_error("cannot write '" + name_ + "': File too large");
    auto e = std::make_unique<EncodedFrame>();
    e->number = number;
    e->time = f.time;
    e->path = dir_ / (name_ + "_" + frame_number(number));
    e->tmp = e->path.string() + ".tmp";
    const float* p = nullptr;
    for (const auto& v : f.fields)
      if (v.name == "pressure") p = static_cast<const float*>(v.data);
    std::ofstream(e->tmp) << (p ? p[0] : -1.0f) << " " << f.step << "\n";
    e->bytes = 10;
    return e;
  }

  void commit(EncodedFrame& e) override {
    std::this_thread::sleep_for(delay_);
    if (std::filesystem::exists(dir_ / "checkpoint.h5")) checkpoint_seen_at_.push_back(e.number);
    if (e.number != committed_) out_of_order_ = true;
    rename_into_place(e.tmp, e.path);
    e.committed = true;
    count_bytes(e.bytes);
    ++committed_;
  }

  int max_concurrent_encodes() const override { return encodes_; }
  std::int64_t frames() const override { return committed_; }

  std::filesystem::path dir_;
  std::string name_;
  int encodes_, fail_at_;
  std::chrono::milliseconds delay_;
  std::atomic<int> encoding_{0};
  int most_encoding_ = 0;
  std::mutex m_;
  std::minstd_rand rng_{5};
  std::atomic<std::int64_t> committed_{0};
  std::atomic<bool> out_of_order_{false};
  std::vector<std::int64_t> checkpoint_seen_at_;

 protected:
  std::vector<FieldView> fields_of(const Frame& f) const override {
    GridInfo g;
    g.nx = std::int64_t(f.pressure.size());
    return present_fields(f, g);
  }
};

std::string read_first_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(OutputPipeline, FramesCompleteAndInOrderWithSeveralInFlight) {
  TempDir tmp;
  const DomainData d = small_domain();
  auto a = std::make_unique<RecordingWriter>(tmp.path(), "a", 3);
  auto b = std::make_unique<RecordingWriter>(tmp.path(), "b", 1);
  RecordingWriter* pa = a.get();
  RecordingWriter* pb = b.get();
  std::vector<std::unique_ptr<FieldWriter>> writers;
  writers.push_back(std::move(a));
  writers.push_back(std::move(b));
  g_most_alive = 0;
  {
    AsyncFrameWriter frames(d, std::move(writers), 0.1, 0.5, FrameRequest::from_names({"pressure"}), 3);
    for (int k = 0; k < 24; ++k) {
      FrameJob job;
      job.step = 100 * k;
      job.time = 0.5 * k;
      // The solver holds the next transfer while submit() waits for room: at most max_in_flight + 1 exist.
      job.fields = std::make_unique<FakeTransfer>(d.cells(), float(k), true);
      frames.submit(std::move(job));
    }
    frames.finish();
    EXPECT_EQ(frames.frames_written(), 24);
    EXPECT_EQ(frames.bytes_written(), 2u * 24u * 10u);
    EXPECT_GT(frames.busy_seconds(), 0.0);
    EXPECT_EQ(g_alive.load(), 0) << "every frame's transfer went back";
    EXPECT_LE(g_most_alive.load(), 4);
    EXPECT_GE(pa->most_encoding_, 2) << "the three-encoder writer never had two frames at once";
    EXPECT_EQ(pb->most_encoding_, 1);
    for (RecordingWriter* w : {pa, pb}) {  // the pipeline owns them: looked at before it goes
      EXPECT_FALSE(w->out_of_order_);
      EXPECT_EQ(w->committed_.load(), 24);
      for (int k = 0; k < 24; ++k)
        EXPECT_EQ(read_first_line(tmp.path() / (w->name_ + "_" + frame_number(k))),
                  std::to_string(k) + " " + std::to_string(100 * k));
    }
  }
  for (const auto& e : std::filesystem::directory_iterator(tmp.path()))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST(OutputPipeline, HostBuiltFramesGoToHdf5AndVtkInOrder) {
  TempDir tmp;
  const DomainData d = small_domain();
  GridInfo g;
  g.nx = d.nx;
  g.ny = d.ny;
  g.spacing = {0.5, 0.5, 0.5};
  std::vector<std::unique_ptr<FieldWriter>> writers;
  writers.push_back(make_hdf5_writer(tmp.path(), g, {}));
  writers.push_back(make_vtk_writer(tmp.path(), g, {}));
  {
    AsyncFrameWriter frames(d, std::move(writers), 0.1, 0.5,
                            FrameRequest::from_names({"velocity", "pressure", "vorticity", "mask"}), 2);
    for (int k = 0; k < 7; ++k) {
      FrameJob job;
      job.step = 10 * k;
      job.time = 0.25 * k;
      job.fields = std::make_unique<FakeTransfer>(d.cells(), float(k), false);  // density and velocity
      frames.submit(std::move(job));
    }
    frames.finish();
    EXPECT_EQ(frames.frames_written(), 7);
    EXPECT_GT(frames.bytes_written(), 7u * std::uint64_t(d.cells()) * 4u * 2u);
  }
  const std::string pvd = test::read_text(tmp.path() / "fields.pvd");
  EXPECT_EQ(test::count_of(pvd, "<DataSet"), 7);
  const hid_t f = H5Fopen((tmp.path() / "fields.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  for (int k = 0; k < 7; ++k) {
    const std::string name = "frame_" + frame_number(k);
    const hid_t grp = H5Oopen(f, name.c_str(), H5P_DEFAULT);
    ASSERT_GE(grp, 0) << name;
    const hid_t at = H5Aopen(grp, "step", H5P_DEFAULT);
    std::int64_t step = -1;
    H5Aread(at, H5T_NATIVE_INT64, &step);
    EXPECT_EQ(step, 10 * k);
    // The pressure follows the density (ρ − 1 = k · 1e-3): frames did not swap.
    const hid_t ds = H5Dopen2(grp, "pressure", H5P_DEFAULT);
    std::vector<float> p(std::size_t(d.cells()));
    H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data());
    const double expect = (double(1.0f + float(k) * 1e-3f) - 1.0) * (1.0 / 3.0) / (0.5 * 0.1 * 0.1);
    EXPECT_NEAR(p[0], expect, 1e-5) << name;
    H5Dclose(ds);
    H5Aclose(at);
    H5Oclose(grp);
  }
  H5Fclose(f);
  for (const char* sub : {"fields", "vtk"})
    for (const auto& e : std::filesystem::directory_iterator(tmp.path() / sub))
      EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

Checkpoint small_checkpoint(std::int64_t step) {
  Checkpoint c;
  c.stencil = "D2Q9";
  c.precision = "fp32";
  c.collision = "bgk";
  c.nx = 9;
  c.ny = 6;
  c.nz = 1;
  c.q = 9;
  c.step = step;
  c.populations.assign(9 * 54, 0.25);
  c.frame_times = {0.0, 0.5, 1.0};
  return c;
}

TEST(OutputPipeline, CheckpointGoesInPlaceOnlyAfterTheFramesBeforeIt) {
  TempDir tmp;
  const DomainData d = small_domain();
  auto w = std::make_unique<RecordingWriter>(tmp.path(), "slow", 2, -1, std::chrono::milliseconds(30));
  RecordingWriter* pw = w.get();
  std::vector<std::unique_ptr<FieldWriter>> writers;
  writers.push_back(std::move(w));
  AsyncFrameWriter frames(d, std::move(writers), 0.1, 0.5, FrameRequest::from_names({"pressure"}), 4);
  for (int k = 0; k < 3; ++k) {
    FrameJob job;
    job.step = k;
    job.fields = std::make_unique<FakeTransfer>(d.cells(), float(k), true);
    frames.submit(std::move(job));
  }
  frames.submit_checkpoint(small_checkpoint(3), tmp.path() / "checkpoint.h5");
  FrameJob later;  // after the checkpoint: may land before or after it
  later.step = 3;
  later.fields = std::make_unique<FakeTransfer>(d.cells(), 3.0f, true);
  frames.submit(std::move(later));
  frames.finish();
  for (std::int64_t n : pw->checkpoint_seen_at_) EXPECT_GE(n, 3) << "the checkpoint was in place before frame " << n;
  EXPECT_EQ(pw->committed_.load(), 4);
  const Checkpoint back = read_checkpoint(tmp.path() / "checkpoint.h5");
  EXPECT_EQ(back.step, 3);
  EXPECT_GT(frames.checkpoint_bytes(), 9u * 54u * 4u);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "checkpoint.h5.tmp"));
}

TEST(OutputPipeline, AnErrorStopsEveryLaterFrameAndLeavesNoTempFile) {
  TempDir tmp;
  const DomainData d = small_domain();
  auto bad = std::make_unique<RecordingWriter>(tmp.path(), "bad", 2, 2);
  auto good = std::make_unique<RecordingWriter>(tmp.path(), "good", 2, -1, std::chrono::milliseconds(5));
  RecordingWriter* pbad = bad.get();
  RecordingWriter* pgood = good.get();
  std::vector<std::unique_ptr<FieldWriter>> writers;
  writers.push_back(std::move(bad));
  writers.push_back(std::move(good));
  AsyncFrameWriter frames(d, std::move(writers), 0.1, 0.5, FrameRequest::from_names({"pressure"}), 2);
  std::string message;
  try {
    for (int k = 0; k < 12; ++k) {
      FrameJob job;
      job.step = k;
      job.fields = std::make_unique<FakeTransfer>(d.cells(), float(k), true);
      frames.submit(std::move(job));
    }
    frames.finish();
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  // finish() waits until the frames before the failed one are written, and throws the error again.
  EXPECT_THROW(frames.finish(), std::runtime_error);
  EXPECT_EQ(pbad->committed_.load(), 2);
  EXPECT_GE(pgood->committed_.load(), 2);
  EXPECT_EQ(frames.frames_written(), 2);
  // A checkpoint after the failure is refused too (it would count frames that are missing).
  EXPECT_THROW(frames.submit_checkpoint(small_checkpoint(12), tmp.path() / "checkpoint.h5"), std::runtime_error);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (const auto& e : std::filesystem::directory_iterator(tmp.path()))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "checkpoint.h5"));
}

}  // namespace
}  // namespace aerolbm
