#include "src/surrogate/sweep_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>
#include <fstream>
#include <set>
#include <sstream>

#include "src/case/case.hpp"
#include "src/case/did_you_mean.hpp"
#include "src/case/schema.hpp"
#include "src/case/section_reader.hpp"

namespace aerolbm::surrogate {
namespace {

namespace fs = std::filesystem;

KeySpec key(const char* name, ValueKind kind, std::vector<std::string> choices = {}) {
  return KeySpec{name, kind, std::move(choices), {}};
}
KeySpec section(const char* name, std::vector<KeySpec> keys) { return KeySpec{name, ValueKind::Mapping, {}, keys}; }

KeySpec parameter(const char* name) {
  return section(name, {key("values", ValueKind::NumberList), key("range", ValueKind::NumberList),
                        key("log", ValueKind::Boolean), key("count", ValueKind::Integer)});
}

const KeySpec& sweep_schema() {
  static const KeySpec root = section(
      "", {key("format", ValueKind::String), key("version", ValueKind::Integer), key("base_case", ValueKind::String),
           key("output", ValueKind::String), section("set", {}),
           section("time", {key("convective_times", ValueKind::Number), key("average_last", ValueKind::Number)}),
           section("sample_grid", {key("nx", ValueKind::Integer), key("ny", ValueKind::Integer),
                                   key("x", ValueKind::NumberList), key("y", ValueKind::NumberList)}),
           key("surface_points", ValueKind::Integer), key("sampling", ValueKind::Choice, {"random", "grid"}),
           key("count", ValueKind::Integer), key("seed", ValueKind::Integer),
           section("parameters", {parameter("camber"), parameter("camber_position"), parameter("thickness"),
                                  parameter("aoa_deg"), parameter("reynolds")}),
           section("split", {key("test_fraction", ValueKind::Number), key("seed", ValueKind::Integer)}),
           section("extrapolation", {key("count", ValueKind::Integer), parameter("camber"),
                                     parameter("camber_position"), parameter("thickness"), parameter("aoa_deg"),
                                     parameter("reynolds")})});
  return root;
}

std::string read_text(const fs::path& file) {
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (!fs::exists(st))
    throw CaseError(InputProblem{file.string(), 0, "", "an existing sweep file", "no such file",
                                 "Check the path (relative paths start from the current folder, " +
                                     fs::current_path(ec).string() + ")."});
  if (fs::is_directory(st))
    throw CaseError(InputProblem{file.string(), 0, "", "a sweep file", "a folder", "Name the .yaml file inside it."});
  std::ifstream in(file, std::ios::binary);
  std::ostringstream buf;
  if (in) buf << in.rdbuf();
  if (!in || in.bad())
    throw CaseError(InputProblem{file.string(), 0, "", "a readable sweep file", "a file that cannot be read",
                                 "Check its permissions."});
  return buf.str();
}

// An unsigned 64-bit seed, exactly (a double would round seeds above 2^53).
std::optional<std::uint64_t> read_seed(const SectionReader& r, const char* name) {
  const YAML::Node v = r.get(name);
  if (!v.IsDefined()) return std::nullopt;
  const std::string expected = "a whole number from 0 to 18446744073709551615 (unsigned 64-bit)";
  if (!v.IsScalar() || is_quoted(v)) {
    r.problem(name, expected, describe_value(v), "Give a plain whole number such as 1.");
    return std::nullopt;
  }
  const std::string& s = v.Scalar();
  std::uint64_t x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size()) {
    r.problem(name, expected, describe_value(v), "Give a plain whole number such as 1 (no sign, no decimals).");
    return std::nullopt;
  }
  return x;
}

// A case key's value for a --set: scalars as written (quoted ones quoted again), lists in flow style.
std::string value_text(const YAML::Node& v) {
  if (v.IsScalar()) return is_quoted(v) ? "\"" + v.Scalar() + "\"" : v.Scalar();
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << v;
  return e.c_str();
}

struct GeometryDigit {
  double scale;
  int lo, hi;
  const char* what;
};

// camber → first digit, position → second, thickness → last two (SCHEMA.md, "Geometry parameters").
std::optional<GeometryDigit> digit_rule(int param) {
  if (param == 0) return GeometryDigit{100, 0, 9, "round(m*100) from 0 to 9 (the code's first digit)"};
  if (param == 1) return GeometryDigit{10, 1, 9, "round(p*10) from 1 to 9 (the code's second digit)"};
  if (param == 2) return GeometryDigit{100, 1, 40, "round(t*100) from 1 to 40 (the code's last two digits)"};
  return std::nullopt;
}

std::optional<ParameterSpec> read_parameter(const SectionReader& r, int param, bool random) {
  const char* name = kParamNames[param];
  if (!r.present()) {
    if (!r.absent())
      r.diag().error(r.section_path(), r.section_mark(), "a mapping {values: [...]} or {range: [lo, hi]}",
                     "something else", "Write e.g. " + std::string(name) + ": {values: [0.0, 0.02]}.");
    return std::nullopt;
  }
  r.check_keys();
  ParameterSpec p;
  const bool geometry = param <= 2;
  const bool has_values = r.has("values"), has_range = r.has("range");
  if (has_values == has_range) {
    r.diag().error(r.section_path(), r.section_mark(), "exactly one of 'values' or 'range'",
                   has_values ? "both" : "neither",
                   geometry ? "Give values: [...]; NACA 4-digit codes need whole percents."
                            : "Give values: [...] or range: [lo, hi].");
    return std::nullopt;
  }
  const Range any;
  const Range positive{0, std::numeric_limits<double>::infinity(), true, false};
  const Range& each = param == 4 ? positive : any;
  if (has_values) {
    auto v = r.numbers("values", each, param == 4 ? "A Reynolds number is positive." : "Give finite numbers.",
                       "[0.0, 0.02]");
    if (!v) return std::nullopt;
    if (v->empty()) {
      r.problem("values", "at least one value", "an empty list", "List the values to sweep.");
      return std::nullopt;
    }
    if (auto rule = digit_rule(param)) {
      bool good = true;
      for (std::size_t i = 0; i < v->size(); ++i) {
        const double x = (*v)[i] * rule->scale, n = std::round(x);
        if (std::abs(x - n) > 1e-9 || n < rule->lo || n > rule->hi) {
          r.diag().error(r.path("values") + "[" + std::to_string(i) + "]", r.get("values")[i].Mark(),
                         std::string("a value with ") + rule->what, describe_value(r.get("values")[i]),
                         "The solver's geometry is a NACA 4-digit code: give whole percents of the chord (camber, "
                         "thickness) and whole tenths (camber position).");
          good = false;
        }
      }
      if (!good) return std::nullopt;
    }
    p.values = *v;
    if (r.has("log")) r.problem("log", "no 'log' with a values list", "log", "Remove it; log applies to a range.");
    if (r.has("count")) r.problem("count", "no 'count' with a values list", "count", "Remove it.");
    return p;
  }
  if (geometry) {
    r.problem("range", "a values list", "a range",
              "NACA 4-digit codes need whole percents; give values, e.g. values: [0.0, 0.02, 0.04].");
    return std::nullopt;
  }
  auto range = r.numbers("range", each, param == 4 ? "A Reynolds number is positive." : "Give finite numbers.",
                         "[lo, hi]");
  if (!range) return std::nullopt;
  if (range->size() != 2 || !((*range)[0] <= (*range)[1])) {
    r.problem("range", "two numbers [lo, hi] with lo <= hi", describe_value(r.get("range")),
              "Write range: [lo, hi].");
    return std::nullopt;
  }
  p.lo = (*range)[0];
  p.hi = (*range)[1];
  p.log = r.boolean("log").value_or(false);
  if (p.log && !(p.lo > 0))
    r.problem("log", "log: true only for a positive range", "log: true with lo " + format_number(p.lo),
              "Use a positive range or leave out log.");
  if (random) {
    if (r.has("count"))
      r.problem("count", "no 'count' in random sampling", "count",
                "Random sampling draws from the range; the number of cases is the top-level count.");
  } else {
    const auto n = r.integer("count", {1, 1e6}, "The number of points of the range, both ends included.");
    if (!r.has("count"))
      r.missing("count", "the number of points of the range (grid sampling)", "Add e.g. count: 5.");
    p.count = int(n.value_or(1));
  }
  return p;
}

}  // namespace

