#include "src/surrogate/prediction.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "kernels/backend.hpp"
#include "src/io/atomic_file.hpp"
#include "src/io/field_writer.hpp"
#include "src/io/json.hpp"
#include "src/solver/backend_select.hpp"
#include "src/surrogate/airfoil_inputs.hpp"
#include "src/surrogate/cpu_inference.hpp"
#include "src/surrogate/cuda_inference.hpp"

namespace aerolbm::surrogate {

namespace {

// A prediction of case `c` with its inputs filled in (sample grid, outline, point features, parameters).
Prediction prediction_inputs(const Case& c, const Model& m) {
  Prediction p;
  p.grid = m.grid;
  p.outline = case_outline(c);
  p.points = point_features(m.grid, p.outline);
  p.params = case_params(c);
  return p;
}

// The network's outputs into the prediction: fields, and the coefficient head's C_L, C_D when there are some.
void take_outputs(NetworkOutput&& y, Prediction& p) {
  p.output = std::move(y.fields);
  if (y.coefficients) {
    std::array<double, kCoefficients> h;
    for (int i = 0; i < kCoefficients; ++i) h[std::size_t(i)] = (*y.coefficients)[std::size_t(i)];
    p.head = h;
  }
}

std::array<float, kParamFeatures> float_params(const Prediction& p) {
  std::array<float, kParamFeatures> params{};
  for (int f = 0; f < kParamFeatures; ++f) params[f] = float(p.params[f]);
  return params;
}

// C_L and C_D from the predicted field (p.output set).
void field_coefficients(const Case& c, const Model& m, Prediction& p) {
  const std::size_t T = std::size_t(m.grid.points());
  std::vector<std::uint8_t> mask(T);
  for (std::size_t t = 0; t < T; ++t) mask[t] = p.points[t * kPointFeatures + 3] > 0.5f ? 1 : 0;
  p.coefficients = coefficients_from_field(m.grid, p.output.data(), p.output.data() + 1, p.output.data() + 2,
                                           kOutputs, mask.data(), case_outline(c, kSurfacePointsPerSide),
                                           c.reynolds);
}

// One prediction of case `c` on the CPU.
Prediction predict_on_cpu(const Case& c, const Model& m) {
  const auto t0 = std::chrono::steady_clock::now();
  Prediction p = prediction_inputs(c, m);
  const auto a = std::chrono::steady_clock::now();
  take_outputs(forward_cpu(m, p.points, float_params(p)), p);
  p.seconds = p.first_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
  p.backend = "cpu";
  p.device = "host CPU (OpenMP)";
  field_coefficients(c, m, p);
  p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return p;
}

// The cases `cases` on CUDA, in batched passes of up to kPolarBatch (one case: a pass of its own): each
// prediction's times are its share of its pass's (the pass's time over the cases in it).
std::vector<Prediction> predict_batched(const std::vector<Case>& cases, const Model& m, CudaSurrogate& s,
                                        int repeats) {
  std::vector<Prediction> out;
  for (std::size_t first = 0; first < cases.size(); first += kPolarBatch) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t n = std::min(cases.size() - first, kPolarBatch);
    std::vector<Prediction> part;
    std::vector<std::vector<float>> points;
    std::vector<std::array<float, kParamFeatures>> params;
    for (std::size_t i = 0; i < n; ++i) {
      part.push_back(prediction_inputs(cases[first + i], m));
      points.push_back(part.back().points);
      params.push_back(float_params(part.back()));
    }
    CudaTiming t;
    std::vector<NetworkOutput> y = forward_cuda_batch(s, m, points, params, std::max(1, repeats), &t);
    for (std::size_t i = 0; i < n; ++i) {
      Prediction& p = part[i];
      take_outputs(std::move(y[i]), p);
      p.backend = "cuda";
      p.device = s.device();
      p.batch = int(n);
      p.seconds = t.median_seconds / double(n);
      p.first_seconds = t.first_seconds / double(n);
      field_coefficients(cases[first + i], m, p);
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (Prediction& p : part) {
      p.wall_seconds = wall / double(n);
      out.push_back(std::move(p));
    }
  }
  return out;
}

const char* const kFieldMethod = "from the predicted field: surface pressure + one-sided wall shear "
                                 "(postprocess/surrogate/SCHEMA.md, 'Cl and Cd from a field')";

// Where the reported cl, cd come from: "network" (the coefficient head) or "field" (a version-1 model).
std::string coefficient_source(const Prediction& p) { return p.head ? "network" : "field"; }
std::string coefficient_method(const Prediction& p) {
  return p.head ? "the network's coefficient head, trained on the solver's momentum-exchange C_L, C_D "
                  "(postprocess/surrogate/SCHEMA.md, version 2); cl_field, cd_field: " +
                      std::string(kFieldMethod)
                : std::string(kFieldMethod) + " (the model, version 1, has no coefficient head)";
}

std::unique_ptr<CudaSurrogate> surrogate_for(const Model& m, BackendKind backend) {
  return resolve_backend(backend) == BackendKind::Cuda ? make_cuda_surrogate(m) : nullptr;
}

}  // namespace

Prediction predict_case(const Case& c, const Model& m, BackendKind backend, int repeats) {
  const auto s = surrogate_for(m, backend);
  return s ? predict_batched({c}, m, *s, repeats).front() : predict_on_cpu(c, m);
}

std::vector<std::pair<double, Prediction>> predict_polar(const Case& c, const Model& m, BackendKind backend,
                                                         const std::vector<double>& alphas, int repeats) {
  const auto s = surrogate_for(m, backend);
  std::vector<Case> cases;
  for (const double a : alphas) {
    cases.push_back(c);
    cases.back().angle_of_attack_deg = a;
  }
  std::vector<std::pair<double, Prediction>> out;
  out.reserve(alphas.size());
  if (s) {
    std::vector<Prediction> p = predict_batched(cases, m, *s, repeats);
    for (std::size_t i = 0; i < alphas.size(); ++i) out.emplace_back(alphas[i], std::move(p[i]));
  } else {
    for (std::size_t i = 0; i < alphas.size(); ++i) out.emplace_back(alphas[i], predict_on_cpu(cases[i], m));
  }
  return out;
}

GridInfo prediction_grid(const SampleGrid& g) {
  GridInfo gi;
  gi.nx = g.nx;
  gi.ny = g.ny;
  gi.nz = 1;
  gi.origin = {g.x0, g.y0, 0.0};
  gi.spacing = {g.dx(), g.dy(), std::min(g.dx(), g.dy())};
  return gi;
}

Frame prediction_frame(const Prediction& p) {
  const SampleGrid& g = p.grid;
  const std::size_t T = std::size_t(g.points());
  Frame f;
  f.velocity.resize(3 * T);
  f.pressure.resize(T);
  f.mask.resize(T);
  for (std::size_t t = 0; t < T; ++t) {
    const bool solid = p.points[t * kPointFeatures + 3] > 0.5f;
    f.mask[t] = solid ? 1 : 0;
    // As in a run's frames: no velocity inside the body. Cp stays as predicted there (a run writes 0).
    f.velocity[3 * t + 0] = solid ? 0.0f : p.output[t * kOutputs + 0];
    f.velocity[3 * t + 1] = solid ? 0.0f : p.output[t * kOutputs + 1];
    f.velocity[3 * t + 2] = 0.0f;
    f.pressure[t] = solid ? 0.0f : p.output[t * kOutputs + 2];
  }
  // Vorticity ω·L/U = ∂v/∂x − ∂u/∂y: central differences between fluid points, one-sided next to the body and
  // the grid's edges (as frame_builder does for a run).
  f.vorticity.assign(T, 0.0f);
  f.vorticity_components = 1;
  const auto solid = [&](int i, int j) { return f.mask[std::size_t(j) * g.nx + i] != 0; };
  const auto d = [&](int i, int j, int comp, int axis) -> double {
    const int di = axis == 0, dj = axis == 1;
    const double h = axis == 0 ? g.dx() : g.dy();
    const auto val = [&](int a, int b) { return double(f.velocity[3 * (std::size_t(b) * g.nx + a) + comp]); };
    const bool lo = (axis == 0 ? i > 0 : j > 0) && !solid(i - di, j - dj);
    const bool hi = (axis == 0 ? i + 1 < g.nx : j + 1 < g.ny) && !solid(i + di, j + dj);
    if (lo && hi) return (val(i + di, j + dj) - val(i - di, j - dj)) / (2 * h);
    if (hi) return (val(i + di, j + dj) - val(i, j)) / h;
    if (lo) return (val(i, j) - val(i - di, j - dj)) / h;
    return 0.0;
  };
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i)
      if (!solid(i, j)) f.vorticity[std::size_t(j) * g.nx + i] = float(d(i, j, 1, 0) - d(i, j, 0, 1));
  return f;
}

