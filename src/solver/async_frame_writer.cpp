#include "src/solver/async_frame_writer.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "src/io/atomic_file.hpp"

namespace aerolbm {

// One frame ready for the writers. The lanes share it; the last one to finish encoding it drops it, which frees
// its arrays (or hands the GPU's pinned slot back) and makes room for the next frame.
struct AsyncFrameWriter::Prepared {
  FrameData data;
  Frame host;                              // fields built on the host
  std::unique_ptr<FieldsTransfer> fields;  // fields computed on the GPU, borrowed from the transfer's slot
};

struct AsyncFrameWriter::Lane {
  FieldWriter* writer = nullptr;
  std::int64_t base = 0;  // the writer's frame count at the start: frame k of this run is number base + k
  int max_encodes = 1;
  std::deque<std::pair<std::int64_t, std::shared_ptr<const Prepared>>> queue;  // (k, frame), in order
  int encoding = 0;
  std::map<std::int64_t, std::unique_ptr<EncodedFrame>> ready;  // encoded and synced, waiting for their turn
  std::int64_t committed = 0;  // frames 0 .. committed − 1 are in place
  bool committing = false;
};

AsyncFrameWriter::AsyncFrameWriter(const DomainData& d, std::vector<std::unique_ptr<FieldWriter>> writers,
                                   double u_ref, double dx, FrameRequest request, std::size_t max_in_flight)
    : domain_(d), writers_(std::move(writers)), u_ref_(u_ref), dx_(dx), request_(request),
      max_in_flight_(std::max<std::size_t>(1, max_in_flight)) {
  grid_.nx = d.nx;
  grid_.ny = d.ny;
  grid_.nz = d.nz;
  if (request_.mask && !writers_.empty()) mask_ = frame_mask(d);
  for (auto& w : writers_) {
    auto lane = std::make_unique<Lane>();
    lane->writer = w.get();
    lane->base = w->frames();
    lane->max_encodes = std::max(1, w->max_concurrent_encodes());
    lanes_.push_back(std::move(lane));
  }
  threads_.emplace_back([this] { build_loop(); });
  threads_.emplace_back([this] { checkpoint_loop(); });
  for (auto& lane : lanes_)
    for (int t = 0; t < lane->max_encodes; ++t) threads_.emplace_back([this, l = lane.get()] { lane_loop(*l); });
}

AsyncFrameWriter::~AsyncFrameWriter() {
  {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [this] { return idle() || (error_ && settled()); });
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

// ---- the solver's side ----------------------------------------------------------------------------------------------

void AsyncFrameWriter::rethrow_if_failed() {
  if (error_) std::rethrow_exception(error_);
}

void AsyncFrameWriter::submit(FrameJob job) {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return held_ < max_in_flight_ || error_; });
  rethrow_if_failed();
  if (lanes_.empty()) return;  // nothing writes frames here
  ++held_;
  ++submitted_;
  jobs_.push_back(std::move(job));
  note_activity();
  lock.unlock();
  cv_.notify_all();
}

void AsyncFrameWriter::submit_checkpoint(Checkpoint c, std::filesystem::path path) {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return (!checkpoint_ && !checkpoint_active_) || error_; });
  rethrow_if_failed();
  checkpoint_ = CheckpointJob{std::move(c), std::move(path), submitted_};
  note_activity();
  lock.unlock();
  cv_.notify_all();
}

void AsyncFrameWriter::finish() {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return idle() || (error_ && settled()); });
  rethrow_if_failed();
}

double AsyncFrameWriter::busy_seconds() const {
  std::lock_guard<std::mutex> lock(m_);
  double b = busy_;
  if (busy_since_) b += std::chrono::duration<double>(std::chrono::steady_clock::now() - *busy_since_).count();
  return b;
}

int AsyncFrameWriter::frames_written() const {
  std::lock_guard<std::mutex> lock(m_);
  return int(frames_done());
}

