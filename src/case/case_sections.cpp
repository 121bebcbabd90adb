#include <algorithm>
#include <cctype>
#include <cmath>

#include "src/case/loader_steps.hpp"

namespace aerolbm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

template <class T, class U>
void assign(const std::optional<T>& v, U& dst) {
  if (v) dst = static_cast<U>(*v);
}

// Names end up in folder and file names, so only characters that are safe everywhere.
bool safe_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-'; }

bool is_safe_name(const std::string& s) { return !s.empty() && std::all_of(s.begin(), s.end(), safe_char); }

std::string sanitized(std::string s) {
  std::replace_if(
      s.begin(), s.end(), [](char ch) { return !safe_char(ch); }, '_');
  return s.empty() ? std::string("case") : s;
}

void read_meta(const SectionReader& r, const std::filesystem::path& case_file, Case& c) {
  c.name = sanitized(case_file.stem().string());
  if (auto name = r.text("name")) {
    if (is_safe_name(*name))
      c.name = *name;
    else
      r.problem("name", "a name made of letters, digits, '_', '.' and '-'",
                name->empty() ? std::string("nothing") : describe_value(r.get("name")),
                "The name becomes part of folder and file names; replace spaces and other characters with '_'.");
  }
  assign(r.text("description"), c.description);
}

void read_physics(const SectionReader& r, int dims, Case& c) {
  if (r.absent()) {
    r.diag().error("physics", r.section_mark(), "a 'physics' section with at least reynolds and mach",
                   "nothing (the section is missing)", "Add e.g. 'physics: {reynolds: 1000, mach: 0.1}'.");
    return;
  }
  assign(r.boolean("allow_high_mach"), c.allow_high_mach);

  if (r.present() && !r.has("reynolds"))
    r.missing("reynolds", "a number in (0, 1e7]",
              "Add physics.reynolds, e.g. 'reynolds: 1000' (based on the reference length and mean inflow speed).");
  assign(r.number("reynolds", {0, 1e7, true, false},
                  "The Reynolds number must be positive; beyond 1e7 a lattice resolving the boundary layer does not "
                  "fit in memory, and without a wall model the result would be wrong anyway."),
         c.reynolds);

  if (r.present() && !r.has("mach"))
    r.missing("mach", "a number in (0, 0.3]", "Add physics.mach, e.g. 'mach: 0.1' (0.05-0.15 is typical).");
  if (c.allow_high_mach) {
    assign(r.number("mach", {0, 0.7, true, false},
                    "Even with allow_high_mach the lattice's equilibrium is not valid beyond Ma = 0.7; lower it."),
           c.mach);
  } else {
    assign(r.number("mach", {0, 0.3, true, false},
                    "Lower the Mach number (compressibility errors grow as Ma^2), or set "
                    "physics.allow_high_mach: true."),
           c.mach);
  }

  assign(r.number("angle_of_attack_deg", {-90, 90}, "Give the angle in degrees between -90 and 90."),
         c.angle_of_attack_deg);

  assign(r.number("initial_noise", {0, 0.5},
                  "The perturbation is a fraction of the inflow speed: 0.01-0.05 seeds the wake's instabilities; "
                  "beyond 0.5 it is no longer a perturbation."),
         c.initial_noise);

  const std::string example = dims == 2 ? "[1e-5, 0]" : "[1e-5, 0, 0]";
  if (auto f = r.numbers("body_force", {-1e-2, 1e-2, true, true},
                         "Body force is in lattice units (force per cell per step); |f| >= 0.01 drives the flow "
                         "far past the lattice's speed limit. Typical values are 1e-6 to 1e-4.",
                         example)) {
    if (static_cast<int>(f->size()) != dims) {
      r.problem("body_force",
                std::to_string(dims) + " numbers for lattice.stencil " + stencil_name(c.stencil),
                std::to_string(f->size()) + " numbers", "Give one component per direction, e.g. " + example + ".");
    } else {
      for (int i = 0; i < dims; ++i) c.body_force[i] = (*f)[i];
    }
  }

  const std::string u_example = dims == 2 ? "[1, 0]" : "[1, 0, 0]";
  if (auto u = r.numbers("initial_velocity", {-2, 2, true, true},
                         "The initial velocity is in units of the reference speed (physics.mach's); beyond 2 the "
                         "flow starts faster than the lattice carries.",
                         u_example)) {
    if (static_cast<int>(u->size()) != dims) {
      r.problem("initial_velocity", std::to_string(dims) + " numbers for lattice.stencil " + stencil_name(c.stencil),
                std::to_string(u->size()) + " numbers", "Give one component per direction, e.g. " + u_example + ".");
    } else {
      for (int i = 0; i < dims; ++i) c.initial_velocity[i] = (*u)[i];
    }
  }
}