void write_prediction(const std::filesystem::path& dir, const Case& c, const std::filesystem::path& model_file,
                      const Prediction& p) {
  write_file_atomically(dir / "case.yaml", c.yaml_text + "\n");
  Attributes attrs;
  attrs.numbers = {{"reynolds", c.reynolds}, {"mach", c.mach}, {"angle_of_attack_deg", c.angle_of_attack_deg}};
  attrs.strings = {{"case", c.name},
                   {"source", "surrogate prediction (aerolbm predict)"},
                   {"model", model_file.string()},
                   {"length_unit", "reference length (chord or diameter)"},
                   {"time_unit", "convective time L/U"}};
  const GridInfo grid = prediction_grid(p.grid);
  Frame frame = prediction_frame(p);
  for (const auto& fmt : c.formats) {
    if (fmt == "hdf5") make_hdf5_writer(dir, grid, attrs)->write(frame);
    if (fmt == "vtk") make_vtk_writer(dir, grid, attrs)->write(frame);
  }

  Json s = Json::object();
  s.set("case", c.name);
  s.set("description", c.description);
  s.set("status", "complete");
  s.set("kind", "prediction");
  s.set("backend", p.backend);
  s.set("device", p.device);
  s.set("model", std::filesystem::absolute(model_file).string());
  Json g = Json::object();
  g.set("nx", p.grid.nx);
  g.set("ny", p.grid.ny);
  g.set("nz", 1);
  g.set("cells", p.grid.points());
  g.set("x", Json(Json::Array{Json(p.grid.x0), Json(p.grid.x1)}));
  g.set("y", Json(Json::Array{Json(p.grid.y0), Json(p.grid.y1)}));
  s.set("grid", g);
  Json params = Json::object();
  const char* names[kParamFeatures] = {"camber", "camber_position", "thickness", "aoa_deg", "reynolds"};
  for (int f = 0; f < kParamFeatures; ++f) params.set(names[f], p.params[f]);
  s.set("parameters", params);
  s.set("reynolds", c.reynolds);
  s.set("mach", c.mach);
  s.set("angle_of_attack_deg", c.angle_of_attack_deg);
  s.set("steps", 0);
  s.set("frames", 1);
  s.set("inference_time_s", p.seconds);
  s.set("inference_first_pass_s", p.first_seconds);
  s.set("wall_time_s", p.wall_seconds);
  Json co = Json::object();
  co.set("source", coefficient_source(p));
  co.set("method", coefficient_method(p));
  co.set("cd_mean", p.cd());
  co.set("cl_mean", p.cl());
  co.set("cd_final", p.cd());
  co.set("cl_final", p.cl());
  // The pitching moment about the quarter chord (nose-up positive), as `aerolbm run` names it; null where the
  // model's head does not predict it.
  co.set("cpitch_mean", p.cm() ? Json(*p.cm()) : Json(nullptr));
  co.set("cd_field", p.coefficients.cd);
  co.set("cl_field", p.coefficients.cl);
  co.set("cd_pressure", p.coefficients.cd_p);
  co.set("cl_pressure", p.coefficients.cl_p);
  co.set("field_method", kFieldMethod);
  co.set("strouhal", nullptr);
  s.set("coefficients", co);
  write_json_atomically(dir / "summary.json", s);
}

