// refinement.boxes: the refined regions of a case (src/solver/refined_levels.hpp runs them). Read here with their
// shape; checked against the domain, the body and the other sections once those are read. Where a box leaves too
// little room for its interface band the refined levels themselves refuse it when the run is set up (the rule
// depends on the level's cells, docs/grid_refinement.md).
#include <cmath>
#include <string>

#include "src/case/loader_steps.hpp"

namespace aerolbm {
namespace {

std::string axis_names(int dims) { return dims == 2 ? "x, y" : "x, y, z"; }

std::string box_text(const Case::RefinementBox& b, int dims) {
  std::string s = "from (";
  for (int a = 0; a < dims; ++a) s += (a ? ", " : "") + format_number(b.from[std::size_t(a)]);
  s += ") to (";
  for (int a = 0; a < dims; ++a) s += (a ? ", " : "") + format_number(b.to[std::size_t(a)]);
  return s + ")";
}

}  // namespace

void read_refinement(const SectionReader& r, Case& c) {
  const int dims = dimensions(c.stencil);
  const std::string example = dims == 2 ? "[[-1, -0.5, 2, 0.5]]" : "[[-1, -0.5, -1, 2, 0.5, 1]]";
  const auto boxes = r.number_lists("boxes", {-1e6, 1e6},
                                    "Box corners are in reference lengths from the body's pivot.", example);
  if (!boxes) return;
  const YAML::Node node = r.get("boxes");
  bool good = true;
  std::vector<Case::RefinementBox> out;
  for (std::size_t i = 0; i < boxes->size(); ++i) {
    const std::vector<double>& v = (*boxes)[i];
    const std::string path = r.path("boxes") + "[" + std::to_string(i) + "]";
    if (int(v.size()) != 2 * dims) {
      r.diag().error(path, node[i].Mark(),
                     std::to_string(2 * dims) + " numbers: the box's low corner (" + axis_names(dims) +
                         ") then its high corner",
                     std::to_string(v.size()) + " numbers",
                     "E.g. " + example.substr(1, example.size() - 2) +
                         " (reference lengths from the body's pivot: the quarter chord of an airfoil).");
      good = false;
      continue;
    }
    Case::RefinementBox b;
    for (int a = 0; a < dims; ++a) {
      b.from[std::size_t(a)] = v[std::size_t(a)];
      b.to[std::size_t(a)] = v[std::size_t(dims + a)];
    }
    for (int a = 0; a < dims; ++a) {
      if (!(b.from[std::size_t(a)] < b.to[std::size_t(a)])) {
        r.diag().error(path, node[i].Mark(), "a low corner below the high corner along every axis",
                       box_text(b, dims) + ", empty along " + std::string(1, "xyz"[a]),
                       "List the low corner (" + axis_names(dims) + ") first, then the high corner.");
        good = false;
        break;
      }
    }
    out.push_back(b);
  }
  if (good) c.refinement_boxes = std::move(out);
}

void check_refinement(const SectionReader& root, const Case& c) {
  if (c.refinement_boxes.empty()) return;
  const SectionReader r = root.sub("refinement");
  const YAML::Node node = r.get("boxes");
  const int dims = dimensions(c.stencil);
  auto refuse = [&](std::string_view expected, std::string_view got, std::string_view hint) {
    r.problem("boxes", expected, got, hint);
  };
  // What this form of refinement does not carry yet.
  if (c.precision == Precision::FP16S)
    refuse("lattice.precision fp32 or fp64 with refinement", "fp16s",
           "Refined levels store fp32 or fp64 populations; set lattice.precision: fp32.");
  if (c.kernel != KernelVariant::Auto && c.kernel != KernelVariant::Pull)
    refuse("lattice.kernel pull or auto with refinement", kernel_name(c.kernel),
           "Refined levels run the two-lattice pull kernel; set lattice.kernel: pull (or auto).");
  if (c.averages)
    refuse("output.averages off with refinement", "output.averages.enabled: true",
           "The mean fields are not kept on refined levels yet; turn them off or remove the refinement section.");
  if (c.ranks_grid[0] > 0)
    refuse("no parallel.ranks_grid with refinement", "parallel.ranks_grid set",
           "Refined levels run in one process (no MPI yet); remove parallel.ranks_grid.");
  // Level ℓ's grid is the domain at 2^ℓ times the resolution, cell for cell: whole cells along each axis.
  for (int a = 0; a < dims; ++a) {
    const double cells = c.size_chords[std::size_t(a)] * c.chord_cells;
    if (std::abs(cells - std::round(cells)) > 1e-6) {
      root.sub("domain").problem("size_chords",
                                 "a whole number of cells along each axis with refinement (size × reference cells)",
                                 format_significant(cells, 6) + " cells along " + std::string(1, "xyz"[a]),
                                 "Choose domain.size_chords and the reference cells so that their products are whole "
                                 "numbers: each finer level is the domain at twice the resolution, cell for cell.");
      return;
    }
  }
  // Each box inside the domain, each inside the one before.
  for (std::size_t i = 0; i < c.refinement_boxes.size(); ++i) {
    const Case::RefinementBox& b = c.refinement_boxes[i];
    const std::string path = r.path("boxes") + "[" + std::to_string(i) + "]";
    for (int a = 0; a < dims; ++a) {
      const double pivot = c.body_position_chords[std::size_t(a)], size = c.size_chords[std::size_t(a)];
      const double lo = pivot + b.from[std::size_t(a)], hi = pivot + b.to[std::size_t(a)];
      if (lo < 0 || hi > size) {
        r.diag().error(path, node[i].Mark(),
                       "a box inside the domain: along " + std::string(1, "xyz"[a]) + " from " +
                           format_number(-pivot) + " to " + format_number(size - pivot) + " (the body's pivot at " +
                           format_number(pivot) + " of " + format_number(size) + " reference lengths)",
                       box_text(b, dims), "Shrink the box, or enlarge domain.size_chords.");
        return;
      }
      if (i == 0) continue;
      const Case::RefinementBox& outer = c.refinement_boxes[i - 1];
      if (b.from[std::size_t(a)] < outer.from[std::size_t(a)] || b.to[std::size_t(a)] > outer.to[std::size_t(a)]) {
        r.diag().error(path, node[i].Mark(),
                       "a box inside the one before (level " + std::to_string(i) + "'s, " + box_text(outer, dims) +
                           ")",
                       box_text(b, dims),
                       "Each entry refines the one before it: list the boxes from the largest to the smallest, "
                       "each inside the last, with a few cells of the coarser level around it.");
        return;
      }
    }
  }
}

}  // namespace aerolbm
