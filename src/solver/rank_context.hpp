#pragma once
// What the run loop needs to know about the other MPI ranks, without MPI: which rank this is, and the few
// collective decisions it takes (stop on a signal any rank received). Null in a single-process run.
namespace aerolbm {

class RankContext {
 public:
  virtual ~RankContext() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool root() const { return rank() == 0; }
  // The largest of every rank's value (every rank calls it).
  virtual int max_over_ranks(int value) = 0;
  virtual void barrier() = 0;
  // Ends every rank at once with this exit status (an error on one rank while the others wait in a collective).
  [[noreturn]] virtual void abort(int status) = 0;
};

}  // namespace aerolbm
