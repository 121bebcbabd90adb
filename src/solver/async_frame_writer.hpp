#pragma once
// The output pipeline: frames go from the solver to the disk on threads of their own, several at once, so that
// the solver keeps stepping while the host has room and the disk keeps writing.
//   submit()            the solver's thread hands over a frame on its way from the backend (FieldsTransfer)
//   builder thread      waits for the transfer; takes the finished fields the GPU computed, or builds them on the
//                       host (frame_builder: CPU runs, MPI gathers); adds the mask
//   one lane per writer HDF5, VTK, surface: each encodes up to max_concurrent_encodes() frames at once on its own
//                       threads, syncs each file, and commits them in frame order (rename + index); the lanes run
//                       side by side, so HDF5 and VTK are encoded in parallel and several fsyncs keep the disk busy
//   checkpoint thread   submit_checkpoint(): writes and syncs checkpoint.h5.tmp beside the frames, and renames it
//                       only once every frame submitted before it is in place in every format (a checkpoint never
//                       counts a frame that is missing)
// Memory bound: at most `max_in_flight` frames are held at once (submitted, not yet encoded by every lane); a
// further submit() blocks until one is done, as does the GPU backend's start_fields_transfer() at the same count
// (FieldsTransferOptions::max_in_flight). Besides them: one checkpoint's populations (submit_checkpoint() blocks
// while the previous checkpoint is not in place), and per HDF5 frame being encoded under output.precision: fp16
// its 16-bit copy. The run picks max_in_flight from src/solver/output_budget.hpp.
// HDF5 calls hold h5::library_mutex() (src/io/hdf5_util.hpp), so the lanes, the checkpoint thread and the solver's
// thread (collective MPI frames) never enter the library at once.
// Errors: the first one (a lane, the builder, the checkpoint) is rethrown on the solver's thread at the next
// submit(), submit_checkpoint() or finish(). The frames before the one that failed are still written (in every
// format), none from it on: later frames are dropped and their temporary files removed; a checkpoint not yet in
// place is abandoned (the previous one stays).
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "kernels/backend.hpp"
#include "src/io/checkpoint.hpp"
#include "src/io/field_writer.hpp"
#include "src/solver/frame_builder.hpp"

namespace aerolbm {

struct FrameJob {
  std::int64_t step = 0;
  double time = 0;
  std::unique_ptr<FieldsTransfer> fields;  // density and velocity, or the finished fields; possibly in flight
};

class AsyncFrameWriter {
 public:
  AsyncFrameWriter(const DomainData& d, std::vector<std::unique_ptr<FieldWriter>> writers, double u_ref, double dx,
                   FrameRequest request, std::size_t max_in_flight = 2);
  // Finishes the work submitted (unless the pipeline failed), then stops its threads.
  ~AsyncFrameWriter();
  AsyncFrameWriter(const AsyncFrameWriter&) = delete;
  AsyncFrameWriter& operator=(const AsyncFrameWriter&) = delete;

  void submit(FrameJob job);
  // The checkpoint is written beside the frames and put in place after every frame submitted before it.
  void submit_checkpoint(Checkpoint c, std::filesystem::path path);
  // Waits for every frame and checkpoint submitted to be in place; rethrows the first error.
  void finish();
  // Seconds during which frames or checkpoints were on their way to the disk (overlapped with the steps).
  double busy_seconds() const;
  // Frames in place in every format.
  int frames_written() const;
  // Bytes of frame files and their index files, and of checkpoints, written so far.
  std::uint64_t bytes_written() const;
  std::uint64_t checkpoint_bytes() const;
  std::size_t max_in_flight() const { return max_in_flight_; }

 private:
  struct Prepared;
  struct Lane;
  struct CheckpointJob {
    Checkpoint c;
    std::filesystem::path path;
    std::int64_t frames_before = 0;
  };

  void build_loop();
  void lane_loop(Lane& lane);
  void checkpoint_loop();
  std::shared_ptr<const Prepared> prepare(FrameJob job);
  void commit_ready(Lane& lane, std::unique_lock<std::mutex>& lock);
  // With m_ held:
  void fail(std::exception_ptr e, std::int64_t frame);
  std::int64_t frames_done() const;
  bool idle() const;
  bool settled() const;
  void note_activity();
  void rethrow_if_failed();

  const DomainData& domain_;
  GridInfo grid_;
  std::vector<std::unique_ptr<FieldWriter>> writers_;
  double u_ref_, dx_;
  FrameRequest request_;
  std::vector<std::uint8_t> mask_;  // frames the GPU computed: the mask is the same in each
  std::size_t max_in_flight_;

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<FrameJob> jobs_;  // waiting for the builder
  std::int64_t submitted_ = 0;
  std::size_t held_ = 0;  // frames held: submitted, not yet encoded by every lane
  std::optional<CheckpointJob> checkpoint_;  // waiting for the checkpoint thread
  bool checkpoint_active_ = false;
  std::uint64_t checkpoint_bytes_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  std::int64_t stop_at_ = INT64_MAX;  // after an error: frames from this one on are dropped
  double busy_ = 0;
  std::optional<std::chrono::steady_clock::time_point> busy_since_;
  std::vector<std::unique_ptr<Lane>> lanes_;  // after m_ and cv_: frames dropped with a lane reach them
  std::vector<std::thread> threads_;
};

}  // namespace aerolbm
