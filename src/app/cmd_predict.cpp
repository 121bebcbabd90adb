// aerolbm predict: a trained surrogate's flow field for a case, written as a run folder.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>
#include <iostream>

#include "src/app/commands.hpp"
#include "src/app/entry_points.hpp"
#include "src/app/run_folder.hpp"
#include "src/solver/backend_select.hpp"
#include "src/surrogate/model_file.hpp"
#include "src/surrogate/prediction.hpp"

namespace aerolbm::app {
namespace fs = std::filesystem;

namespace {

void check_writable(const fs::path& dir) {
  fs::path p = fs::absolute(dir);
  std::error_code ec;
  if (fs::exists(p, ec) && !fs::is_directory(p, ec))
    throw CaseError("--out " + dir.string() + ": exists and is not a directory. Choose another --out.");
  while (!fs::exists(p, ec)) p = p.parent_path();
  if (!fs::is_directory(p, ec) || access(p.c_str(), W_OK | X_OK) != 0)
    throw CaseError("--out " + dir.string() + ": " + p.string() + " is not writable. Choose a writable --out folder.");
}

// --polar FROM:TO:STEP (degrees): the angles FROM, FROM + STEP, ... up to TO (included when a step lands on it,
// to a millionth of the step).
std::vector<double> polar_angles(const std::string& spec) {
  const auto bad = [&](const std::string& why) {
    return CaseError("--polar " + spec + ": " + why +
                     ". Expected FROM:TO:STEP in degrees, FROM <= TO, STEP > 0, within -90..90 (e.g. -4:12:0.5).");
  };
  double v[3];
  std::size_t pos = 0;
  for (int k = 0; k < 3; ++k) {
    const std::size_t end = k < 2 ? spec.find(':', pos) : spec.size();
    if (end == std::string::npos) throw bad("three numbers separated by ':' are needed");
    const std::string part = spec.substr(pos, end - pos);
    try {
      std::size_t used = 0;
      v[k] = std::stod(part, &used);
      if (used != part.size()) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      throw bad("'" + part + "' is not a number");
    }
    pos = end + 1;
  }
  if (!(v[2] > 0)) throw bad("the step must be positive");
  if (!(v[0] <= v[1])) throw bad("FROM is above TO");
  if (v[0] < -90 || v[1] > 90) throw bad("the angles leave -90..90");
  const double n = std::floor((v[1] - v[0]) / v[2] + 1e-6);
  if (n >= 10000) throw bad("more than 10,000 angles");
  std::vector<double> a;
  for (int i = 0; i <= int(n); ++i) a.push_back(v[0] + i * v[2]);
  return a;
}

}  // namespace

int predict(const Case& c, const PredictArgs& a, surrogate::Prediction* prediction, fs::path* folder) {
  const std::vector<double> angles = a.polar.empty() ? std::vector<double>{} : polar_angles(a.polar);
  const surrogate::Model m = surrogate::load_model(a.model);
  const BackendKind backend = parse_backend(a.backend);
  require_backend(backend);
  const fs::path out = a.output.empty() ? fs::path("runs") / (c.name + "_predicted") : fs::path(a.output);
  check_writable(out);
  if (!a.overwrite) {
    const auto found = run_outputs_in(out);
    if (!found.empty()) {
      std::string list;
      for (const auto& f : found) list += (list.empty() ? "" : ", ") + f;
      throw CaseError("--out " + out.string() + " already holds a run (" + list +
                      "). Use --overwrite to replace it, or choose another --out.");
    }
  }
  spdlog::info("model {} (version {}): d_model {}, {} heads, {} layers, sample grid {} x {} ({} tokens), {}", a.model,
               m.version, m.d_model, m.heads, m.layers, m.grid.nx, m.grid.ny, m.grid.points(),
               m.coef ? fmt::format("{} head with {} pooling heads", m.coef->outputs == 3 ? "C_L, C_D, C_M" : "C_L, C_D",
                                    m.coef->pool_heads)
                      : std::string("no C_L, C_D head (C_L, C_D from the field)"));
  if (!angles.empty()) {
    const auto polar = surrogate::predict_polar(c, m, backend, angles, a.repeats);
    fs::create_directories(out);
    RunFolderLock lock(out);
    if (a.overwrite) remove_run_outputs(out);
    surrogate::write_polar(out, c, a.model, polar);
    double inference = 0;
    for (const auto& [alpha, p] : polar) inference += p.seconds;
    spdlog::info("predicted {} angles from {:g} to {:g} degrees on {} ({}): inference {:.3g} s in all", polar.size(),
                 angles.front(), angles.back(), polar.front().second.backend, polar.front().second.device, inference);
    spdlog::info("wrote {}/polar.csv, summary.json, case.yaml (plot: postprocess/plot_polar.py {})", out.string(),
                 out.string());
    if (folder) *folder = out;
    return kOk;
  }
  const surrogate::Prediction p = surrogate::predict_case(c, m, backend, a.repeats);
  fs::create_directories(out);
  RunFolderLock lock(out);
  if (a.overwrite) remove_run_outputs(out);
  surrogate::write_prediction(out, c, a.model, p);
  spdlog::info("predicted on {} ({}): inference {:.3g} s{}; {}", p.backend, p.device, p.seconds,
               p.backend == "cuda" ? fmt::format(" (median of {} device-timed passes; first {:.3g} s)", a.repeats,
                                                 p.first_seconds)
                                   : std::string(),
               p.head ? fmt::format("Cl {:.4f}, Cd {:.4f}{} (the network's coefficient head; from the field {:.4f}, "
                                    "{:.4f})",
                                    p.cl(), p.cd(), p.cm() ? fmt::format(", Cm {:.4f}", *p.cm()) : std::string(),
                                    p.coefficients.cl, p.coefficients.cd)
                      : fmt::format("Cl {:.4f}, Cd {:.4f} (from the field: the model, version 1, has no "
                                    "coefficient head)",
                                    p.coefficients.cl, p.coefficients.cd));
  spdlog::info("wrote {}/summary.json, case.yaml, fields (.h5/.xdmf, .pvd/.vti)", out.string());
  if (folder) *folder = out;
  if (prediction) *prediction = p;
  return kOk;
}

void add_predict_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("predict", "Predict a case's flow field with a trained surrogate model");
  auto a = std::make_shared<PredictArgs>();
  cmd->add_option("case", a->file, "Case file (YAML, geometry.type naca4)")->required();
  cmd->add_option("--model", a->model, "Model file (model.h5 from postprocess/surrogate/export.py)")->required();
  cmd->add_option("--backend", a->backend, "auto (GPU when present) | cpu | cuda")
      ->check(CLI::IsMember(enum_names(kBackendNames)));
  cmd->add_option("--out,--output,-o", a->output, "Output folder (default: runs/<case name>_predicted)");
  cmd->add_option("--set", a->sets, "Override a case key: key.path=value (repeatable)");
  cmd->add_option("--repeats", a->repeats, "CUDA: timed passes after the first (median reported)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--polar", a->polar,
                  "FROM:TO:STEP (degrees): predict the polar at these angles of attack into polar.csv instead of "
                  "one field");
  cmd->add_flag("--overwrite", a->overwrite, "Replace the outputs already in the output folder");
  cmd->callback([&status, a]() {
    status = exit_status("predict", [&] { return predict(load_case(a->file, a->sets), *a); });
  });
}

}  // namespace aerolbm::app