std::uint64_t SplitMix64::next() {
  state_ += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return double(next() >> 11) * 0x1.0p-53; }

SweepSpec read_sweep(const fs::path& file) {
  SweepSpec s;
  s.file = file;
  s.text = read_text(file);
  const std::string label = file.string();
  YAML::Node root;
  try {
    root = YAML::Load(s.text);
  } catch (const YAML::ParserException& e) {
    throw CaseError(InputProblem{label, e.mark.is_null() ? 0 : e.mark.line + 1, "", "valid YAML",
                                 "a syntax error: " + e.msg,
                                 "Check indentation (spaces, not tabs), brackets and quotes."});
  }
  Diagnostics diag(label);
  if (!root.IsMap()) {
    diag.fail("", root.Mark(), "a mapping of sweep keys (format, version, base_case, sampling, parameters, split)",
              describe_value(root), "See postprocess/surrogate/SCHEMA.md, section sweep.yaml, for an example.");
  }
  const SectionReader r(diag, root, "", YAML::Mark::null_mark(), sweep_schema());
  r.check_keys();

  const auto format = r.text("format");
  if (!r.has("format"))
    r.missing("format", "format: aerolbm-sweep", "Add 'format: aerolbm-sweep' as the first line.");
  else if (format && *format != "aerolbm-sweep")
    r.problem("format", "aerolbm-sweep", describe_value(r.get("format")),
              "This is not a sweep file; a sweep file starts with 'format: aerolbm-sweep'.");
  const auto version = r.integer("version", {1, 1}, "This aerolbm reads sweep files of version 1.");
  if (!r.has("version")) r.missing("version", "version: 1", "Add 'version: 1'.");
  (void)version;

  if (const auto base = r.text("base_case")) {
    const fs::path folder = fs::absolute(file).parent_path();
    s.base_case = (fs::path(*base).is_absolute() ? fs::path(*base) : folder / *base).lexically_normal();
    std::error_code ec;
    if (!fs::is_regular_file(s.base_case, ec))
      r.problem("base_case", "an existing case file (relative paths start from the sweep file's folder)",
                "no file at '" + s.base_case.string() + "'", "Check the path.");
  } else if (!r.has("base_case")) {
    r.missing("base_case", "the base case file", "Add e.g. 'base_case: ../../cases/naca0012_re1000_aoa5.yaml'.");
  }
  if (auto out = r.text("output")) s.output = *out;

  const SectionReader set = r.sub("set");
  if (set.present()) {
    for (const std::string& k : set.keys()) {
      const std::string path = canonical_override_path(k);
      const YAML::Node v = set.get(k);
      if (!find_key_spec(path)) {
        const std::vector<std::string> all = all_key_paths();
        const std::string hint = did_you_mean(path, all);
        set.problem(k, "a case key path such as geometry.chord_cells", "unknown case key '" + k + "'",
                    hint.empty() ? "Check it against the case file reference in docs/case_file.md." : hint.substr(1));
      } else if (path == "geometry.code" || path == "physics.reynolds" || path == "physics.angle_of_attack_deg" ||
                 path.starts_with("time.") || path == "case.name") {
        set.problem(k, "a case key the sweep does not set itself", "'" + k + "'",
                    path.starts_with("time.") ? "Give the run length in the sweep's own time section."
                                              : "The sweep sets it per case from parameters; remove it here.");
      } else {
        s.sets.push_back(path + "=" + value_text(v));
      }
    }
  } else if (!set.absent()) {
    diag.error("set", r.mark("set"), "a mapping of case keys to values", describe_value(r.get("set")),
               "Write e.g. set: {geometry.chord_cells: 64}.");
  }

  const SectionReader time = r.sub("time");
  time.check_keys();
  s.convective_times = time.number("convective_times", {0, std::numeric_limits<double>::infinity(), true, false},
                                   "The run length is a positive number of convective times.");
  s.average_last = time.number("average_last", {0, std::numeric_limits<double>::infinity(), true, false},
                               "The averaging window is a positive number of convective times.");
  if (s.convective_times && s.average_last && *s.average_last > *s.convective_times)
    time.problem("average_last", "at most time.convective_times (" + format_number(*s.convective_times) + ")",
                 format_number(*s.average_last), "Average over the last part of the run only.");

  const SectionReader grid = r.sub("sample_grid");
  grid.check_keys();
  s.grid.nx = int(grid.integer("nx", {2, 4096}, "At least 2 points per direction.").value_or(s.grid.nx));
  s.grid.ny = int(grid.integer("ny", {2, 4096}, "At least 2 points per direction.").value_or(s.grid.ny));
  for (const char* axis : {"x", "y"}) {
    if (auto v = grid.numbers(axis, {}, "Finite numbers.", "[-1.0, 3.0]")) {
      if (v->size() != 2 || !((*v)[0] < (*v)[1])) {
        grid.problem(axis, "two numbers [from, to] with from < to (chords)", describe_value(grid.get(axis)),
                     "Write e.g. " + std::string(axis) + ": [-1.0, 1.0].");
      } else if (axis[0] == 'x') {
        s.grid.x0 = (*v)[0];
        s.grid.x1 = (*v)[1];
      } else {
        s.grid.y0 = (*v)[0];
        s.grid.y1 = (*v)[1];
      }
    }
  }
  if (auto n = r.integer("surface_points", {8, 100000}, "8 to 100000 surface points.")) {
    if (*n % 2 != 0)
      r.problem("surface_points", "an even number (the same number of points on each surface)",
                std::to_string(*n), "Use e.g. " + std::to_string(*n + 1) + ".");
    s.surface_points = int(*n);
  }

  const auto sampling = r.choice("sampling");
  if (!r.has("sampling")) r.missing("sampling", "random or grid", "Add 'sampling: random' (or grid).");
  s.random = sampling.value_or("random") == "random";
  if (s.random) {
    if (auto c = r.integer("count", {1, 1e7}, "The number of train+test cases, at least 1.")) s.count = *c;
    else if (!r.has("count")) r.missing("count", "the number of train+test cases (random sampling)", "Add e.g. count: 320.");
    s.seed = read_seed(r, "seed").value_or(1);
  } else if (sampling) {
    if (r.has("count"))
      r.problem("count", "no top-level count in grid sampling", "count",
                "Grid sampling takes every combination; remove count (or use sampling: random).");
    if (r.has("seed")) r.problem("seed", "no seed in grid sampling", "seed", "Remove it.");
  }

  const SectionReader params = r.sub("parameters");
  if (params.absent())
    r.missing("parameters", "the five parameters camber, camber_position, thickness, aoa_deg, reynolds",
              "Add a parameters section (see postprocess/surrogate/SCHEMA.md).");
  params.check_keys();
  if (params.present()) {
    for (int k = 0; k < kParamFeatures; ++k) {
      if (!params.has(kParamNames[k])) {
        params.missing(kParamNames[k], "{values: [...]} or {range: [lo, hi]}",
                       "All five parameters are required; give a single value as values: [x].");
        continue;
      }
      if (auto p = read_parameter(params.sub(kParamNames[k]), k, s.random)) s.parameters[k] = *p;
    }
  }

  const SectionReader split = r.sub("split");
  if (split.absent()) r.missing("split", "split: {test_fraction: 0.15}", "Add a split section.");
  split.check_keys();
  if (split.present()) {
    s.test_fraction = split.number("test_fraction", {0, 1, false, true}, "A fraction 0 <= f < 1.").value_or(0);
    if (!split.has("test_fraction")) split.missing("test_fraction", "a fraction 0 <= f < 1", "Add e.g. test_fraction: 0.15.");
    s.split_seed = read_seed(split, "seed").value_or(2);
  }

  const SectionReader ex = r.sub("extrapolation");
  ex.check_keys();
  if (ex.present()) {
    s.has_extrapolation = true;
    if (s.random) {
      if (auto c = ex.integer("count", {1, 1e7}, "The number of extrapolation cases, at least 1."))
        s.extrapolation_count = *c;
      else if (!ex.has("count"))
        ex.missing("count", "the number of extrapolation cases (random sampling)", "Add e.g. count: 40.");
    } else if (ex.has("count")) {
      ex.problem("count", "no count in grid sampling", "count", "Grid sampling takes every combination; remove it.");
    }
    for (int k = 0; k < kParamFeatures; ++k)
      if (ex.has(kParamNames[k]))
        if (auto p = read_parameter(ex.sub(kParamNames[k]), k, s.random)) s.extrapolation[k] = *p;
  }
  diag.throw_if_errors();
  return s;
}

