// Lattice units from a case: each formula against hand-computed numbers, and the summary that prints them.
#include <gtest/gtest.h>

#include <cmath>

#include "src/case/units.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

using case_test::Contains;

Case sketch_case() {
  Case c;  // the header defaults are docs/case_file.md's example case: Re 1000, Ma 0.1, L 160, 12 x 6 chords
  c.size_chords = {12, 6, 1.0 / 160};
  return c;
}

TEST(LatticeUnits, SketchCaseByHand) {
  const LatticeUnits u = lattice_units(sketch_case());
  const double u_lat = 0.1 / std::sqrt(3.0);  // 0.0577350
  EXPECT_DOUBLE_EQ(u.length_cells, 160);
  EXPECT_DOUBLE_EQ(u.u_lattice, u_lat);
  EXPECT_DOUBLE_EQ(u.u_max_lattice, u_lat);
  EXPECT_DOUBLE_EQ(u.nu_lattice, u_lat * 160 / 1000);  // 0.00923760
  EXPECT_NEAR(u.tau, 0.5277128, 1e-7);
  EXPECT_DOUBLE_EQ(u.dx, 1.0 / 160);
  EXPECT_DOUBLE_EQ(u.dt, u_lat / 160);
  EXPECT_EQ(u.nx, 1920);
  EXPECT_EQ(u.ny, 960);
  EXPECT_EQ(u.nz, 1);
  EXPECT_EQ(u.steps_per_convective_time, 2771);  // 160 / 0.057735 = 2771.28
  EXPECT_EQ(u.total_steps, 55426);               // 20 x 2771.28 = 55425.6
  EXPECT_EQ(u.average_steps, 13856);             // 5 x 2771.28 = 13856.4
}

TEST(LatticeUnits, ParabolicPeakDependsOnDimension) {
  Case c = sketch_case();
  c.inlet_profile = InletProfile::Parabolic;
  const double u_lat = 0.1 / std::sqrt(3.0);
  EXPECT_DOUBLE_EQ(lattice_units(c).u_max_lattice, 1.5 * u_lat);
  c.stencil = Stencil::D3Q19;
  c.size_chords = {12, 6, 2};
  EXPECT_DOUBLE_EQ(lattice_units(c).u_max_lattice, 2.25 * u_lat);
  EXPECT_DOUBLE_EQ(lattice_units(c).u_lattice, u_lat);  // the mean does not change
}

TEST(LatticeUnits, ThreeDimensionalGridRoundsEachAxis) {
  Case c = sketch_case();
  c.stencil = Stencil::D3Q27;
  c.chord_cells = 33;
  c.size_chords = {4.5, 2.01, 0.5};
  const LatticeUnits u = lattice_units(c);
  EXPECT_EQ(u.nx, 149);  // 148.5 rounds away from zero
  EXPECT_EQ(u.ny, 66);   // 66.33
  EXPECT_EQ(u.nz, 17);   // 16.5
}

TEST(LatticeUnits, ExplicitStepsSetTheRunLength) {
  Case c = sketch_case();
  c.steps = 1000;
  const LatticeUnits u = lattice_units(c);
  EXPECT_EQ(u.total_steps, 1000);
  EXPECT_EQ(u.average_steps, 1000);  // the window never exceeds the run
  c.average_last = 0;
  EXPECT_EQ(lattice_units(c).average_steps, 0);
}

TEST(LatticeUnits, ViscosityScalesWithResolutionOverReynolds) {
  Case c = sketch_case();
  const double tau_160 = lattice_units(c).tau;
  c.chord_cells = 320;
  c.reynolds = 2000;  // same ν in lattice units
  EXPECT_DOUBLE_EQ(lattice_units(c).tau, tau_160);
}

TEST(LatticeUnits, DescribePrintsEveryQuantity) {
  Case c = sketch_case();
  c.name = "naca0012_re1000_aoa5";
  const std::string d = describe(c, lattice_units(c));
  EXPECT_TRUE(Contains(d, "naca0012_re1000_aoa5"));
  EXPECT_TRUE(Contains(d, "1920 × 960 = 1,843,200 cells"));
  EXPECT_TRUE(Contains(d, "L = 160 cells per chord"));
  EXPECT_TRUE(Contains(d, "Re = 1000, Ma = 0.1"));
  EXPECT_TRUE(Contains(d, "u_lattice = 0.057735"));
  EXPECT_TRUE(Contains(d, "u_max = 0.057735"));
  EXPECT_TRUE(Contains(d, "ν_lattice = 0.0092376"));
  EXPECT_TRUE(Contains(d, "τ = 0.527713"));
  EXPECT_TRUE(Contains(d, "ω = 1/τ = 1.89497"));
  EXPECT_TRUE(Contains(d, "2,771 steps per convective time"));
  EXPECT_TRUE(Contains(d, "55,426 steps (20 convective times)"));
  EXPECT_TRUE(Contains(d, "averaging the last 13,856 steps"));
}

TEST(LatticeUnits, DescribeShowsTheThirdAxisAndExplicitSteps) {
  Case c = sketch_case();
  c.stencil = Stencil::D3Q19;
  c.geometry = GeometryType::Cylinder;
  c.chord_cells = 20;
  c.size_chords = {25, 4.1, 4.1};
  c.steps = 5000;
  const std::string d = describe(c, lattice_units(c));
  EXPECT_TRUE(Contains(d, "500 × 82 × 82 = 3,362,000 cells (D3Q19"));
  EXPECT_TRUE(Contains(d, "cells per diameter"));
  EXPECT_TRUE(Contains(d, "5,000 steps (set by time.steps)"));
}

TEST(LatticeUnits, LoadedCaseAgreesWithItsOwnValidation) {
  case_test::TempDir dir;
  const auto file = dir.write("sketch.yaml", case_test::kSketch);
  const Case c = load_case(file);
  const LatticeUnits u = lattice_units(c);
  EXPECT_GT(u.tau, c.tau_min);
  EXPECT_EQ(u.nx, 1920);
  EXPECT_EQ(u.nz, 1);
}

}  // namespace
}  // namespace aerolbm
