// The memory estimate a run is checked against before it starts: it follows the storage scheme.
#include <gtest/gtest.h>

#include "src/case/units.hpp"
#include "src/solver/resources.hpp"
#include "tests/unit/test_case_util.hpp"

namespace aerolbm {
namespace {

Case box(const std::string& kernel, const std::string& precision) {
  case_test::TempDir dir;
  const auto file = dir.write("box.yaml",
      "schema_version: 1\n"
      "case: {name: box}\n"
      "physics: {reynolds: 100, mach: 0.05}\n"
      "geometry: {type: none, reference_cells: 32}\n"
      "domain: {size_chords: [4, 4, 4]}\n"
      "lattice: {stencil: D3Q19, precision: " + precision + ", kernel: " + kernel + "}\n"
      "boundaries: {inlet: periodic, outlet: periodic, lateral: periodic}\n"
      "time: {steps: 10}\n"
      "output: {every: 0}\n");
  return load_case(file);
}

TEST(Resources, InPlaceStorageNeedsOneLatticeOfDeviceMemory) {
  const Case pull = box("pull", "fp32"), aa = box("aa", "fp32");
  const LatticeUnits u = lattice_units(pull);
  const double cells = double(u.nx) * u.ny * u.nz;
  const double dev_pull = estimate_resources(pull, u, true).device_bytes;
  const double dev_aa = estimate_resources(aa, lattice_units(aa), true).device_bytes;
  // Two lattices of 19 floats against one plus a 4-byte row index: 76 bytes per cell apart.
  EXPECT_NEAR(dev_pull - dev_aa, (2 * 19 * 4 - (19 * 4 + 4)) * cells, 1.0);
  EXPECT_GT(dev_aa, 19 * 4 * cells);  // at least the one lattice
  // On the CPU the host holds the populations: the same saving.
  EXPECT_NEAR(estimate_resources(pull, u, false).host_bytes - estimate_resources(aa, lattice_units(aa), false).host_bytes,
              (2 * 19 * 4 - (19 * 4 + 4)) * cells, 1.0);
}

}  // namespace
}  // namespace aerolbm
