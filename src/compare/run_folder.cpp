#include "src/compare/run_folder.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "src/compare/input_error.hpp"
#include "src/io/hdf5_reader.hpp"

namespace aerolbm {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void bad(const fs::path& file, const std::string& what, const std::string& todo) {
  throw CompareInputError(file.string() + ": " + what + ". " + todo);
}

const char* kRerun = "Rerun the case with aerolbm run to get a complete run folder.";

// summary.json is JSON, which YAML 1.2 reads as flow style; yaml-cpp is already a dependency.
YAML::Node load_json(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    bad(file, "missing", std::string("aerolbm run writes summary.json last, so the run did not finish. ") + kRerun);
  try {
    YAML::Node n = YAML::LoadFile(file.string());
    if (!n.IsMap()) bad(file, "not a JSON object (empty or truncated)", kRerun);
    return n;
  } catch (const YAML::Exception& e) {
    bad(file, "not valid JSON (line " + std::to_string(e.mark.line + 1) + ": " + e.msg + ")", kRerun);
  }
}

template <class T>
T need(const YAML::Node& root, const fs::path& file, const std::string& dotted) {
  YAML::Node n;
  n.reset(root);
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    const std::string key = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!n.IsMap() || !n[key]) bad(file, "key '" + dotted + "' is missing", kRerun);
    n.reset(n[key]);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  try {
    return n.as<T>();
  } catch (const YAML::Exception&) {
    bad(file, "key '" + dotted + "' has the wrong type", kRerun);
  }
}

