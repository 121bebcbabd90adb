#include "src/python/session.hpp"

#include <filesystem>
#include <mutex>
#include <optional>

#include "kernels/backend.hpp"
#include "kernels/backend_factory.hpp"
#include "kernels/lattice/lattice.hpp"
#include "src/app/entry_points.hpp"
#include "src/app/run_folder.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/frame_builder.hpp"
#include "src/solver/resources.hpp"
#include "src/solver/simulation.hpp"
#include "src/surrogate/prediction.hpp"

namespace aerolbm::session {
namespace fs = std::filesystem;

namespace {

// Runs fn, turning the solver's run-time failures (exit status 1 on the command line) into RunFailure, with their
// messages unchanged. Bad input (exit status 2) passes as it is: every such error is an InputError.
template <class Fn>
auto guarded(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const RunError& e) {
    throw RunFailure(e.what());
  }
}

template <class L>
LatticeInfo lattice_of() {
  LatticeInfo l;
  l.name = L::name;
  l.d = L::D;
  l.q = L::Q;
  for (int i = 0; i < L::Q; ++i) {
    for (int a = 0; a < 3; ++a) l.c.push_back(L::c(i, a));
    l.w.push_back(L::w(i));
  }
  return l;
}

std::map<std::string, Field> frame_fields(Frame&& f) {
  std::map<std::string, Field> out;
  auto put = [&](const char* name, std::vector<float>& v, int components) {
    if (v.empty()) return;
    Field field;
    field.values = std::move(v);
    field.components = components;
    out.emplace(name, std::move(field));
  };
  put("velocity", f.velocity, 3);
  put("pressure", f.pressure, 1);
  put("density", f.density, 1);
  put("vorticity", f.vorticity, f.vorticity_components);
  put("q_criterion", f.q_criterion, 1);
  if (!f.mask.empty()) {
    Field m;
    m.bytes = std::move(f.mask);
    out.emplace("mask", std::move(m));
  }
  return out;
}

}  // namespace

BuildInfo build_info() {
  BuildInfo b;
  b.version = AEROLBM_VERSION;
#ifdef AEROLBM_HAVE_CUDA
  b.cuda = true;
#endif
  b.cuda_devices = cuda_device_count();
  b.devices = cuda_device_summary();
  return b;
}

LatticeInfo lattice_info(const std::string& name) {
  if (const auto s = enum_from_name(kStencilNames, name))
    return with_lattice(*s, [](auto l) { return lattice_of<decltype(l)>(); });
  throw InputError("lattice: expected D2Q9, D3Q19 or D3Q27, got '" + name + "'");
}

double device_copy_bandwidth(std::size_t bytes, int repeats) { return cuda_copy_bandwidth_gbs(bytes, repeats); }

double host_copy_bandwidth(std::size_t bytes, int repeats, int threads) {
  return host_copy_bandwidth_gbs(bytes, repeats, threads);
}

// ---- cases ---------------------------------------------------------------------------------------------------------

struct Case::Impl {
  aerolbm::Case c;
  LatticeUnits u;
};

namespace {
Case make_case(aerolbm::Case&& c) {
  auto impl = std::make_shared<Case::Impl>();
  impl->u = lattice_units(c);
  impl->c = std::move(c);
  Case out;
  out.impl = std::move(impl);
  return out;
}
}  // namespace

Case Case::from_file(const std::string& file, const std::vector<std::string>& overrides) {
  return guarded([&] { return make_case(load_case(file, overrides)); });
}

Case Case::from_text(const std::string& text, const std::string& label, const std::string& base_dir,
                     const std::vector<std::string>& overrides) {
  return guarded([&] {
    return make_case(load_case_text(text, label, fs::path(base_dir.empty() ? "." : base_dir) / "case.yaml", overrides));
  });
}

std::string Case::name() const { return impl->c.name; }
std::string Case::source() const { return impl->c.source_file.string(); }
std::string Case::yaml() const { return impl->c.yaml_text; }
std::string Case::describe() const { return aerolbm::describe(impl->c, impl->u); }
std::string Case::lattice() const { return stencil_name(impl->c.stencil); }

std::map<std::string, double> Case::lattice_units() const {
  const LatticeUnits& u = impl->u;
  return {{"reference_length_cells", u.length_cells},
          {"u_lattice", u.u_lattice},
          {"u_max_lattice", u.u_max_lattice},
          {"nu_lattice", u.nu_lattice},
          {"tau", u.tau},
          {"dx", u.dx},
          {"dt", u.dt},
          {"nx", double(u.nx)},
          {"ny", double(u.ny)},
          {"nz", double(u.nz)},
          {"total_steps", double(u.total_steps)},
          {"average_steps", double(u.average_steps)},
          {"steps_per_convective_time", double(u.steps_per_convective_time)},
          {"reynolds", impl->c.reynolds},
          {"mach", impl->c.mach},
          {"angle_of_attack_deg", impl->c.angle_of_attack_deg}};
}