std::uint64_t AsyncFrameWriter::bytes_written() const {
  std::uint64_t b = 0;
  for (const auto& w : writers_) b += w->bytes_written();
  return b;
}

std::uint64_t AsyncFrameWriter::checkpoint_bytes() const {
  std::lock_guard<std::mutex> lock(m_);
  return checkpoint_bytes_;
}

// ---- shared state (m_ held) -----------------------------------------------------------------------------------------

std::int64_t AsyncFrameWriter::frames_done() const {
  std::int64_t done = submitted_;
  for (const auto& lane : lanes_) done = std::min(done, lane->committed);
  return done;
}

bool AsyncFrameWriter::idle() const {
  return frames_done() == submitted_ && !checkpoint_ && !checkpoint_active_;
}

// After an error: the frames before the failed one are in place in every lane, and no thread is still writing.
bool AsyncFrameWriter::settled() const {
  const std::int64_t target = std::min(stop_at_, submitted_);
  for (const auto& lane : lanes_)
    if (lane->committed < target || lane->encoding > 0 || lane->committing) return false;
  return !checkpoint_active_;
}

void AsyncFrameWriter::note_activity() {
  const auto now = std::chrono::steady_clock::now();
  if (!idle() && !error_) {
    if (!busy_since_) busy_since_ = now;
  } else if (busy_since_) {
    busy_ += std::chrono::duration<double>(now - *busy_since_).count();
    busy_since_.reset();
  }
}

// Frame `frame` failed: the frames before it are still written; from it on none lands after the missing one (every
// lane drops them, and the encoded ones not in place lose their temporary files).
void AsyncFrameWriter::fail(std::exception_ptr e, std::int64_t frame) {
  if (!error_) error_ = e;
  stop_at_ = std::min(stop_at_, frame);
  for (auto& lane : lanes_) lane->ready.erase(lane->ready.lower_bound(stop_at_), lane->ready.end());
  note_activity();
  cv_.notify_all();
}

// ---- the threads ----------------------------------------------------------------------------------------------------

std::shared_ptr<const AsyncFrameWriter::Prepared> AsyncFrameWriter::prepare(FrameJob job) {
  // The frame counts as held until the last lane drops it.
  std::shared_ptr<Prepared> p(new Prepared, [this](Prepared* q) {
    delete q;
    {
      std::lock_guard<std::mutex> lock(m_);
      --held_;
    }
    cv_.notify_all();
  });
  job.fields->wait();
  p->data.step = job.step;
  p->data.time = job.time;
  if (const FrameArrays* a = job.fields->frame()) {
    const FieldPointers ptrs{a->velocity,    a->pressure,    a->density, a->vorticity, a->vorticity_components,
                             a->q_criterion, mask_.empty() ? nullptr : mask_.data()};
    p->data.fields = present_fields(ptrs, grid_, job.time);
    p->fields = std::move(job.fields);
  } else {
    p->host = build_frame(domain_, job.fields->rho(), job.fields->u(), u_ref_, dx_, request_);
    job.fields.reset();  // the transfer's buffers go back now
    p->host.step = job.step;
    p->host.time = job.time;
    p->data.fields = present_fields(p->host, grid_);
  }
  return p;
}

void AsyncFrameWriter::build_loop() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;
    const std::int64_t k = submitted_ - std::int64_t(jobs_.size());  // the front job's place in the run
    if (stop_ || k >= stop_at_) {  // dropped: their transfers go back to the backend
      std::deque<FrameJob> dropped;
      dropped.swap(jobs_);
      held_ -= dropped.size();
      lock.unlock();
      dropped.clear();
      cv_.notify_all();
      lock.lock();
      continue;
    }
    FrameJob job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    std::shared_ptr<const Prepared> frame;
    std::exception_ptr err;
    try {
      frame = prepare(std::move(job));
    } catch (...) {
      err = std::current_exception();  // the frame was dropped in prepare(), which counted held_ down
    }
    lock.lock();
    if (err) {
      fail(err, k);
      continue;
    }
    for (auto& lane : lanes_) lane->queue.emplace_back(k, frame);
    cv_.notify_all();
    lock.unlock();
    frame.reset();  // may be the last reference (after an error): dropped without m_ held
    lock.lock();
  }
}