std::optional<double> maybe_number(const YAML::Node& root, const std::string& section, const std::string& key) {
  const YAML::Node s = root[section];
  if (!s || !s.IsMap() || !s[key] || s[key].IsNull()) return std::nullopt;
  try {
    return s[key].as<double>();
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
}

// What case.yaml asks of the output: frames every output.every steps, and whether hdf5 is among output.formats
// (the frames' format, and the mean frame's).
struct OutputAsked {
  std::int64_t every = 500;
  bool hdf5 = true;
  bool hdf5_frames() const { return every > 0 && hdf5; }
};

OutputAsked output_asked(const fs::path& case_file) {
  std::error_code ec;
  if (!fs::is_regular_file(case_file, ec))
    bad(case_file, "missing", std::string("aerolbm run writes the case as run into every run folder. ") + kRerun);
  YAML::Node c;
  try {
    c = YAML::LoadFile(case_file.string());
  } catch (const YAML::Exception& e) {
    bad(case_file, "not valid YAML (line " + std::to_string(e.mark.line + 1) + ": " + e.msg + ")", kRerun);
  }
  const YAML::Node out = c["output"];
  OutputAsked o;
  if (out && out.IsMap()) {
    if (out["every"]) o.every = out["every"].as<std::int64_t>(500);
    if (out["formats"] && out["formats"].IsSequence()) {
      o.hdf5 = false;
      for (const auto& f : out["formats"]) o.hdf5 = o.hdf5 || f.as<std::string>("") == "hdf5";
    }
  }
  return o;
}

// Runs fn on the opened HDF5 file: what the HDF5 layer refuses (no file, not HDF5, truncated, an object of the
// wrong kind) becomes a CompareInputError.
template <class Fn>
auto read_h5(const fs::path& file, Fn&& fn) {
  try {
    const h5::Reader h5(file);
    return fn(h5);
  } catch (const h5::Error& e) {
    throw CompareInputError(std::string(e.what()) +
                            ". The run folder looks damaged: rerun the case (aerolbm run) to rewrite it.");
  }
}

// The grid and the frames of r.fields_file(), open as h5.
void read_fields(RunFolder& r, const h5::Reader& h5) {
  const fs::path& file = h5.path();
  const auto nx = h5.attr_int("/", "nx"), ny = h5.attr_int("/", "ny"), nz = h5.attr_int("/", "nz");
  const auto origin = h5.attr_doubles("/", "origin"), spacing = h5.attr_doubles("/", "spacing");
  if (!nx || !ny || !nz || !origin || !spacing || origin->size() != 3 || spacing->size() != 3)
    bad(file, "the root attributes nx, ny, nz, origin, spacing are missing", kRerun);
  r.grid.nx = *nx;
  r.grid.ny = *ny;
  r.grid.nz = *nz;
  for (int a = 0; a < 3; ++a) {
    r.grid.origin[a] = (*origin)[a];
    r.grid.spacing[a] = (*spacing)[a];
    if (!(r.grid.spacing[a] > 0) || !std::isfinite(r.grid.origin[a])) bad(file, "invalid origin or spacing", kRerun);
  }
  if (r.grid.nx < 1 || r.grid.ny < 1 || r.grid.nz < 1) bad(file, "invalid grid size", kRerun);
  if (const auto dt = h5.attr_doubles("/", "dt_convective_times"); dt && !dt->empty()) r.dt = (*dt)[0];

  for (const std::string& g : h5.groups("/")) {
    if (g.rfind("frame_", 0) != 0) continue;
    FrameEntry f;
    f.group = g;
    const auto step = h5.attr_int("/" + g, "step");
    const auto time = h5.attr_doubles("/" + g, "time");
    if (!step || !time || time->empty()) bad(file, "frame " + g + " lacks its step/time attributes", kRerun);
    f.step = *step;
    f.time = (*time)[0];
    std::vector<std::string> names = compared_field_names();
    names.push_back("mask");
    for (const std::string& name : names) {
      const auto shape = h5.shape("/" + g + "/" + name);
      if (!shape) continue;
      const bool ok = (shape->size() == 3 || shape->size() == 4) && (*shape)[0] == r.grid.nz &&
                      (*shape)[1] == r.grid.ny && (*shape)[2] == r.grid.nx &&
                      (shape->size() == 3 || (*shape)[3] == 3);
      if (!ok) bad(file, "dataset /" + g + "/" + name + " does not have the grid's shape (nz, ny, nx[, 3])", kRerun);
      f.fields.emplace_back(name);
    }
    r.frames.push_back(std::move(f));
  }
  std::sort(r.frames.begin(), r.frames.end(), [](const FrameEntry& a, const FrameEntry& b) { return a.step < b.step; });
  // A mean frame (output.averages) says how many samples it averages and over which times.
  if (const auto n = h5.attr_doubles("/", "samples"); n && !n->empty()) r.mean_samples = std::int64_t((*n)[0]);
  if (const auto t = h5.attr_doubles("/", "first_sample_time"); t && !t->empty()) r.mean_first_time = (*t)[0];
  if (const auto t = h5.attr_doubles("/", "last_sample_time"); t && !t->empty()) r.mean_last_time = (*t)[0];
  if (std::int64_t(r.frames.size()) < r.frames_announced)
    bad(file, "holds " + std::to_string(r.frames.size()) + " frames but summary.json announces " +
                  std::to_string(r.frames_announced) + " (truncated)",
        kRerun);
}

void load_fields(RunFolder& r) {
  read_h5(r.fields_file(), [&](const h5::Reader& h5) { read_fields(r, h5); });
}

}  // namespace

