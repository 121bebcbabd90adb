// refinement.boxes: the refined regions of a case (src/solver/refined_levels.hpp runs them). Read here with their
// shape; checked against the domain, the body and the other sections once those are read. Where a box leaves too
// little room for its interface band the refined levels themselves refuse it when the run is set up (the rule
// depends on the level's cells, docs/grid_refinement.md).
// refinement.band: the same boxes, made here from the body's bounding box (after the geometry and the domain).
#include <algorithm>
#include <cmath>
#include <string>

#include "src/case/loader_steps.hpp"
#include "src/case/make_body.hpp"

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

// Level ℓ's box (ℓ = 1 .. N) from the body's bounding box: the finest grown by `thickness` on every side, each
// coarser one the next finer grown by thickness × 2^(N − ℓ), so that every interface has thickness × reference cells
// × 2^N cells of its coarser level outside it, the same number at every level; each clamped to the domain (a half
// wing's boxes end on its root plane). Axes the body spans wholly (a 2D section's z) take the domain's extent.
std::vector<Case::RefinementBox> band_boxes(const Case& c, const std::array<Vec3, 2>& body, int levels, double t) {
  std::vector<Case::RefinementBox> boxes(static_cast<std::size_t>(levels));
  double grow = t;
  for (int l = levels - 1; l >= 0; --l) {
    Case::RefinementBox& b = boxes[std::size_t(l)];
    for (int a = 0; a < 3; ++a) {
      const double pivot = c.body_position_chords[std::size_t(a)], size = c.size_chords[std::size_t(a)];
      const double lo = body[0][a] / c.chord_cells - grow, hi = body[1][a] / c.chord_cells + grow;
      b.from[std::size_t(a)] = std::isfinite(lo) ? std::max(lo, 0.0) - pivot : -pivot;
      b.to[std::size_t(a)] = std::isfinite(hi) ? std::min(hi, size) - pivot : size - pivot;
    }
    grow += t * double(std::int64_t(1) << (levels - l));
  }
  return boxes;
}

void read_refinement_band(const SectionReader& r, Case& c) {
  const SectionReader band = r.sub("band");
  if (!band.present()) return;
  const auto levels = band.integer("levels", {1, 6}, "The number of finer levels around the body, each at twice "
                                                     "the resolution of the one below (2 or 3 are usual).");
  const auto thickness = band.number("thickness", {0, 1e3, true},
                                     "The band's thickness around the body's bounding box, in reference lengths.");
  if (!band.has("levels")) band.missing("levels", "the number of finer levels (1 to 6)", "E.g. band: {levels: 2, thickness: 0.1}.");
  if (!band.has("thickness"))
    band.missing("thickness", "the band's thickness in reference lengths (> 0)", "E.g. band: {levels: 2, thickness: 0.1}.");
  if (!levels || !thickness) return;
  if (!c.refinement_boxes.empty() || r.has("boxes")) {
    r.problem("band", "refinement.boxes or refinement.band, not both", "both",
              "Give the boxes yourself (refinement.boxes) or let the band around the body make them.");
    return;
  }
  if (c.geometry == GeometryType::None) {
    r.problem("band", "a body to refine around (geometry.type other than none)", "geometry.type: none",
              "Use refinement.boxes to refine a region of an empty domain.");
    return;
  }
  const double finest = c.chord_cells * double(std::int64_t(1) << (*levels - 1));  // cells per length, level N − 1
  const double cells = *thickness * finest;
  if (cells < 4) {
    band.problem("thickness",
                 "at least four cells of the level below the finest between the body and the finest box "
                 "(thickness × reference cells × 2^(levels − 1) ≥ 4)",
                 format_number(*thickness) + " (" + format_significant(cells, 3) + " cells)",
                 "Raise the thickness to " + format_significant(4.0 / finest, 3) +
                     " or more.");
    return;
  }
  std::unique_ptr<Body> body;
  try {
    body = make_body(c);
  } catch (const GeometryError&) {
    return;  // the geometry section has reported it
  }
  if (!body) return;
  c.refinement_boxes = band_boxes(c, body->bounds(), int(*levels), *thickness);
  c.refinement_band_levels = int(*levels);
}

}  // namespace

void read_refinement(const SectionReader& r, Case& c) {
  const int dims = dimensions(c.stencil);
  const std::string example = dims == 2 ? "[[-1, -0.5, 2, 0.5]]" : "[[-1, -0.5, -1, 2, 0.5, 1]]";
  const auto boxes = r.number_lists("boxes", {-1e6, 1e6},
                                    "Box corners are in reference lengths from the body's pivot.", example);
  if (!boxes) {
    read_refinement_band(r, c);
    return;
  }
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
  read_refinement_band(r, c);
}

void check_refinement(const SectionReader& root, const Case& c) {
  if (c.refinement_boxes.empty()) return;
  const SectionReader r = root.sub("refinement");
  const YAML::Node node = r.get("boxes");
  const int dims = dimensions(c.stencil);
  const char* key = c.refinement_band_levels > 0 ? "band" : "boxes";
  auto refuse = [&](std::string_view expected, std::string_view got, std::string_view hint) {
    r.problem(key, expected, got, hint);
  };
  // What this form of refinement does not carry yet.
  if (c.kernel != KernelVariant::Auto && c.kernel != KernelVariant::Pull)
    refuse("lattice.kernel pull or auto with refinement", kernel_name(c.kernel),
           "Refined levels run the two-lattice pull kernel; set lattice.kernel: pull (or auto).");
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
  // Each box inside the domain, each inside the one before (a band's boxes are made so).
  if (c.refinement_band_levels > 0) return;
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