void write_polar(const std::filesystem::path& dir, const Case& c, const std::filesystem::path& model_file,
                 const std::vector<std::pair<double, Prediction>>& polar) {
  // cm: the head's pitching moment about the quarter chord, a column only when the model predicts it.
  const bool cm = !polar.empty() && polar.front().second.cm().has_value();
  std::string csv = std::string("alpha_deg,cl,cd,") + (cm ? "cm," : "") +
                    "cl_field,cd_field,cl_pressure,cd_pressure,inference_s\n";
  double inference = 0;
  for (const auto& [a, p] : polar) {
    csv += fmt::format("{:.6g},{:.8g},{:.8g},", a, p.cl(), p.cd());
    if (cm) csv += fmt::format("{:.8g},", p.cm().value_or(std::nan("")));
    csv += fmt::format("{:.8g},{:.8g},{:.8g},{:.8g},{:.6g}\n", p.coefficients.cl, p.coefficients.cd,
                       p.coefficients.cl_p, p.coefficients.cd_p, p.seconds);
    inference += p.seconds;
  }
  write_file_atomically(dir / "polar.csv", csv);
  write_file_atomically(dir / "case.yaml", c.yaml_text + "\n");
  Json s = Json::object();
  s.set("case", c.name);
  s.set("description", c.description);
  s.set("status", "complete");
  s.set("kind", "polar prediction");
  s.set("backend", polar.empty() ? std::string() : polar.front().second.backend);
  s.set("device", polar.empty() ? std::string() : polar.front().second.device);
  s.set("model", std::filesystem::absolute(model_file).string());
  s.set("reynolds", c.reynolds);
  s.set("mach", c.mach);
  s.set("angles", int(polar.size()));
  // CUDA: the angles go through the network together, up to kPolarBatch per pass.
  s.set("batch", polar.empty() ? 1 : polar.front().second.batch);
  s.set("inference_time_s", inference);
  s.set("coefficients_source", polar.empty() ? std::string("field") : coefficient_source(polar.front().second));
  s.set("coefficients_method", polar.empty() ? std::string(kFieldMethod) : coefficient_method(polar.front().second));
  s.set("field_method", kFieldMethod);
  write_json_atomically(dir / "summary.json", s);
}

}  // namespace aerolbm::surrogate