RunFolder load_run_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw CompareInputError(dir.string() + ": not a run folder (" +
                            (fs::exists(dir, ec) ? std::string("not a directory") : std::string("does not exist")) +
                            "). Pass two folders written by aerolbm run, or one case file (.yaml).");
  RunFolder r;
  r.dir = dir;
  const fs::path sfile = dir / "summary.json";
  const YAML::Node s = load_json(sfile);
  r.case_name = need<std::string>(s, sfile, "case");
  r.backend = need<std::string>(s, sfile, "backend");
  r.device = need<std::string>(s, sfile, "device");
  r.lattice = need<std::string>(s, sfile, "lattice");
  r.precision = need<std::string>(s, sfile, "precision");
  r.steps = need<std::int64_t>(s, sfile, "steps");
  r.wall_time_s = need<double>(s, sfile, "wall_time_s");
  r.mlups = need<double>(s, sfile, "mlups");
  r.convective_times = need<double>(s, sfile, "convective_times");
  r.reynolds = need<double>(s, sfile, "reynolds");
  r.mach = need<double>(s, sfile, "mach");
  r.angle_of_attack_deg = need<double>(s, sfile, "angle_of_attack_deg");
  r.frames_announced = need<std::int64_t>(s, sfile, "frames");
  r.cd_mean = maybe_number(s, "coefficients", "cd_mean");
  r.cl_mean = maybe_number(s, "coefficients", "cl_mean");
  r.cd_final = maybe_number(s, "coefficients", "cd_final");
  r.cl_final = maybe_number(s, "coefficients", "cl_final");
  r.strouhal = maybe_number(s, "coefficients", "strouhal");
  r.cpitch_mean = maybe_number(s, "coefficients", "cpitch_mean");  // absent before moments were reported in 2D

  r.forces = read_forces_csv(dir / "forces.csv");
  const OutputAsked asked = output_asked(dir / "case.yaml");
  const bool hdf5 = asked.hdf5_frames();
  if (fs::exists(r.fields_file(), ec)) {
    load_fields(r);
    r.has_fields = true;
  } else if (hdf5 && r.frames_announced > 0) {
    bad(r.fields_file(), "missing, but case.yaml asks for HDF5 fields and summary.json announces " +
                             std::to_string(r.frames_announced) + " frames",
        kRerun);
  }
  // RUN/mean/ (output.averages): one frame. summary.json says whether it was written; a run that says so but whose
  // mean/fields.h5 is missing is truncated. (Runs with VTK output alone have no mean/fields.h5 to compare.)
  const YAML::Node m = s["mean_fields"];
  const bool mean_written = m && m.IsMap() && m["written"] && m["written"].as<std::string>("") == "true";
  const fs::path mean_dir = dir / "mean";
  if (fs::exists(mean_dir / "fields.h5", ec)) {
    auto mean = std::make_shared<RunFolder>();
    mean->dir = mean_dir;
    load_fields(*mean);
    mean->has_fields = true;
    if (mean->frames.size() != 1)
      bad(mean->fields_file(), "holds " + std::to_string(mean->frames.size()) + " frames, the mean frame is one",
          kRerun);
    r.mean_samples = mean->mean_samples;
    r.mean_first_time = mean->mean_first_time;
    r.mean_last_time = mean->mean_last_time;
    r.mean = std::move(mean);
  } else if (mean_written && asked.hdf5) {
    bad(mean_dir / "fields.h5", "missing, but summary.json says the mean fields were written", kRerun);
  }
  // RUN/levels/level<N>/ (refinement.boxes): each level's frames on its own grid, at the run's frame steps.
  if (r.has_fields) {
    for (int n = 1;; ++n) {
      const fs::path level_dir = dir / "levels" / ("level" + std::to_string(n));
      if (!fs::exists(level_dir / "fields.h5", ec)) {
        if (fs::is_directory(level_dir, ec) && hdf5 && r.frames_announced > 0)
          bad(level_dir / "fields.h5", "missing, but the run wrote HDF5 frames of its other levels", kRerun);
        break;
      }
      auto level = std::make_shared<RunFolder>();
      level->dir = level_dir;
      level->lattice = r.lattice;
      level->frames_announced = std::int64_t(r.frames.size());
      load_fields(*level);
      level->has_fields = true;
      r.levels.push_back(std::move(level));
    }
  }
  return r;
}

const std::vector<std::string>& compared_field_names() {
  static const std::vector<std::string> names = {"velocity",  "pressure",     "density",
                                                 "vorticity", "velocity_rms", "pressure_rms"};
  return names;
}

const FrameEntry* frame_at(const RunFolder& run, double time, double tol) {
  for (const auto& f : run.frames)
    if (std::abs(f.time - time) <= tol) return &f;
  return nullptr;
}

bool has_field(const FrameEntry& frame, const std::string& field) {
  return std::find(frame.fields.begin(), frame.fields.end(), field) != frame.fields.end();
}

std::vector<float> read_field(const RunFolder& run, const FrameEntry& frame, const std::string& field) {
  return read_h5(run.fields_file(),
                 [&](const h5::Reader& h5) { return h5.read<float>("/" + frame.group + "/" + field); });
}

int field_components(const RunFolder& run, const FrameEntry& frame, const std::string& field) {
  return read_h5(run.fields_file(), [&](const h5::Reader& h5) {
    const auto shape = h5.shape("/" + frame.group + "/" + field);
    return shape && shape->size() == 4 ? int((*shape)[3]) : 1;
  });
}

}  // namespace aerolbm
