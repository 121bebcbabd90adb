#include "src/solver/async_frame_writer.hpp"

#include <chrono>

namespace aerolbm {

AsyncFrameWriter::AsyncFrameWriter(const DomainData& d, std::vector<std::unique_ptr<FieldWriter>> writers,
                                   double u_ref, double dx, FrameRequest request, std::size_t depth)
    : domain_(d), writers_(std::move(writers)), u_ref_(u_ref), dx_(dx), request_(request),
      depth_(depth < 1 ? 1 : depth) {
  thread_ = std::thread([this] { loop(); });
}

AsyncFrameWriter::~AsyncFrameWriter() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void AsyncFrameWriter::rethrow_if_failed() {
  if (error_) {
    auto e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void AsyncFrameWriter::submit(FrameJob job) {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return queue_.size() < depth_ || error_; });
  rethrow_if_failed();
  queue_.push_back(std::move(job));
  lock.unlock();
  cv_.notify_all();
}

void AsyncFrameWriter::finish() {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return (queue_.empty() && !working_) || error_; });
  rethrow_if_failed();
}

double AsyncFrameWriter::busy_seconds() const {
  std::lock_guard<std::mutex> lock(m_);
  return busy_;
}

int AsyncFrameWriter::frames_written() const {
  std::lock_guard<std::mutex> lock(m_);
  return written_;
}

void AsyncFrameWriter::loop() {
  for (;;) {
    FrameJob job;
    {
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop requested and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
      working_ = true;
    }
    cv_.notify_all();  // a slot is free for submit()
    const auto t0 = std::chrono::steady_clock::now();
    std::exception_ptr err;
    try {
      job.fields->wait();
      Frame frame = build_frame(domain_, job.fields->rho(), job.fields->u(), u_ref_, dx_, request_);
      frame.step = job.step;
      frame.time = job.time;
      for (auto& w : writers_) w->write(frame);
    } catch (...) {
      err = std::current_exception();
    }
    job.fields.reset();  // hands the transfer buffers back to the backend
    {
      std::lock_guard<std::mutex> lock(m_);
      busy_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      working_ = false;
      if (err) {
        error_ = err;
        queue_.clear();  // later frames must not land after a missing one
      } else {
        ++written_;
      }
    }
    cv_.notify_all();
  }
}

}  // namespace aerolbm