// ---- simulations ---------------------------------------------------------------------------------------------------

struct Simulation::Impl {
  std::shared_ptr<const Case::Impl> c;
  LatticeUnits u;
  std::function<int()> stop;  // run()'s stop check while it runs (RunOptions::stop_check calls it)
  std::unique_ptr<aerolbm::Simulation> sim;
  mutable std::mutex m;
};

Simulation::Simulation(const Case& c, const SimulationOptions& options) : impl_(std::make_unique<Impl>()) {
  Impl* impl = impl_.get();
  impl->c = c.impl;
  impl->u = c.impl->u;
  limit_steps(impl->u, options.steps);
  RunOptions ro;
  ro.solver.threads = options.threads;
  ro.progress = options.progress;
  ro.stop_check = [impl] { return impl->stop ? impl->stop() : 0; };
  guarded([&] {
    ro.solver.backend = parse_backend(options.backend);
    impl->sim = std::make_unique<aerolbm::Simulation>(impl->c->c, impl->u, make_body(impl->c->c), std::move(ro));
  });
}

Simulation::~Simulation() = default;

std::string Simulation::backend() const { return impl_->sim->backend().name(); }
std::string Simulation::device() const { return impl_->sim->backend().device(); }
std::string Simulation::kernel() const { return impl_->sim->backend().kernel(); }
std::array<std::int64_t, 3> Simulation::grid() const { return {impl_->u.nx, impl_->u.ny, impl_->u.nz}; }
std::string Simulation::lattice() const { return stencil_name(impl_->c->c.stencil); }
std::int64_t Simulation::step() const {
  std::lock_guard<std::mutex> lock(impl_->m);
  return impl_->sim->step();
}
std::int64_t Simulation::total_steps() const { return impl_->u.total_steps; }
double Simulation::dt() const { return impl_->u.dt; }

std::int64_t Simulation::advance(std::int64_t steps, const std::function<bool()>& stop) {
  std::lock_guard<std::mutex> lock(impl_->m);
  return guarded([&] { return impl_->sim->advance(steps, stop); });
}

RunSummary Simulation::run(const std::string& output, bool overwrite, bool ignore_resources,
                           const std::function<int()>& stop) {
  std::lock_guard<std::mutex> lock(impl_->m);
  aerolbm::Simulation& sim = *impl_->sim;
  if (sim.step() != 0)
    throw std::logic_error("run() writes a whole run, from step 0, into its run folder; this simulation has been "
                           "advanced to step " + std::to_string(sim.step()) + " already. Make a new Simulation.");
  const aerolbm::Case& c = impl_->c->c;
  const fs::path out = output.empty() ? fs::path("runs") / c.name : fs::path(output);
  return guarded([&] {
    // `aerolbm run`'s checks of the folder, before anything is written.
    app::check_output_dir(out);
    if (!overwrite) app::refuse_existing_run(out);
    if (!ignore_resources) {
      // Memory is taken already (the simulation exists); what is left to check is the disk.
      const bool cuda = sim.backend().kind() == BackendKind::Cuda;
      ResourceNeeds need = estimate_resources(c, impl_->u, cuda);
      need.host_bytes = need.device_bytes = 0;
      check_resources(need, available_resources(out, cuda), out);
    }
    fs::create_directories(out);
    app::RunFolderLock folder_lock(out);
    if (overwrite) app::remove_run_outputs(out);
    sim.set_output_dir(out);
    impl_->stop = stop;
    struct Reset {
      std::function<int()>& f;
      ~Reset() { f = nullptr; }
    } reset{impl_->stop};
    const RunResult r = sim.run();
    RunSummary s;
    s.output = out.string();
    s.backend = r.backend;
    s.device = r.device;
    s.kernel = r.kernel;
    s.steps = r.steps;
    s.first_step = r.first_step;
    s.wall_seconds = r.wall_seconds;
    s.mlups = r.mlups;
    s.cd_mean = r.cd_mean;
    s.cl_mean = r.cl_mean;
    s.cd_final = r.cd_final;
    s.cl_final = r.cl_final;
    s.has_strouhal = r.strouhal.has_value();
    s.strouhal = r.strouhal.value_or(0.0);
    s.frames = r.frames;
    s.stopped_by_signal = r.stopped_by_signal;
    s.checkpoint_step = r.checkpoint_step;
    return s;
  });
}

double Simulation::timed_steps(std::int64_t steps) {
  std::lock_guard<std::mutex> lock(impl_->m);
  return impl_->sim->timed_steps(steps);
}