namespace {

double draw(const ParameterSpec& p, SplitMix64& g) {
  if (p.is_values()) {
    const std::size_t i = std::size_t(g.uniform() * double(p.values.size()));
    return p.values[std::min(i, p.values.size() - 1)];
  }
  const double u = g.uniform();
  if (p.log) return std::pow(10.0, std::log10(p.lo) + u * (std::log10(p.hi) - std::log10(p.lo)));
  return p.lo + u * (p.hi - p.lo);
}

std::vector<double> grid_points(const ParameterSpec& p) {
  if (p.is_values()) return p.values;
  std::vector<double> v;
  const int n = std::max(1, p.count);
  for (int i = 0; i < n; ++i) {
    const double f = n == 1 ? 0.0 : double(i) / double(n - 1);
    v.push_back(p.log ? std::pow(10.0, std::log10(p.lo) + f * (std::log10(p.hi) - std::log10(p.lo)))
                      : p.lo + f * (p.hi - p.lo));
  }
  return v;
}

// Digits from the parameters; camber 0 makes the position digit (and the recorded position) 0.
SweepCase make_case(std::array<double, kParamFeatures> v, int split) {
  const int m = int(std::lround(v[0] * 100)), p = int(std::lround(v[1] * 10)), t = int(std::lround(v[2] * 100));
  SweepCase c;
  c.params = v;
  // The values the code stands for (parse_naca4 gives `aerolbm predict` the same), within 1e-9 of those given.
  c.params[0] = m / 100.0;
  c.params[1] = m == 0 ? 0.0 : p / 10.0;
  c.params[2] = t / 100.0;
  char code[8];
  std::snprintf(code, sizeof(code), "%d%d%02d", m, m == 0 ? 0 : p, t);
  c.code = code;
  c.split = split;
  return c;
}

std::vector<SweepCase> grid_product(const std::array<ParameterSpec, kParamFeatures>& ps, int split) {
  std::array<std::vector<double>, kParamFeatures> axes;
  for (int k = 0; k < kParamFeatures; ++k) axes[k] = grid_points(ps[k]);
  std::vector<SweepCase> out;
  std::set<std::tuple<std::string, double, double>> seen;
  std::array<std::size_t, kParamFeatures> idx{};
  for (;;) {
    std::array<double, kParamFeatures> v{};
    for (int k = 0; k < kParamFeatures; ++k) v[k] = axes[k][idx[k]];
    SweepCase c = make_case(v, split);
    if (seen.emplace(c.code, c.params[3], c.params[4]).second) out.push_back(c);
    int k = kParamFeatures - 1;  // reynolds fastest, camber slowest
    while (k >= 0 && ++idx[k] == axes[k].size()) idx[k--] = 0;
    if (k < 0) break;
  }
  return out;
}

}  // namespace

