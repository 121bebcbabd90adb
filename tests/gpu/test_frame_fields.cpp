// The finished frame fields computed on the GPU (kernels/cuda/frame_fields.cu, through start_fields_transfer with
// FieldsTransferOptions::frame_fields) equal the frame the host builds from the same density and velocity
// (src/solver/frame_builder.cpp) bit for bit: both run the per-cell code of kernels/physics/frame_fields.hpp, the
// same IEEE operations in the same order (double where the host uses double; division and conversions correctly
// rounded on both), and nothing is contracted into a multiply-add (-fmad=false; the host compiles without FMA).
// So the comparison is memcmp, not a tolerance.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "src/solver/frame_builder.hpp"
#include "tests/cases_dir.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// Values that differ in their bits (NaN included), with the first such index.
std::size_t differing(const float* gpu, const std::vector<float>& host, std::size_t& first) {
  std::size_t n = 0;
  first = host.size();
  for (std::size_t i = 0; i < host.size(); ++i)
    if (std::memcmp(&gpu[i], &host[i], sizeof(float)) != 0) {
      if (n++ == 0) first = i;
    }
  return n;
}

void expect_same(const char* name, const float* gpu, const std::vector<float>& host) {
  ASSERT_NE(gpu, nullptr) << name << " missing from the GPU frame";
  std::size_t first = 0;
  const std::size_t n = differing(gpu, host, first);
  EXPECT_EQ(n, 0u) << name << ": " << n << " of " << host.size() << " values differ, first at " << first
                   << " (gpu " << (n ? gpu[first] : 0.0f) << ", host " << (n ? host[first] : 0.0f) << ")";
}

// Runs `steps`, then takes the frame both ways from the same state.
void compare(const std::filesystem::path& file, const std::vector<std::string>& sets, std::int64_t steps) {
  SolverSetup s(file, sets, "cuda");
  s.backend->run(steps);
  const FrameRequest req = FrameRequest::from_names({"velocity", "pressure", "density", "vorticity", "q_criterion",
                                                     "mask"});
  std::vector<float> rho, u;
  s.backend->macroscopic(rho, u);
  const Frame host = build_frame(s.d, rho.data(), u.data(), s.u.u_lattice, s.u.dx, req);

  FieldsTransferOptions o;
  o.max_in_flight = 3;
  o.frame_fields = true;
  o.spec = req.device_spec(s.u.u_lattice, s.u.dx);
  ASSERT_TRUE(s.backend->configure_fields_transfer(o));
  auto t = s.backend->start_fields_transfer();
  t->wait();
  const FrameArrays* a = t->frame();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(t->rho(), nullptr);  // a frame transfer carries the finished fields only
  ASSERT_EQ(a->vorticity_components, host.vorticity_components);
  std::printf("%s (%zu overrides), %lld steps: comparing %zu cells, %d vorticity components\n",
              file.filename().c_str(), sets.size(), (long long)steps, host.pressure.size(), a->vorticity_components);
  expect_same("velocity", a->velocity, host.velocity);
  expect_same("pressure", a->pressure, host.pressure);
  expect_same("density", a->density, host.density);
  expect_same("vorticity", a->vorticity, host.vorticity);
  expect_same("q_criterion", a->q_criterion, host.q_criterion);
}

TEST(FrameFields, GpuFrameEqualsHostFrame2D) { compare(cases_dir() / "naca0012_re1000_aoa5.yaml", {}, 400); }

TEST(FrameFields, GpuFrameEqualsHostFrameFp16sStorage) {
  compare(cases_dir() / "naca0012_re1000_aoa5.yaml", {"lattice.precision=fp16s"}, 300);
}

TEST(FrameFields, GpuFrameEqualsHostFrame3D) { compare(cases_dir() / "ci/schaefer_turek_3d1z.yaml", {}, 200); }

TEST(FrameFields, GpuFrameEqualsHostFrameWing) { compare(cases_dir() / "ci/wing_naca0012_ar4.yaml", {}, 100); }

// Several frames in flight: each slot keeps its own step's fields while the solver runs on, and only the fields
// asked for travel.
TEST(FrameFields, FramesInFlightKeepTheirOwnStep) {
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml", {}, "cuda");
  const FrameRequest req = FrameRequest::from_names({"pressure", "mask"});
  FieldsTransferOptions o;
  o.max_in_flight = 3;
  o.frame_fields = true;
  o.spec = req.device_spec(s.u.u_lattice, s.u.dx);
  ASSERT_TRUE(s.backend->configure_fields_transfer(o));
  std::vector<std::unique_ptr<FieldsTransfer>> held;
  std::vector<Frame> host;
  for (int k = 0; k < 3; ++k) {
    s.backend->run(50);
    std::vector<float> rho, u;
    s.backend->macroscopic(rho, u);
    host.push_back(build_frame(s.d, rho.data(), u.data(), s.u.u_lattice, s.u.dx, req));
    held.push_back(s.backend->start_fields_transfer());
  }
  for (int k = 0; k < 3; ++k) {
    held[k]->wait();
    const FrameArrays* a = held[k]->frame();
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->velocity, nullptr);
    EXPECT_EQ(a->vorticity, nullptr);
    expect_same("pressure", a->pressure, host[k].pressure);
  }
  EXPECT_NE(host[0].pressure, host[2].pressure);
}

// A mask-only frame carries no float field: nothing is copied (nothing uninitialised read), every pointer is null.
TEST(FrameFields, MaskOnlyFramesCarryNoFloats) {
  SolverSetup s(cases_dir() / "naca0012_re1000_aoa5.yaml", {}, "cuda");
  FieldsTransferOptions o;
  o.frame_fields = true;
  o.spec = FrameRequest::from_names({"mask"}).device_spec(s.u.u_lattice, s.u.dx);
  ASSERT_TRUE(s.backend->configure_fields_transfer(o));
  s.backend->run(10);
  auto t = s.backend->start_fields_transfer();
  t->wait();
  const FrameArrays* a = t->frame();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->velocity, nullptr);
  EXPECT_EQ(a->pressure, nullptr);
  EXPECT_EQ(a->density, nullptr);
  EXPECT_EQ(a->vorticity, nullptr);
  EXPECT_EQ(a->q_criterion, nullptr);
}

}  // namespace
}  // namespace aerolbm::testing