Forces Simulation::forces() {
  std::lock_guard<std::mutex> lock(impl_->m);
  const CoefficientSample s = impl_->sim->coefficients_now();
  return {s.step, s.time, s.cd, s.cl, s.cs};
}

History Simulation::history() const {
  std::lock_guard<std::mutex> lock(impl_->m);
  History h;
  for (const CoefficientSample& s : impl_->sim->history().samples()) {
    h.step.push_back(s.step);
    h.time.push_back(s.time);
    h.cd.push_back(s.cd);
    h.cl.push_back(s.cl);
    h.cs.push_back(s.cs);
  }
  return h;
}

void Simulation::macroscopic(std::vector<float>& rho, std::vector<float>& u) {
  std::lock_guard<std::mutex> lock(impl_->m);
  impl_->sim->backend().macroscopic(rho, u);
}

std::map<std::string, Field> Simulation::frame(const std::vector<std::string>& names_in) {
  static const char* const known[] = {"velocity", "pressure", "density", "vorticity", "q_criterion", "mask"};
  const std::vector<std::string> names = names_in.empty() ? impl_->c->c.fields : names_in;
  for (const std::string& n : names) {
    if (std::find(std::begin(known), std::end(known), n) == std::end(known))
      throw InputError("fields: unknown field '" + n +
                       "'; expected velocity, pressure, density, vorticity, q_criterion or mask");
  }
  std::lock_guard<std::mutex> lock(impl_->m);
  aerolbm::Simulation& sim = *impl_->sim;
  std::vector<float> rho, u;
  sim.backend().macroscopic(rho, u);
  const double u_ref = impl_->u.u_lattice > 0 ? impl_->u.u_lattice : 1.0;
  Frame f = build_frame(sim.domain(), rho.data(), u.data(), u_ref, impl_->u.dx, FrameRequest::from_names(names));
  return frame_fields(std::move(f));
}

void Simulation::read_populations(std::vector<double>& f) {
  std::lock_guard<std::mutex> lock(impl_->m);
  impl_->sim->backend().read_populations(f);
}

void Simulation::write_populations(const std::vector<double>& f) {
  std::lock_guard<std::mutex> lock(impl_->m);
  const std::size_t need = std::size_t(lattice_q(impl_->c->c.stencil)) * std::size_t(impl_->sim->domain().cells());
  if (f.size() != need)
    throw InputError("populations: expected " + std::to_string(need) + " values (Q × cells), got " +
                     std::to_string(f.size()));
  impl_->sim->backend().write_populations(f);
}

DeviceFields Simulation::device_fields() {
  std::lock_guard<std::mutex> lock(impl_->m);
  DeviceFieldArrays a;
  try {
    a = impl_->sim->backend().device_fields();
  } catch (const std::logic_error& e) {
    throw InputError(e.what());
  }
  return {reinterpret_cast<std::uintptr_t>(a.rho), reinterpret_cast<std::uintptr_t>(a.u), a.device};
}

// ---- compare and predict -------------------------------------------------------------------------------------------

int compare(const CompareOptions& o, const Case* given) {
  app::CompareArgs a;
  a.inputs = o.inputs;
  a.output = o.output;
  a.options.field_tol = o.field_tol;
  a.options.force_tol = o.force_tol;
  a.options.strouhal_tol = o.strouhal_tol;
  a.fail_above = o.fail_above;
  a.plots = o.plots;
  a.steps = o.steps;
  a.threads = o.threads;
  a.sets = o.sets;
  std::optional<aerolbm::Case> c;
  if (given) {
    c = given->impl->c;
    if (a.inputs.empty()) a.inputs.push_back(c->source_file.string());
  }
  return guarded([&] { return app::compare(a, c); });
}

Prediction predict(const Case& c, const PredictOptions& o) {
  app::PredictArgs a;
  a.file = c.impl->c.source_file.string();
  a.model = o.model;
  a.backend = o.backend;
  a.output = o.output;
  a.repeats = o.repeats;
  a.overwrite = o.overwrite;
  return guarded([&] {
    surrogate::Prediction p;
    fs::path folder;
    app::predict(c.impl->c, a, &p, &folder);
    Prediction out;
    out.output = folder.string();
    out.backend = p.backend;
    out.device = p.device;
    out.seconds = p.seconds;
    out.first_seconds = p.first_seconds;
    out.wall_seconds = p.wall_seconds;
    out.cl = p.cl();
    out.cd = p.cd();
    out.cl_field = p.coefficients.cl;
    out.cd_field = p.coefficients.cd;
    out.coefficients_source = p.head ? "network" : "field";
    const GridInfo g = surrogate::prediction_grid(p.grid);
    out.grid = {g.nx, g.ny, g.nz};
    out.origin = g.origin;
    out.spacing = g.spacing;
    out.fields = frame_fields(surrogate::prediction_frame(p));
    return out;
  });
}

}  // namespace aerolbm::session