// Two entries for D2Q9 (x, y), three for 3D stencils (x, y, z).
void read_domain(const SectionReader& r, Case& c) {
  const int dims = dimensions(c.stencil);
  const std::string stencil = stencil_name(c.stencil);
  if (dims == 3) {  // the 2D defaults plus a span as wide as the domain is high
    c.size_chords = {12, 6, 6};
    c.body_position_chords = {3, 3, 3};
  }
  const auto read_vector = [&](std::string_view key, const Range& each, std::string_view hint, std::string_view example,
                               std::array<double, 3>& dst) {
    const auto v = r.numbers(key, each, hint, example);
    if (!v) return;
    if (static_cast<int>(v->size()) != dims) {
      const std::string fix =
          dims == 2 ? "Give 2 numbers (x, y), or choose a 3D stencil (D3Q19 or D3Q27) in lattice.stencil."
                    : "Give 3 numbers (x, y, z; z is the span), or use lattice.stencil D2Q9 for a 2D run.";
      r.problem(
          key,
          std::to_string(dims) + " numbers (" + (dims == 2 ? "x, y" : "x, y, z") + ") for lattice.stencil " + stencil,
          std::to_string(v->size()) + (v->size() == 1 ? " number" : " numbers"), fix);
      return;
    }
    for (int i = 0; i < dims; ++i) dst[i] = (*v)[i];
  };
  read_vector("size_chords", {0, kInf, true, false}, "Domain sizes are in reference lengths and must be positive.",
              dims == 2 ? "[12, 6]" : "[12, 6, 2]", c.size_chords);
  read_vector("body_position_chords", {}, "", dims == 2 ? "[3, 3]" : "[3, 3, 1]", c.body_position_chords);
  if (is_half_model(c) && dims == 3) {
    // A half wing's root lies on the symmetry plane z = 0, the low z face of the domain.
    if (r.has("body_position_chords") && c.body_position_chords[2] != 0)
      r.problem("body_position_chords", "z = 0 for a half wing (geometry.half: true)",
                "z = " + format_number(c.body_position_chords[2]),
                "A half wing's root section lies on the symmetry plane z = 0 (the low z face); set the third entry "
                "to 0, or use a full wing (geometry.half: false).");
    c.body_position_chords[2] = 0;
  }
  if (dims == 2) {
    // A 2D run is one cell thick; the body's pivot sits in the middle of that layer.
    c.size_chords[2] = 1.0 / c.chord_cells;
    c.body_position_chords[2] = 0.5 / c.chord_cells;
  }
}

void read_lattice(const SectionReader& r, Case& c) {
  assign(r.choice("stencil", kStencilNames), c.stencil);
  assign(r.choice("collision", kCollisionNames), c.collision);
  assign(r.choice("precision", kPrecisionNames), c.precision);
  assign(r.choice("kernel", kKernelNames), c.kernel);
  assign(r.number("trt_magic", {0, 1, true, false},
                  "The TRT magic parameter is (0, 1]; 3/16 = 0.1875 puts bounce-back walls exactly half-way, 1/4 "
                  "gives the most stable scheme."),
         c.trt_magic);
  assign(r.number("tau_min", {0.5, 2, true, false},
                  "τ = 0.5 is zero viscosity (always unstable); 0.505 is a common safety margin."),
         c.tau_min);
  const SectionReader les = r.sub("les");
  assign(les.choice("model"), c.les_model);
  if (c.les_model == "wale") c.les_constant = kWaleConstant;  // unless the file sets one
  assign(les.number("constant", {0, 0.5, true, false},
                    "The Smagorinsky constant is usually 0.1-0.2, WALE's 0.3-0.5; larger values damp the flow "
                    "heavily."),
         c.les_constant);
}