std::vector<SweepCase> expand_sweep(const SweepSpec& s) {
  std::vector<SweepCase> cases;
  SplitMix64 g(s.seed);  // one generator: the extrapolation cases continue where the train/test draws end
  std::array<ParameterSpec, kParamFeatures> ex = s.parameters;
  for (int k = 0; k < kParamFeatures; ++k)
    if (s.extrapolation[k]) ex[k] = *s.extrapolation[k];
  if (s.random) {
    for (std::int64_t i = 0; i < s.count; ++i) {
      std::array<double, kParamFeatures> v{};
      for (int k = 0; k < kParamFeatures; ++k) v[k] = draw(s.parameters[k], g);
      cases.push_back(make_case(v, 0));
    }
  } else {
    cases = grid_product(s.parameters, 0);
  }
  // Split of the train/test cases: Fisher–Yates shuffle with a second generator; the first n_test go to test.
  const std::size_t n = cases.size();
  const auto n_test = std::size_t(std::nearbyint(s.test_fraction * double(n)));  // ties to even, as Python's round
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  SplitMix64 sg(s.split_seed);
  for (std::size_t i = n; i-- > 1;) {
    const std::size_t j = std::min(i, std::size_t(sg.uniform() * double(i + 1)));
    std::swap(perm[i], perm[j]);
  }
  for (std::size_t i = 0; i < std::min(n_test, n); ++i) cases[perm[i]].split = 1;

  if (s.has_extrapolation) {
    if (s.random) {
      for (std::int64_t i = 0; i < s.extrapolation_count; ++i) {
        std::array<double, kParamFeatures> v{};
        for (int k = 0; k < kParamFeatures; ++k) v[k] = draw(ex[k], g);
        cases.push_back(make_case(v, 2));
      }
    } else {
      for (auto& c : grid_product(ex, 2)) cases.push_back(c);
    }
  }
  return cases;
}

}  // namespace aerolbm::surrogate
