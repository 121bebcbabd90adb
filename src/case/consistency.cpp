#include <algorithm>
#include <cmath>
#include <numbers>

#include "kernels/backend_choice.hpp"
#include "src/case/loader_steps.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"

namespace aerolbm {
namespace {

constexpr double kMaxCells = 4e9;
constexpr std::int64_t kMinCellsPerAxis = 4;
constexpr double kLesTauFloor = 0.5 + 1e-6;

// Periodic wraps the x direction, so it joins the inlet face to the outlet face: one without the other is not a
// boundary condition the solver can build.
void check_periodic_pair(const SectionReader& b, const Case& c) {
  const bool in = c.inlet == FaceBC::Periodic, out = c.outlet == FaceBC::Periodic;
  if (in == out) return;
  const char* key = in ? "inlet" : "outlet";
  b.problem(
      key, "boundaries.inlet and boundaries.outlet both periodic or neither",
      std::string("inlet: ") + (in ? "periodic" : "velocity") + " with outlet: " + (out ? "periodic" : "pressure"),
      "Periodic joins the inlet face to the outlet face; set both to periodic (flow driven by "
      "physics.body_force) or neither.");
}

void check_average_window(const SectionReader& t, const Case& c) {
  if (!t.has("average_last") || c.average_last <= c.convective_times) return;
  t.problem("average_last", "at most time.convective_times = " + format_number(c.convective_times),
            format_number(c.average_last), "Shorten the averaging window or lengthen the run.");
}

// The mean fields are written in the formats of output.formats: with none there would be nothing to write.
void check_averages_formats(const SectionReader& out, const Case& c) {
  if (!c.averages || !c.formats.empty()) return;
  out.sub("averages").problem("enabled", "output.formats with hdf5 or vtk, where the mean fields are written",
                              "true with output.formats: []",
                              "Add a format (output.formats: [hdf5, vtk]), or set output.averages.enabled: false.");
}

// The body (as a box around its outline at the angle of attack) must sit wholly inside the domain, or the
// voxeliser would cut it at the boundary.
// 3D bodies (wing, stl): the box of the placed mesh; a half wing may start at the symmetry plane z = 0. Along an
// axis whose faces are a periodic pair the body may run through them (the walls of a periodic channel, a body
// through the whole span): the voxeliser takes each cell and link as it lies, the streaming joins the faces.
void check_3d_body_inside(const SectionReader& root, const Case& c) {
  const SectionReader d = root.sub("domain"), g = root.sub("geometry");
  std::optional<std::array<Vec3, 2>> box;
  try {
    box = body_extent_chords(c);
  } catch (const GeometryError& e) {
    const bool stl = c.geometry == GeometryType::Stl;
    g.problem(stl ? "file" : "section", stl ? "a closed STL mesh" : "a wing that can be built", e.what(),
              stl ? "Fix the mesh or export it again (closed, consistently oriented, no degenerate triangles)."
                  : "Fix the section file or the wing's keys.");
    return;
  }
  if (!box) return;
  const auto& s = c.size_chords;
  const auto& b = *box;
  const bool periodic[3] = {c.inlet == FaceBC::Periodic, c.lateral == FaceBC::Periodic, c.span == FaceBC::Periodic};
  bool fits = true;
  for (int a = 0; a < 3; ++a) {
    if (periodic[a]) continue;
    const bool low_ok = (a == 2 && is_half_model(c)) ? b[0][a] >= 0 : b[0][a] > 0;
    fits = fits && low_ok && b[1][a] < s[a];
  }
  if (fits) return;
  d.problem("body_position_chords",
            "a body inside the domain [0, " + format_number(s[0]) + "] x [0, " + format_number(s[1]) + "] x [0, " +
                format_number(s[2]) + "] reference lengths",
            "a body spanning x " + format_significant(b[0][0]) + " to " + format_significant(b[1][0]) + ", y " +
                format_significant(b[0][1]) + " to " + format_significant(b[1][1]) + ", z " +
                format_significant(b[0][2]) + " to " + format_significant(b[1][2]),
            "Move the body (domain.body_position_chords) or enlarge domain.size_chords (z is the span); a few "
            "reference lengths of fluid on every side keep the boundaries from disturbing the flow. (Along an "
            "axis with periodic faces the body may run through them.)");
}

// physics.initial_velocity is the initial flow of a case without an inlet; an inlet's profile sets it otherwise.
void check_initial_velocity(const SectionReader& physics, const Case& c) {
  const auto& u = c.initial_velocity;
  if (c.inlet != FaceBC::Velocity || (u[0] == 0 && u[1] == 0 && u[2] == 0)) return;
  physics.problem("initial_velocity", "no initial velocity with a velocity inlet (boundaries.inlet: velocity)",
                  "a non-zero initial velocity",
                  "With a velocity inlet the run starts from the inflow profile; physics.initial_velocity is for "
                  "cases without one (periodic channels driven by physics.body_force). Remove it.");
}

// A half wing's low z face is its symmetry plane: periodic z faces would join it to the far side.
void check_half_model(const SectionReader& b, const Case& c) {
  if (!is_half_model(c) || c.span != FaceBC::Periodic) return;
  b.problem(b.has("span") ? "span" : "lateral", "farfield, slip or wall z faces for a half wing (geometry.half: true)",
            "periodic", "The root of a half wing lies on the symmetry plane z = 0; set boundaries.span: farfield.");
}

void check_body_inside(const SectionReader& root, const Case& c) {
  if (c.geometry == GeometryType::None) return;
  const SectionReader d = root.sub("domain");
  const int dims = dimensions(c.stencil);
  const auto& p = c.body_position_chords;
  const auto& s = c.size_chords;
  static constexpr const char* axis = "xyz";
  for (int i = 0; i < dims; ++i) {
    if (p[i] > 0 && p[i] < s[i]) continue;
    if (i == 2 && is_half_model(c)) continue;  // z = 0: the symmetry plane
    d.problem("body_position_chords",
              std::string("a position inside the domain, 0 < ") + axis[i] + " < " + format_number(s[i]) + " chords",
              std::string(1, axis[i]) + " = " + format_number(p[i]),
              "Positions are measured from the lower-left corner of the domain in reference lengths; the pivot "
              "is the quarter chord for airfoils (the root quarter chord for a wing), the centre for a cylinder "
              "and geometry.pivot for an STL file.");
    return;
  }
  if (is_3d_body(c.geometry)) {
    check_3d_body_inside(root, c);
    return;
  }
  double x0, x1, y0, y1;
  if (c.geometry == GeometryType::Cylinder) {
    x0 = p[0] - 0.5, x1 = p[0] + 0.5, y0 = p[1] - 0.5, y1 = p[1] + 0.5;
  } else {
    // Chord line from 0.25 ahead of the pivot to 0.75 behind it, rotated either way (the sign convention is the
    // geometry code's), widened by half the thickness.
    const double a = c.angle_of_attack_deg * std::numbers::pi / 180.0;
    const double half_t = c.geometry == GeometryType::Naca4 ? std::stoi(c.naca_code.substr(2)) / 200.0 : 0.0;
    const double ca = std::abs(std::cos(a)), sa = std::abs(std::sin(a));
    x0 = p[0] - 0.25 * ca - half_t * sa, x1 = p[0] + 0.75 * ca + half_t * sa;
    y0 = p[1] - 0.75 * sa - half_t * ca, y1 = p[1] + 0.75 * sa + half_t * ca;
  }
  if (x0 > 0 && x1 < s[0] && y0 > 0 && y1 < s[1]) return;
  d.problem("body_position_chords",
            "a body inside the domain [0, " + format_number(s[0]) + "] x [0, " + format_number(s[1]) + "] chords",
            "a body spanning x " + format_significant(x0) + " to " + format_significant(x1) + ", y " +
                format_significant(y0) + " to " + format_significant(y1),
            "Move the body (domain.body_position_chords) or enlarge domain.size_chords; a few chords of fluid "
            "on every side keep the boundaries from disturbing the flow.");
}

void check_grid(const SectionReader& d, const Case& c, const LatticeUnits& u) {
  const bool three_d = dimensions(c.stencil) == 3;
  const double cells = double(u.nx) * double(u.ny) * double(u.nz);
  const bool too_thin = u.nx < kMinCellsPerAxis || u.ny < kMinCellsPerAxis || (three_d && u.nz < kMinCellsPerAxis);
  if (!too_thin && cells <= kMaxCells) return;
  std::string grid = std::to_string(u.nx) + " x " + std::to_string(u.ny);
  if (three_d) grid += " x " + std::to_string(u.nz);
  grid += " = " + format_significant(cells, 4) + " cells";
  d.problem("size_chords", "a grid of at least 4 cells per direction and at most 4e9 cells in all", grid,
            too_thin ? "Enlarge domain.size_chords or raise the cells per reference length."
                     : "Shrink domain.size_chords or lower the cells per reference length (geometry.chord_cells); "
                       "4e9 cells is beyond any single GPU's memory.");
}

// Rounded to `digits` significant figures towards the safe side, so the advice never lands just short of the limit.
double round_up(double x, int digits) {
  const double step = std::pow(10.0, std::floor(std::log10(x)) - (digits - 1));
  return std::ceil(x / step) * step;
}
double round_down(double x, int digits) {
  const double step = std::pow(10.0, std::floor(std::log10(x)) - (digits - 1));
  return std::floor(x / step) * step;
}

// τ = 3ν + 1/2 with ν = u L / Re: too close to 1/2 and the collision amplifies errors instead of damping them.
// With the Smagorinsky model the eddy viscosity raises τ wherever the flow is sheared, so only the molecular τ's
// hard limit (> 0.5) applies; so it does with the entropic collision (lattice.collision: kbc), which chooses in
// every cell how fast the modes that grow near τ = ½ relax. lattice.tau_min guards the other runs.
void check_stability(const SectionReader& physics, const Case& c, const LatticeUnits& u) {
  const bool floor_only = c.les_model != "none" || c.collision == Collision::KBC;
  const double limit = floor_only ? kLesTauFloor : c.tau_min;
  if (u.tau > limit) return;
  const double nu_min = (limit - 0.5) / 3.0;
  // The three ways out, each with the others held fixed; the factor keeps the advice off the exact limit
  // (τ must exceed tau_min, not equal it).
  const double margin = 1.0001;
  const double cells_needed = std::ceil(nu_min * c.reynolds / u.u_lattice * margin);
  const double mach_needed = round_up(nu_min * c.reynolds / c.chord_cells * std::sqrt(3.0) * margin, 3);
  const double re_allowed = round_down(u.u_lattice * c.chord_cells / nu_min / margin, 4);
  std::string hint = "Use more cells per reference length (geometry." +
                     std::string(c.geometry == GeometryType::Cylinder                                   ? "diameter_cells"
                                 : c.geometry == GeometryType::None || c.geometry == GeometryType::Stl ? "reference_cells"
                                                                                                        : "chord_cells") +
                     " >= " + format_number(cells_needed) + ")";
  if (mach_needed <= (c.allow_high_mach ? 0.7 : 0.3))
    hint += ", a higher Mach number (physics.mach >= " + format_significant(mach_needed, 3) + ")";
  hint += ", a lower Reynolds number (physics.reynolds <= " + format_significant(re_allowed, 4) + ")";
  // With the entropic collision or LES only the hard floor applies, which neither they nor lattice.tau_min lift.
  hint += floor_only ? ": the entropic collision and LES run down to this floor, not below it."
                     : " or the entropic collision (lattice.collision: kbc); lattice.tau_min lowers the margin at "
                       "your own risk.";
  physics.problem("reynolds",
                  floor_only ? "a relaxation time τ > " + format_significant(kLesTauFloor, 7) +
                                   " (the floor of the entropic collision and of LES runs)"
                             : "a relaxation time τ > lattice.tau_min = " + format_number(c.tau_min),
                  "τ = " + format_significant(u.tau, 6) + " (ν = " + format_significant(u.nu_lattice, 4) +
                      " in lattice units from Re = " + format_number(c.reynolds) + ", Ma = " + format_number(c.mach) +
                      ", L = " + format_number(c.chord_cells) + " cells)",
                  hint);
}

// WALE's velocity field is computed beside the two-lattice pull step only (kernels/physics/les_wale.hpp).
void check_wale_kernel(const SectionReader& lattice, const Case& c) {
  if (c.les_model != "wale" || c.kernel == KernelVariant::Auto || c.kernel == KernelVariant::Pull) return;
  lattice.problem("kernel", "pull or auto with lattice.les.model: wale", kernel_name(c.kernel),
                  "The aa and tiled kernels have no WALE path; set lattice.kernel: pull (or auto), or use "
                  "lattice.les.model: smagorinsky.");
}

// The wall function is applied by the two-lattice pull step only (kernels/physics/cell_update.hpp).
// So are wall-model faces (boundaries.lateral or span: wall_model).
void check_wall_model_kernel(const SectionReader& root, const Case& c) {
  const bool face = c.lateral == FaceBC::WallModel || c.span == FaceBC::WallModel;
  if ((c.wall != WallModel::WallFunction && !face) || c.kernel == KernelVariant::Auto ||
      c.kernel == KernelVariant::Pull)
    return;
  root.sub("lattice").problem("kernel", std::string("pull or auto with ") +
                                            (face ? "a wall_model face" : "boundaries.wall: wall_model"),
                              kernel_name(c.kernel),
                              "The aa and tiled kernels have no wall-model path; set lattice.kernel: pull (or auto), "
                              "or use boundaries.wall: interpolated (lateral, span: wall).");
}

// A wall-model face's probe lies inside the fluid between the face and the middle of its axis.
void check_wall_model_probe(const SectionReader& boundaries, const Case& c, const LatticeUnits& u) {
  std::int64_t rows = 0;
  if (c.lateral == FaceBC::WallModel) rows = u.ny;
  if (c.span == FaceBC::WallModel && u.nz > 1) rows = rows == 0 ? u.nz : std::min(rows, u.nz);
  if (rows == 0 || c.wall_model_probe < 0.5 * double(rows)) return;
  boundaries.problem("wall_model_probe", "less than half the " + std::to_string(rows) + " cells between the walls",
                     format_number(c.wall_model_probe),
                     "The probe must lie in the wall's half of the channel; give a smaller distance (2.5-4.5 cells "
                     "is usual) or more cells across.");
}

}  // namespace

void check_consistency(const SectionReader& root, const Case& c) {
  check_periodic_pair(root.sub("boundaries"), c);
  check_average_window(root.sub("time"), c);
  check_averages_formats(root.sub("output"), c);
  check_wale_kernel(root.sub("lattice"), c);
  check_wall_model_kernel(root, c);
  check_half_model(root.sub("boundaries"), c);
  check_initial_velocity(root.sub("physics"), c);
  const SectionReader domain = root.sub("domain");
  check_body_inside(root, c);
  const LatticeUnits u = lattice_units(c);
  check_grid(domain, c, u);
  check_wall_model_probe(root.sub("boundaries"), c, u);
  check_stability(root.sub("physics"), c, u);
  check_refinement(root, c);
}

}  // namespace aerolbm