void read_boundaries(const SectionReader& r, Case& c) {
  if (auto s = r.choice("inlet")) c.inlet = *s == "periodic" ? FaceBC::Periodic : FaceBC::Velocity;
  if (auto s = r.choice("outlet")) {
    c.outlet = *s == "periodic" ? FaceBC::Periodic : FaceBC::Pressure;
    c.characteristic_outlet = *s == "characteristic";
  }
  assign(r.choice("lateral", kSideFaceNames), c.lateral);
  c.span = c.lateral;
  assign(r.choice("span", kSideFaceNames), c.span);
  assign(r.number("outlet_relaxation", {0, 10},
                  "The characteristic outlet's relaxation σ is 0 (the pressure drifts freely) to 10 (close to a "
                  "fixed pressure, which reflects); 0.25-1 lets waves out and holds the mean pressure."),
         c.outlet_relaxation);
  const SectionReader sponge = r.sub("sponge");
  assign(sponge.number("width_chords", {0, kInf},
                       "The sponge layer's width is in reference lengths (0: none); half a chord to one chord "
                       "absorbs the start-up waves of an airfoil case."),
         c.sponge_width_chords);
  assign(sponge.number("strength", {0, 0.5},
                       "The sponge strength is the relaxation per step at the face, 0 (none) to 0.5; 0.02-0.1 "
                       "absorbs without reflecting from the layer itself."),
         c.sponge_strength);
  assign(r.choice("wall", kWallModelNames), c.wall);
  assign(r.choice("inlet_profile", kInletProfileNames), c.inlet_profile);
  const auto probe = r.number("wall_model_probe", {1.5, 64.5},
                              "A wall-model face samples the velocity 1.5 to 64.5 cells from the wall (1.5: the "
                              "second row; 2.5-4.5 samples where the LES resolves the flow).");
  if (probe && *probe != std::floor(*probe) + 0.5)
    r.problem("wall_model_probe", "a cell centre's distance from the wall: 1.5, 2.5, 3.5, ...", format_number(*probe),
              "The probe is a cell of the grid, whose centres lie half a cell plus a whole number of cells from the "
              "wall; give for example 2.5.");
  else
    assign(probe, c.wall_model_probe);
}

void read_time(const SectionReader& r, Case& c) {
  assign(r.number("convective_times", {0, kInf, true, false},
                  "The run length is in convective times (reference lengths travelled by the inflow); give a "
                  "positive number, or set time.steps."),
         c.convective_times);
  // Left out, the averaging window shrinks to fit a short run rather than making the default an error.
  c.average_last = std::min(c.average_last, c.convective_times);
  assign(r.number("average_last", {0, kInf}, "The averaging window is a non-negative number of convective times."),
         c.average_last);
  assign(r.integer("steps", {0, kInf}, "Use 0 to derive the length from time.convective_times."), c.steps);
  assign(r.number("ramp_convective_times", {0, kInf},
                  "The inflow ramp is a non-negative number of convective times (0: the flow starts at full speed)."),
         c.ramp_convective_times);
}

void read_watchdog(const SectionReader& r, Case& c) {
  assign(r.integer("every", {1, kInf}, "The watchdog scans the state every N >= 1 steps; 100 costs about 1 % of the run."),
         c.watchdog_every);
  assign(r.number("max_speed", {0, 1, true, false},
                  "A lattice speed near the sound speed (0.577) is unstable; 0.4 leaves a margin."),
         c.watchdog_max_speed);
}

void read_parallel(const SectionReader& r, int dims, Case& c) {
  const auto v = r.numbers("ranks_grid", {1, 4096}, "Each entry is a number of MPI ranks, 1 or more.",
                           dims == 2 ? "[2, 1]" : "[2, 1, 1]");
  if (!v) return;
  bool whole = true;
  for (double x : *v) whole = whole && x == double(int(x));
  if (int(v->size()) != dims || !whole) {
    r.problem("ranks_grid", std::to_string(dims) + " whole numbers (ranks along " + (dims == 2 ? "x, y" : "x, y, z") + ")",
              std::to_string(v->size()) + " numbers",
              "Give the ranks along each axis, for example [4, 1" + std::string(dims == 2 ? "]" : ", 1]") +
                  "; their product must equal the number of MPI ranks (mpirun -np).");
    return;
  }
  for (int a = 0; a < dims; ++a) c.ranks_grid[std::size_t(a)] = int((*v)[std::size_t(a)]);
  if (dims == 2) c.ranks_grid[2] = 1;
}

