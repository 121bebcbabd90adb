// aerolbm._core: the pybind11 binding of src/python/session.hpp (the package aerolbm re-exports it; see
// python/aerolbm/__init__.py for the Python-side helpers and __init__.pyi for the types). Only session.hpp, the
// DLPack ABI and pybind11 are included: no CUDA, no solver headers, so the module can be rebuilt for any Python
// against an installed libaerolbm_session.so.
//
// Long calls (construction, step, run, compare, predict, fields) release the GIL; step and run ask Python's
// signal handlers between chunks of steps (PyErr_CheckSignals), so Ctrl-C ends them cleanly with
// KeyboardInterrupt.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include "python/dlpack_abi.hpp"
#include "src/python/session.hpp"

namespace py = pybind11;
namespace s = aerolbm::session;

namespace {

// ---- NumPy arrays that own a std::vector (no copy) ----------------------------------------------------------------

template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v, const std::vector<py::ssize_t>& shape) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(shape, owned->data(), owner);
}

// The NumPy shape of a field on the grid: (ny, nx) in 2D, (nz, ny, nx) in 3D (x fastest, as the solver stores
// it), with a last axis for several components.
std::vector<py::ssize_t> field_shape(const std::array<std::int64_t, 3>& n, bool three_d, int components) {
  std::vector<py::ssize_t> shape;
  if (three_d) shape.push_back(py::ssize_t(n[2]));
  shape.push_back(py::ssize_t(n[1]));
  shape.push_back(py::ssize_t(n[0]));
  if (components > 1) shape.push_back(components);
  return shape;
}

bool is_3d(const s::Simulation& sim) { return sim.lattice() != "D2Q9"; }

py::dict fields_dict(std::map<std::string, s::Field>&& fields, const std::array<std::int64_t, 3>& n, bool three_d) {
  py::dict out;
  for (auto& [name, f] : fields) {
    if (!f.bytes.empty())
      out[py::str(name)] = to_numpy(std::move(f.bytes), field_shape(n, three_d, 1));
    else
      out[py::str(name)] = to_numpy(std::move(f.values), field_shape(n, three_d, f.components));
  }
  return out;
}

// ---- Ctrl-C between chunks of steps -------------------------------------------------------------------------------

// Asks Python's signal handlers (with the GIL) whether to stop: true once one raised (KeyboardInterrupt for
// Ctrl-C); the exception stays set for the caller to raise.
struct SignalCheck {
  bool raised = false;
  bool operator()() {
    py::gil_scoped_acquire gil;
    if (!raised && PyErr_CheckSignals() != 0) raised = true;
    return raised;
  }
};

// ---- zero-copy device arrays: DLPack and __cuda_array_interface__ --------------------------------------------------

// One field of the CUDA backend's device memory (Simulation.device_fields): float32, C-contiguous. Holds the
// Simulation, so that the memory outlives every consumer's view.
struct DeviceArray {
  py::object owner;
  std::uintptr_t ptr = 0;
  std::vector<std::int64_t> shape;
  int device = 0;
};

struct Exported {  // what a DLPack capsule owns
  aerolbm::dlpack::ManagedTensor tensor{};
  std::vector<std::int64_t> shape;
  py::object owner;
};

void delete_exported(aerolbm::dlpack::ManagedTensor* t) {
  auto* e = static_cast<Exported*>(t->manager_ctx);
  if (!Py_IsInitialized()) return;  // the interpreter is gone: leak rather than touch it
  // Consumers may call the deleter from any thread, with or without the GIL.
  PyGILState_STATE g = PyGILState_Ensure();
  delete e;
  PyGILState_Release(g);
}

void capsule_destructor(PyObject* capsule) {
  // Still named "dltensor": nobody consumed it, so the deleter is ours to call ("used_dltensor" otherwise).
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* t = static_cast<aerolbm::dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (t && t->deleter) t->deleter(t);
  } else {
    PyErr_Clear();
  }
}

