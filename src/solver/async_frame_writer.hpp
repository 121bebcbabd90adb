#pragma once
// Writes output frames on a thread of its own, so the solver keeps stepping while a frame is turned into fields
// (vorticity, Cp) and written to HDF5/VTK. At most `depth` frames wait; a further submit blocks until one is done
// (the memory held stays bounded). HDF5 is only touched from the writer thread, except for the collective frame
// files of an MPI run with a parallel HDF5, which the run loop writes on its own thread between frames (MPI is
// called from one thread only) while this thread does nothing with HDF5. A write error is rethrown
// on the solver's thread at the next submit() or at finish().
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "kernels/backend.hpp"
#include "src/io/field_writer.hpp"
#include "src/solver/frame_builder.hpp"

namespace aerolbm {

struct FrameJob {
  std::int64_t step = 0;
  double time = 0;
  std::unique_ptr<FieldsTransfer> fields;  // density and velocity in lattice units, possibly still in flight
};

class AsyncFrameWriter {
 public:
  AsyncFrameWriter(const DomainData& d, std::vector<std::unique_ptr<FieldWriter>> writers, double u_ref, double dx,
                   FrameRequest request, std::size_t depth = 2);
  ~AsyncFrameWriter();
  AsyncFrameWriter(const AsyncFrameWriter&) = delete;
  AsyncFrameWriter& operator=(const AsyncFrameWriter&) = delete;

  void submit(FrameJob job);
  // Waits for every submitted frame to be written; rethrows the first write error.
  void finish();
  // Seconds the writer thread spent building and writing frames.
  double busy_seconds() const;
  int frames_written() const;

 private:
  void loop();
  void rethrow_if_failed();

  const DomainData& domain_;
  std::vector<std::unique_ptr<FieldWriter>> writers_;
  double u_ref_, dx_;
  FrameRequest request_;
  std::size_t depth_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<FrameJob> queue_;
  bool stop_ = false, working_ = false;
  std::exception_ptr error_;
  double busy_ = 0;
  int written_ = 0;
  std::thread thread_;
};

}  // namespace aerolbm