void read_output(const SectionReader& out, const SectionReader& forces, const SectionReader& checkpoint, Case& c) {
  assign(out.integer("every", {0, kInf}, "Use 0 for no field output, or a number of steps between frames."),
         c.output_every);
  assign(out.choice_list("fields"), c.fields);
  assign(out.choice_list("formats"), c.formats);
  assign(out.choice("precision"), c.output_precision);
  assign(forces.integer("every", {1, kInf}, "Forces are sampled every N >= 1 steps; 10 is cheap and smooth."),
         c.forces_every);
  const SectionReader averages = out.sub("averages");
  assign(averages.boolean("enabled"), c.averages);
  c.averages_every = c.forces_every;
  assign(averages.integer("every", {1, kInf},
                          "The mean fields are sampled every N >= 1 steps (left out: forces.every); a sample costs "
                          "about as much as a step or two, so small intervals slow the run."),
         c.averages_every);
  // Overrides of a 3D body's own force reference (a wing's planform area, its root quarter chord).
  const auto only_3d_bodies = [&](std::string_view key) {
    if (!forces.has(key) || is_3d_body(c.geometry)) return true;
    forces.problem(key, "a geometry.type of wing or stl (3D bodies with their own force reference)",
                   "the key with another geometry type",
                   "Remove it: 2D sections and cylinders use the solver's reference (chord x span).");
    return false;
  };
  if (only_3d_bodies("reference_area"))
    assign(forces.number("reference_area", {0, 1e6, true, false},
                         "The reference area is in reference lengths squared, e.g. the full wing's planform area."),
           c.forces_reference_area);
  // The point moments are taken about, from the body's pivot: [x, y, z] for 3D bodies, [x, y] for sections and
  // cylinders (their pivot: the quarter chord, the centre).
  if (forces.has("moment_point") && c.geometry == GeometryType::None) {
    forces.problem("moment_point", "a body (geometry.type) to take moments of", "no body",
                   "Remove forces.moment_point, or give the case a geometry.");
  } else if (auto v = forces.numbers("moment_point", {-1e6, 1e6}, "The moment point is in reference lengths.",
                                     is_3d_body(c.geometry) ? "[0, 0, 0]" : "[0, 0]")) {
    const std::size_t n = is_3d_body(c.geometry) ? 3 : 2;
    if (v->size() != n) {
      forces.problem("moment_point",
                     n == 3 ? "3 numbers (x, y, z in reference lengths from the body's pivot)"
                            : "2 numbers (x, y in reference lengths from the section's pivot, its quarter chord)",
                     std::to_string(v->size()) + " numbers",
                     n == 3 ? "E.g. [0.25, 0, 0] for a point a quarter chord aft."
                            : "E.g. [-0.25, 0] for the leading edge at zero angle of attack.");
    } else {
      c.has_moment_point = true;
      c.forces_moment_point = {(*v)[0], (*v)[1], n == 3 ? (*v)[2] : 0.0};
    }
  }
  assign(checkpoint.integer("every", {0, kInf}, "Use 0 for no checkpoints, or a number of steps between them."),
         c.checkpoint_every);
}

}  // namespace

void read_sections(const SectionReader& root, const std::filesystem::path& case_file, Case& c) {
  // Order matters: the stencil fixes how many entries vectors need; the geometry fixes the cell count that the
  // 2D layer thickness is expressed in.
  read_meta(root.sub("case"), case_file, c);
  read_lattice(root.sub("lattice"), c);
  read_physics(root.sub("physics"), dimensions(c.stencil), c);
  read_geometry(root, case_file, c);
  read_domain(root.sub("domain"), c);
  read_boundaries(root.sub("boundaries"), c);
  read_time(root.sub("time"), c);
  read_output(root.sub("output"), root.sub("forces"), root.sub("checkpoint"), c);
  read_watchdog(root.sub("watchdog"), c);
  read_parallel(root.sub("parallel"), dimensions(c.stencil), c);
  read_refinement(root.sub("refinement"), c);
}

}  // namespace aerolbm