void AsyncFrameWriter::lane_loop(Lane& lane) {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    cv_.wait(lock, [&] {
      return stop_ ||
             (!lane.queue.empty() && (lane.queue.front().first >= stop_at_ || lane.encoding < lane.max_encodes));
    });
    if (stop_ || lane.queue.front().first >= stop_at_) {
      auto dropped = std::move(lane.queue);  // frames are dropped without m_ held (their deleter takes it)
      lane.queue.clear();
      lock.unlock();
      dropped.clear();
      lock.lock();
      if (stop_) return;
      continue;
    }
    auto [k, frame] = std::move(lane.queue.front());
    lane.queue.pop_front();
    ++lane.encoding;
    lock.unlock();
    std::unique_ptr<EncodedFrame> encoded;
    std::exception_ptr err;
    try {
      encoded = lane.writer->encode(frame->data, lane.base + k);
    } catch (...) {
      err = std::current_exception();
    }
    frame.reset();  // encoded: the arrays may go
    if (!err) {
      try {
        sync_file(encoded->tmp, encoded->path);
      } catch (...) {
        err = std::current_exception();
      }
    }
    lock.lock();
    --lane.encoding;
    if (err) fail(err, k);
    if (k >= stop_at_) {
      lock.unlock();
      encoded.reset();  // removes the temporary file
      lock.lock();
      cv_.notify_all();
      continue;
    }
    lane.ready.emplace(k, std::move(encoded));
    commit_ready(lane, lock);
    cv_.notify_all();
  }
}

// Commits the lane's frames that are next in order, one thread at a time (the others leave theirs in `ready`).
void AsyncFrameWriter::commit_ready(Lane& lane, std::unique_lock<std::mutex>& lock) {
  if (lane.committing) return;
  lane.committing = true;
  while (lane.committed < stop_at_) {
    const auto next = lane.ready.find(lane.committed);
    if (next == lane.ready.end()) break;
    std::unique_ptr<EncodedFrame> e = std::move(next->second);
    lane.ready.erase(next);
    lock.unlock();
    std::exception_ptr err;
    try {
      lane.writer->commit(*e);
    } catch (...) {
      err = std::current_exception();
    }
    e.reset();
    lock.lock();
    if (err) {
      fail(err, lane.committed);
      break;
    }
    ++lane.committed;
    note_activity();
    cv_.notify_all();
  }
  lane.committing = false;
}

void AsyncFrameWriter::checkpoint_loop() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || (checkpoint_ && !error_); });
    if (stop_) return;
    CheckpointJob job = std::move(*checkpoint_);
    checkpoint_.reset();
    checkpoint_active_ = true;
    lock.unlock();
    std::exception_ptr err;
    std::uint64_t bytes = 0;
    bool abandoned = false;
    try {
      bytes = write_checkpoint(job.path, job.c, [&] {
        std::unique_lock<std::mutex> wait_lock(m_);
        cv_.wait(wait_lock, [&] { return stop_ || error_ || frames_done() >= job.frames_before; });
        if (stop_ || error_) {
          abandoned = true;
          throw std::runtime_error("checkpoint abandoned: a frame it counts was not written");
        }
      });
    } catch (...) {
      err = std::current_exception();
    }
    job = CheckpointJob{};  // the populations go before m_ is taken
    lock.lock();
    checkpoint_active_ = false;
    if (err && !abandoned) fail(err, submitted_);  // the frames submitted so far are still written
    if (!err) checkpoint_bytes_ += bytes;
    note_activity();
    cv_.notify_all();
  }
}

}  // namespace aerolbm
