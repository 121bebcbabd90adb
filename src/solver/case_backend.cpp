#include "src/solver/case_backend.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/case/make_body.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/refined_levels.hpp"

namespace aerolbm {

RefinedBox refined_box(const Case& c, const LatticeUnits& u, std::size_t i) {
  const double cells_per_length = u.length_cells * double(std::int64_t(1) << i);
  const Case::RefinementBox& b = c.refinement_boxes.at(i);
  RefinedBox r;
  for (int a = 0; a < dimensions(c.stencil); ++a) {
    const double pivot = c.body_position_chords[std::size_t(a)];
    r.lo[a] = std::llround((pivot + b.from[std::size_t(a)]) * cells_per_length);
    r.hi[a] = std::llround((pivot + b.to[std::size_t(a)]) * cells_per_length);
  }
  return r;
}

namespace {

// Each finer level's grid around its box, in that level's cells: the box at twice the resolution of the level
// below, its band of kBand cells, and while it is built kSpare cells more for the band's wall links.
constexpr std::int64_t kBand = 2, kSpare = 1;

GridRegion level_region(const RefinedBox& b, int dims) {  // build_domain clamps it to the grid
  GridRegion r;
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = a < dims ? 2 * b.lo[a] - kBand - kSpare : 0;
    r.hi[a] = a < dims ? 2 * b.hi[a] + kBand + kSpare : std::numeric_limits<std::int64_t>::max();
  }
  return r;
}

// The finer levels' cells, each box with `margin` cells on every side (an upper bound where a box lies on a face).
double finer_level_cells(const Case& c, const LatticeUnits& u, std::int64_t margin) {
  double cells = 0;
  for (std::size_t i = 0; i < c.refinement_boxes.size(); ++i) {
    const RefinedBox b = refined_box(c, u, i);
    double level = 1;
    for (int a = 0; a < 3; ++a)
      level *= a < dimensions(c.stencil) ? double(2 * (b.hi[a] - b.lo[a]) + 2 * margin) : double(u.nz);
    cells += level;
  }
  return cells;
}

}  // namespace

double refined_setup_cells(const Case& c, const LatticeUnits& u) { return finer_level_cells(c, u, kBand + kSpare); }

double refined_grid_cells(const Case& c, const LatticeUnits& u) {
  return double(u.nx) * double(u.ny) * double(u.nz) + finer_level_cells(c, u, kBand);
}

namespace {

std::unique_ptr<RefinedLevels> refined_levels(BackendKind which, const BackendConfig& cfg, const Case& c,
                                              const LatticeUnits& u, const DomainData& d, const PhysicsParams& p,
                                              bool plan_only) {
  std::vector<RefinedBox> boxes;
  std::vector<DomainData> grids;
  for (std::size_t i = 0; i < c.refinement_boxes.size(); ++i) {
    boxes.push_back(refined_box(c, u, i));  // level i + 1's box, in the cells of level i
    Case fine = c;
    fine.chord_cells = c.chord_cells * double(std::int64_t(2) << i);
    const LatticeUnits uf = lattice_units(fine);
    const auto body = make_body(fine);
    const GridRegion region = level_region(boxes.back(), dimensions(c.stencil));
    grids.push_back(build_domain(fine, uf, body.get(), &region));
  }
  std::vector<const DomainData*> level_grids;
  for (const DomainData& g : grids) level_grids.push_back(&g);
  try {
    return std::make_unique<RefinedLevels>(which, cfg, d, p, boxes, level_grids, plan_only);
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    if (what.rfind("refinement: ", 0) == 0) what = what.substr(12);
    if (c.refinement_band_levels > 0)
      throw CaseError(c.source_file.string() + ": refinement.band: " + what +
                      ". The band's boxes (the body's bounding box grown by the thickness, level by level) must keep "
                      "a few cells away from the domain's open and wall faces: lower refinement.band.thickness or "
                      "levels, or enlarge domain.size_chords (docs/grid_refinement.md).");
    throw CaseError(c.source_file.string() + ": refinement.boxes: " + what +
                    ". Each box needs a few cells of the level it refines around it (its interface band), and no "
                    "body, inlet or outlet within two of its cells (docs/grid_refinement.md).");
  }
}

}  // namespace

std::unique_ptr<Backend> make_case_backend(BackendKind which, const BackendConfig& cfg, const Case& c,
                                           const LatticeUnits& u, const DomainData& d, const PhysicsParams& p) {
  if (c.refinement_boxes.empty()) return select_backend(which, cfg, d, p);
  return refined_levels(which, cfg, c, u, d, p, false);
}

std::unique_ptr<RefinedLevels> plan_case_levels(const BackendConfig& cfg, const Case& c, const LatticeUnits& u,
                                                const DomainData& d, const PhysicsParams& p) {
  return refined_levels(BackendKind::Cpu, cfg, c, u, d, p, true);
}

std::int64_t cell_updates_per_step(const Backend& b, const DomainData& d) {
  if (const auto* r = dynamic_cast<const RefinedLevels*>(&b)) return r->cell_updates_per_step();
  return d.cells();
}

}  // namespace aerolbm
