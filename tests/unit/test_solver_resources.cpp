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

// A refined case stores every level: its device memory grows by each level's cells (box at its resolution plus the
// band) at level 0's bytes per cell, and its set-up builds each level's box (not the whole domain) on the host.
TEST(Resources, RefinedLevelsAddTheirCells) {
  case_test::TempDir dir;
  const std::string sketch = case_test::sketch_with(9, "output: {every: 0}");
  const Case plain = load_case(dir.write("plain.yaml", sketch));
  const Case refined = load_case(dir.write("refined.yaml", sketch + "refinement: {boxes: [[-1, -0.5, 2, 0.5]]}\n"));
  const LatticeUnits u = lattice_units(plain);
  // Level 1: the box (3 x 1 chords at 160 cells per chord) at twice the resolution, with a band of 2 cells.
  const double level1 = (2.0 * 480 + 4) * (2.0 * 160 + 4);
  const double per_cell = estimate_resources(plain, u, true).device_bytes / (double(u.nx) * u.ny);
  EXPECT_NEAR(estimate_resources(refined, u, true).device_bytes - estimate_resources(plain, u, true).device_bytes,
              per_cell * level1, 1.0);
  // The host: level 1's domain tables (5 bytes per cell) and checkpoint staging (both lattices in double), and
  // while the run is set up its box built at its resolution with a cell to spare (5 bytes per cell), not the whole
  // domain at twice the resolution.
  const double region1 = (2.0 * 480 + 6) * (2.0 * 160 + 6);
  const double host_more =
      estimate_resources(refined, u, true).host_bytes - estimate_resources(plain, u, true).host_bytes;
  EXPECT_NEAR(host_more, (5.0 + 2 * 9 * 8) * level1 + 5.0 * region1, 1.0);
  EXPECT_LT(5.0 * region1, 5.0 * 4 * double(u.nx) * u.ny);
  // The checkpoint (the new one beside the old): fp32 populations as float, every level's.
  const double level0 = double(u.nx) * u.ny;
  EXPECT_NEAR(estimate_resources(plain, u, true).checkpoint_bytes, 2 * 9 * 4 * level0, 1.0);
  EXPECT_NEAR(estimate_resources(refined, u, true).checkpoint_bytes, 2 * 9 * 4 * (level0 + level1), 1.0);
}

}  // namespace
}  // namespace aerolbm
