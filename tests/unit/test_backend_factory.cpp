// The backend factories refuse a grid their velocity set cannot update, before they build anything.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "kernels/backend.hpp"
#include "kernels/physics/params.hpp"

namespace aerolbm {
namespace {

DomainData periodic_box(int n, int nz) {
  DomainData d;
  d.nx = n;
  d.ny = n;
  d.nz = nz;
  d.flags.assign(std::size_t(d.cells()), cell::fluid);
  d.link.assign(std::size_t(d.cells()), -1);
  return d;
}

PhysicsParams periodic_physics() {
  PhysicsParams p;
  for (auto& f : p.faces) f = FaceBC::Periodic;
  return p;
}

TEST(BackendFactory, TwoDimensionalLatticeRefusesSeveralPlanes) {
  BackendConfig cfg;  // D2Q9
  cfg.stencil = Stencil::D2Q9;
  try {
    make_cpu_backend(cfg, periodic_box(8, 4), periodic_physics());
    FAIL() << "a D2Q9 backend was built for a grid of 4 z-planes";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("D2Q9"), std::string::npos) << what;
    EXPECT_NE(what.find("4 z-planes"), std::string::npos) << what;
    EXPECT_NE(what.find("D3Q19"), std::string::npos) << what;
  }
}

TEST(BackendFactory, ThreeDimensionalLatticesTakeOneOrManyPlanes) {
  for (Stencil s : {Stencil::D3Q19, Stencil::D3Q27}) {
    BackendConfig cfg;
    cfg.stencil = s;
    for (int nz : {1, 4}) {
      auto b = make_cpu_backend(cfg, periodic_box(8, nz), periodic_physics());
      ASSERT_NE(b, nullptr);
      b->initialize();
      b->run(2);
      std::vector<float> rho, vel;
      b->macroscopic(rho, vel);
      ASSERT_EQ(rho.size(), std::size_t(8 * 8 * nz));
      for (float r : rho) EXPECT_FLOAT_EQ(r, 1.0f);  // at rest, nothing moves
    }
  }
  BackendConfig cfg;
  cfg.stencil = Stencil::D2Q9;
  EXPECT_NO_THROW(make_cpu_backend(cfg, periodic_box(8, 1), periodic_physics()));
}

}  // namespace
}  // namespace aerolbm