py::capsule to_dlpack(const DeviceArray& a) {
  auto* e = new Exported;
  e->shape = a.shape;
  e->owner = a.owner;
  auto& t = e->tensor;
  t.dl_tensor.data = reinterpret_cast<void*>(a.ptr);
  t.dl_tensor.device = {aerolbm::dlpack::kCUDA, a.device};
  t.dl_tensor.ndim = std::int32_t(e->shape.size());
  t.dl_tensor.dtype = {aerolbm::dlpack::kFloat, 32, 1};
  t.dl_tensor.shape = e->shape.data();
  t.dl_tensor.strides = nullptr;
  t.dl_tensor.byte_offset = 0;
  t.manager_ctx = e;
  t.deleter = delete_exported;
  PyObject* c = PyCapsule_New(&t, "dltensor", capsule_destructor);
  if (!c) {
    delete e;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(c);
}

py::tuple shape_tuple(const std::vector<std::int64_t>& shape) {
  py::tuple t(shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i) t[i] = shape[i];
  return t;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "aerolbm's solver in Python (the C++ module under the aerolbm package; import aerolbm).";

  // Bad input: the command line's exit status 2, with its message. A ValueError.
  py::register_exception<s::InputError>(m, "InputError", PyExc_ValueError);
  // Failures while running (divergence, I/O): the command line's exit status 1. A RuntimeError.
  py::register_exception<s::RunFailure>(m, "RunError", PyExc_RuntimeError);

  m.def(
      "build_info",
      [] {
        const s::BuildInfo b = s::build_info();
        py::dict d;
        d["version"] = b.version;
        d["cuda"] = b.cuda;
        d["cuda_devices"] = b.cuda_devices;
        d["devices"] = b.devices;
        return d;
      },
      "The library's version, whether the CUDA backend is compiled in, and the usable CUDA devices.");

  m.def(
      "lattice",
      [](const std::string& name) {
        s::LatticeInfo l = s::lattice_info(name);
        py::dict d;
        d["name"] = l.name;
        d["d"] = l.d;
        d["q"] = l.q;
        d["c"] = to_numpy(std::move(l.c), {py::ssize_t(l.q), 3});
        d["w"] = to_numpy(std::move(l.w), {py::ssize_t(l.q)});
        return d;
      },
      py::arg("name") = "D2Q9",
      "A velocity set as the kernels use it: {'name', 'd', 'q', 'c': int array (q, 3), 'w': float64 array (q,)}. "
      "Directions come in opposite pairs: 0 is rest, (2k-1, 2k) are opposites.");

  m.def("device_copy_bandwidth", &s::device_copy_bandwidth, py::arg("bytes") = std::size_t(1) << 30,
        py::arg("repeats") = 10, py::call_guard<py::gil_scoped_release>(),
        "Device-to-device copy bandwidth in GB/s (bytes read + written), median of `repeats` cudaMemcpy copies "
        "timed with CUDA events, as `aerolbm bench` measures it; 0.0 without CUDA.");
  m.def("host_copy_bandwidth", &s::host_copy_bandwidth, py::arg("bytes") = std::size_t(1) << 28,
        py::arg("repeats") = 10, py::arg("threads") = 0, py::call_guard<py::gil_scoped_release>(),
        "Host memcpy bandwidth in GB/s (bytes read + written) over `threads` OpenMP threads (0: the default).");

  // ---- Case ------------------------------------------------------------------------------------------------------
  py::class_<s::Case>(m, "Case",
                      "A validated case (use aerolbm.load_case). Immutable; the lattice units are those `aerolbm "
                      "check` prints.")
      .def_static("_from_file", &s::Case::from_file, py::arg("file"), py::arg("overrides"))
      .def_static("_from_text", &s::Case::from_text, py::arg("text"), py::arg("label"), py::arg("base_dir"),
                  py::arg("overrides"))
      .def_property_readonly("name", &s::Case::name, "case.name (the run folder's default name)")
      .def_property_readonly("source", &s::Case::source, "The case file it was read from")
      .def_property_readonly("yaml", &s::Case::yaml, "The case as run, after overrides (RUN/case.yaml)")
      .def_property_readonly("lattice", &s::Case::lattice, "D2Q9, D3Q19 or D3Q27")
      .def_property_readonly("lattice_units", &s::Case::lattice_units,
                             "Lattice units: tau, u_lattice, nu_lattice, dx, dt, nx, ny, nz, total_steps, ...")
      .def("describe", &s::Case::describe, "The lattice-unit summary `aerolbm run` and `aerolbm check` print")
      .def("__repr__", [](const s::Case& c) {
        const auto u = c.lattice_units();
        return "<aerolbm.Case " + c.name() + ": " + c.lattice() + " " + std::to_string(std::int64_t(u.at("nx"))) +
               " x " + std::to_string(std::int64_t(u.at("ny"))) + " x " + std::to_string(std::int64_t(u.at("nz"))) +
               ", " + std::to_string(std::int64_t(u.at("total_steps"))) + " steps>";
      });

  // ---- DeviceArray -----------------------------------------------------------------------------------------------
  py::class_<DeviceArray>(m, "DeviceArray",
                          "A float32 field in the CUDA backend's device memory, exported without a copy through "
                          "DLPack (torch.from_dlpack, cupy.from_dlpack, jax.dlpack.from_dlpack) and "
                          "__cuda_array_interface__ (CuPy, Numba). It views the simulation's own buffer: the next "
                          "device_fields(), density(), velocity() or fields() call overwrites it in place, so clone "
                          "what you keep.")
      .def_property_readonly("shape", [](const DeviceArray& a) { return shape_tuple(a.shape); })
      .def_property_readonly("dtype", [](const DeviceArray&) { return "float32"; })
      .def_property_readonly("ptr", [](const DeviceArray& a) { return a.ptr; }, "The device address")
      .def_property_readonly("device", [](const DeviceArray& a) { return a.device; }, "CUDA device ordinal")
      .def(
          "__dlpack__",
          [](const DeviceArray& a, py::object /*stream*/, py::object /*max_version*/, py::object dl_device,
             py::object copy) {
            // The values are complete on every stream when device_fields() returns (it waits for its kernel), so
            // no stream needs to wait: `stream` is accepted and ignored.
            if (!copy.is_none() && copy.cast<bool>())
              throw py::buffer_error("aerolbm.DeviceArray exports its memory without a copy only (copy=True asked)");
            if (!dl_device.is_none()) {
              auto d = dl_device.cast<std::pair<int, int>>();
              if (d.first != aerolbm::dlpack::kCUDA || d.second != a.device)
                throw py::buffer_error("aerolbm.DeviceArray lives on CUDA device " + std::to_string(a.device));
            }
            return to_dlpack(a);
          },
          py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
          py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
          "A DLPack capsule of the device memory (no copy).")
      .def("__dlpack_device__",
           [](const DeviceArray& a) { return py::make_tuple(int(aerolbm::dlpack::kCUDA), a.device); })
      .def_property_readonly(
          "__cuda_array_interface__",
          [](const DeviceArray& a) {
            py::dict d;
            d["shape"] = shape_tuple(a.shape);
            d["typestr"] = "<f4";
            d["data"] = py::make_tuple(a.ptr, false);
            d["strides"] = py::none();
            d["version"] = 3;
            d["stream"] = py::none();  // complete already: no synchronisation needed
            return d;
          })
      .def("__repr__", [](const DeviceArray& a) {
        std::string shape;
        for (auto n : a.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(n);
        return "<aerolbm.DeviceArray float32 (" + shape + ") on cuda:" + std::to_string(a.device) + ">";
      });

  // ---- Simulation ------------------------------------------------------------------------------------------------
  py::class_<s::Simulation>(m, "Simulation",
                            "One simulation of a case on the CPU or the GPU: step it (step), read its forces and "
                            "fields, or run it into a run folder as `aerolbm run` does (run).")
      .def(py::init([](py::object case_, const std::string& backend, int threads, std::int64_t steps,
                       bool progress) {
             // A path or a dict is loaded as aerolbm.load_case would.
             if (!py::isinstance<s::Case>(case_)) case_ = py::module_::import("aerolbm").attr("load_case")(case_);
             const s::Case c = case_.cast<s::Case>();
             s::SimulationOptions o;
             o.backend = backend;
             o.threads = threads;
             o.steps = steps;
             o.progress = progress;
             py::gil_scoped_release release;
             return new s::Simulation(c, o);
           }),
           py::arg("case"), py::arg("backend") = "auto", py::kw_only(), py::arg("threads") = 0,
           py::arg("steps") = 0, py::arg("progress") = false,
           "case: an aerolbm.Case, a case file or a dict (aerolbm.load_case). backend: auto (the GPU when there "
           "is one) | cpu | cuda. threads: CPU threads (0: all). steps: > 0 sets the run length as --steps does. "
           "progress: run() shows the command line's progress display.")
      .def_property_readonly("backend", &s::Simulation::backend, "cpu or cuda")
      .def_property_readonly("device", &s::Simulation::device)
      .def_property_readonly("kernel", &s::Simulation::kernel)
      .def_property_readonly("lattice", &s::Simulation::lattice)
      .def_property_readonly(
          "grid",
          [](const s::Simulation& sim) {
            const auto n = sim.grid();
            return py::make_tuple(n[0], n[1], n[2]);
          },
          "(nx, ny, nz) in cells")
      .def_property_readonly(
          "shape",
          [](const s::Simulation& sim) {
            py::tuple t = py::cast(field_shape(sim.grid(), is_3d(sim), 1));
            return t;
          },
          "The NumPy shape of a scalar field: (ny, nx) in 2D, (nz, ny, nx) in 3D")
      .def_property_readonly("steps_done", &s::Simulation::step, "Steps done so far")
      .def_property_readonly("total_steps", &s::Simulation::total_steps, "The case's run length in steps")
      .def_property_readonly("dt", &s::Simulation::dt, "One step in convective times (L/U)")
      .def_property_readonly("time", [](const s::Simulation& sim) { return double(sim.step()) * sim.dt(); },
                             "Convective times simulated so far")
      .def(
          "step",
          [](s::Simulation& sim, std::int64_t n) {
            if (n < 0) throw py::value_error("step(n): n must be >= 0, got " + std::to_string(n));
            SignalCheck check;
            std::int64_t done = 0;
            {
              py::gil_scoped_release release;
              done = sim.advance(n, [&check] { return check(); });
            }
            if (check.raised) throw py::error_already_set();
            return done;
          },
          py::arg("n") = 1,
          "Advances n steps (GIL released): force samples every forces.every steps into force_history(), the "
          "divergence watchdog every watchdog.every steps (RunError with the command line's message). Ctrl-C "
          "stops between chunks of at most watchdog.every steps (KeyboardInterrupt; the state stays consistent "
          "and stepping may go on). Returns the steps done.")
      .def(
          "run",
          [](s::Simulation& sim, py::object output, bool overwrite, bool ignore_resources) {
            const std::string out = output.is_none() ? std::string() : py::str(output).cast<std::string>();
            SignalCheck check;
            s::RunSummary r;
            {
              py::gil_scoped_release release;
              r = sim.run(out, overwrite, ignore_resources, [&check] { return check() ? SIGINT : 0; });
            }
            if (check.raised) throw py::error_already_set();
            py::dict d;
            d["output"] = r.output;
            d["status"] = r.stopped_by_signal ? "stopped" : "complete";
            d["backend"] = r.backend;
            d["device"] = r.device;
            d["kernel"] = r.kernel;
            d["steps"] = r.steps;
            d["wall_time_s"] = r.wall_seconds;
            d["mlups"] = r.mlups;
            d["cd_mean"] = r.cd_mean;
            d["cl_mean"] = r.cl_mean;
            d["cd_final"] = r.cd_final;
            d["cl_final"] = r.cl_final;
            d["strouhal"] = r.has_strouhal ? py::object(py::float_(r.strouhal)) : py::object(py::none());
            d["frames"] = r.frames;
            d["checkpoint_step"] = r.checkpoint_step >= 0 ? py::object(py::int_(r.checkpoint_step)) : py::none();
            return d;
          },
          py::arg("output") = py::none(), py::kw_only(), py::arg("overwrite") = false,
          py::arg("ignore_resources") = false,
          "The whole case into a run folder, as `aerolbm run` writes it (output default runs/<case name>; the "
          "same checks: InputError for a folder that holds a run unless overwrite, or too little disk unless "
          "ignore_resources). Only on a simulation not yet stepped. GIL released; Ctrl-C stops it after writing a "
          "checkpoint, as the command line does, and raises KeyboardInterrupt. Returns summary.json's figures.")
      .def("timed_steps", &s::Simulation::timed_steps, py::arg("n"), py::call_guard<py::gil_scoped_release>(),
           "n bare steps (no force samples, no watchdog) timed on the device (CUDA events; the CPU: wall clock); "
           "returns seconds. For benchmarks.")
      .def(
          "forces",
          [](s::Simulation& sim) {
            s::Forces f;
            {
              py::gil_scoped_release release;
              f = sim.forces();
            }
            py::dict d;
            d["step"] = f.step;
            d["time"] = f.time;
            d["cd"] = f.cd;
            d["cl"] = f.cl;
            d["cs"] = f.cs;
            return d;
          },
          "The force coefficients now (momentum exchange): {'step', 'time', 'cd', 'cl', 'cs'}.")
      .def(
          "force_history",
          [](const s::Simulation& sim) {
            s::History h = sim.history();
            py::dict d;
            const py::ssize_t n = py::ssize_t(h.step.size());
            d["step"] = to_numpy(std::move(h.step), {n});
            d["time"] = to_numpy(std::move(h.time), {n});
            d["cd"] = to_numpy(std::move(h.cd), {n});
            d["cl"] = to_numpy(std::move(h.cl), {n});
            d["cs"] = to_numpy(std::move(h.cs), {n});
            return d;
          },
          "Every force sample so far (forces.csv's rows): arrays 'step', 'time', 'cd', 'cl', 'cs'.")
      .def(
          "density",
          [](s::Simulation& sim) {
            std::vector<float> rho, u;
            {
              py::gil_scoped_release release;
              sim.macroscopic(rho, u);
            }
            return to_numpy(std::move(rho), field_shape(sim.grid(), is_3d(sim), 1));
          },
          "Density now, lattice units (float32, shape .shape).")
      .def(
          "velocity",
          [](s::Simulation& sim) {
            std::vector<float> rho, u;
            {
              py::gil_scoped_release release;
              sim.macroscopic(rho, u);
            }
            return to_numpy(std::move(u), field_shape(sim.grid(), is_3d(sim), 3));
          },
          "Velocity now, lattice units (float32, shape .shape + (3,); w = 0 in 2D).")
      .def(
          "fields",
          [](s::Simulation& sim, std::vector<std::string> names) {
            std::map<std::string, s::Field> f;
            {
              py::gil_scoped_release release;
              f = sim.frame(names);
            }
            return fields_dict(std::move(f), sim.grid(), is_3d(sim));
          },
          py::arg("names") = std::vector<std::string>{},
          "The output fields now in free-stream units, as the run folder's files hold them: velocity (u/U), "
          "pressure (Cp), density, vorticity (omega L/U), q_criterion, mask (uint8, 1 = solid). names: those "
          "wanted (default: the case's output.fields).")
      .def(
          "populations",
          [](s::Simulation& sim) {
            std::vector<double> f;
            {
              py::gil_scoped_release release;
              sim.read_populations(f);
            }
            const s::LatticeInfo l = s::lattice_info(sim.lattice());
            std::vector<py::ssize_t> shape = field_shape(sim.grid(), is_3d(sim), 1);
            shape.insert(shape.begin(), l.q);
            return to_numpy(std::move(f), shape);
          },
          "The state: populations minus their weights (f - w), float64, shape (Q,) + .shape, as checkpoints "
          "hold it.")
      .def(
          "set_populations",
          [](s::Simulation& sim, py::array_t<double, py::array::c_style | py::array::forcecast> f) {
            std::vector<double> v(f.data(), f.data() + f.size());
            py::gil_scoped_release release;
            sim.write_populations(v);
          },
          py::arg("f"), "Replaces the state with f - w (as populations() returns it; stored in the case's precision).")
      .def(
          "device_fields",
          [](py::object self) {
            s::Simulation& sim = self.cast<s::Simulation&>();
            s::DeviceFields f;
            {
              py::gil_scoped_release release;
              f = sim.device_fields();
            }
            const auto scalar = field_shape(sim.grid(), is_3d(sim), 1);
            const auto vector = field_shape(sim.grid(), is_3d(sim), 3);
            DeviceArray rho{self, f.density, std::vector<std::int64_t>(scalar.begin(), scalar.end()), f.device};
            DeviceArray u{self, f.velocity, std::vector<std::int64_t>(vector.begin(), vector.end()), f.device};
            py::dict d;
            d["density"] = py::cast(std::move(rho));
            d["velocity"] = py::cast(std::move(u));
            return d;
          },
          "CUDA backend: density and velocity (lattice units) computed on the device into the simulation's own "
          "device memory, as {'density': DeviceArray, 'velocity': DeviceArray}, exported without a copy "
          "(torch.from_dlpack(...), cupy.asarray(...)). InputError on the CPU backend.")
      .def("__repr__", [](const s::Simulation& sim) {
        const auto n = sim.grid();
        return "<aerolbm.Simulation " + sim.lattice() + " " + std::to_string(n[0]) + " x " + std::to_string(n[1]) +
               " x " + std::to_string(n[2]) + " on " + sim.backend() + ", step " + std::to_string(sim.step()) + " of " +
               std::to_string(sim.total_steps()) + ">";
      });

  // ---- compare and predict (aerolbm/__init__.py wraps these) -------------------------------------------------------
  m.def(
      "_compare",
      [](std::vector<std::string> inputs, std::string output, double field_tol, double force_tol,
         double strouhal_tol, double fail_above, bool plots, std::int64_t steps, int threads,
         std::vector<std::string> sets, const s::Case* given) {
        s::CompareOptions o;
        o.inputs = std::move(inputs);
        o.output = std::move(output);
        o.field_tol = field_tol;
        o.force_tol = force_tol;
        o.strouhal_tol = strouhal_tol;
        o.fail_above = fail_above;
        o.plots = plots;
        o.steps = steps;
        o.threads = threads;
        o.sets = std::move(sets);
        py::gil_scoped_release release;
        return s::compare(o, given);
      },
      py::arg("inputs"), py::arg("output"), py::arg("field_tol"), py::arg("force_tol"), py::arg("strouhal_tol"),
      py::arg("fail_above"), py::arg("plots"), py::arg("steps"), py::arg("threads"), py::arg("sets"),
      py::arg("case").none(true));
  m.def(
      "_predict",
      [](const s::Case& c, std::string model, std::string backend, std::string output, int repeats, bool overwrite) {
        s::PredictOptions o;
        o.model = std::move(model);
        o.backend = std::move(backend);
        o.output = std::move(output);
        o.repeats = repeats;
        o.overwrite = overwrite;
        s::Prediction p;
        {
          py::gil_scoped_release release;
          p = s::predict(c, o);
        }
        py::dict d;
        d["output"] = p.output;
        d["backend"] = p.backend;
        d["device"] = p.device;
        d["inference_time_s"] = p.seconds;
        d["first_pass_s"] = p.first_seconds;
        d["wall_time_s"] = p.wall_seconds;
        d["cl"] = p.cl;
        d["cd"] = p.cd;
        d["cl_field"] = p.cl_field;
        d["cd_field"] = p.cd_field;
        d["coefficients_source"] = p.coefficients_source;
        d["grid"] = py::make_tuple(p.grid[0], p.grid[1], p.grid[2]);
        d["origin"] = py::make_tuple(p.origin[0], p.origin[1], p.origin[2]);
        d["spacing"] = py::make_tuple(p.spacing[0], p.spacing[1], p.spacing[2]);
        d["fields"] = fields_dict(std::move(p.fields), p.grid, false);
        return d;
      },
      py::arg("case"), py::arg("model"), py::arg("backend"), py::arg("output"), py::arg("repeats"),
      py::arg("overwrite"));
}
