// The Backend interface's default force sampling and timing: computed at once, on the calling thread. The CUDA
// backend overrides them to keep the device busy (samples queued on its stream, timed with device events). And the
// field transfer of backends whose fields are on the host.
#include "kernels/backend.hpp"

#include <chrono>

namespace aerolbm {

void Backend::queue_force_sample(bool per_cell) {
  // The total is wall_force()'s whether or not the per-cell forces come too, so that a sample's total is the
  // same number as the force asked for at once (Simulation::coefficients_now; 2D runs report the totals).
  ForceSample s;
  s.total = wall_force();
  if (per_cell) wall_force_cells(s.cells);
  s.pressure = wall_pressure_force();
  queued_samples_.push_back(std::move(s));
}

namespace {
class HostFields final : public FieldsTransfer {
 public:
  std::vector<float> rho_, u_;
  void wait() override {}
  const float* rho() const override { return rho_.data(); }
  const float* u() const override { return u_.data(); }
};
}  // namespace

std::unique_ptr<FieldsTransfer> host_fields_transfer(Backend& b) {
  auto t = std::make_unique<HostFields>();
  b.macroscopic(t->rho_, t->u_);
  return t;
}

std::vector<ForceSample> Backend::take_force_samples() {
  std::vector<ForceSample> out;
  out.swap(queued_samples_);
  return out;
}

double Backend::timed(const std::function<void()>& work) {
  const auto t0 = std::chrono::steady_clock::now();
  work();
  finish_steps();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace aerolbm
