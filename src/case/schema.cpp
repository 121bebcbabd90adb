#include "src/case/schema.hpp"

#include "kernels/physics/params.hpp"
#include "kernels/backend_choice.hpp"

namespace aerolbm {
namespace {

using K = ValueKind;

KeySpec leaf(std::string name, ValueKind kind, std::vector<std::string> choices = {}) {
  return KeySpec{std::move(name), kind, std::move(choices), {}};
}

KeySpec section(std::string name, std::vector<KeySpec> keys) {
  return KeySpec{std::move(name), K::Mapping, {}, std::move(keys)};
}

KeySpec build_schema() {
  return section(
      "",
      {
          leaf("schema_version", K::Integer),
          section("case", {leaf("name", K::String), leaf("description", K::String)}),
          section("physics",
                  {leaf("reynolds", K::Number), leaf("mach", K::Number), leaf("angle_of_attack_deg", K::Number),
                   leaf("allow_high_mach", K::Boolean), leaf("body_force", K::NumberList),
                   leaf("initial_noise", K::Number), leaf("initial_velocity", K::NumberList)}),
          // One table for every geometry type; which keys a given type accepts is checked in case_sections.cpp.
          section("geometry",
                  {leaf("type", K::Choice, {"naca4", "selig", "cylinder", "wing", "stl", "none"}), leaf("code", K::String),
                   leaf("file", K::String), leaf("chord_cells", K::Number), leaf("diameter_cells", K::Number),
                   leaf("reference_cells", K::Number), leaf("section", K::String), leaf("tip_section", K::String),
                   leaf("span", K::Number), leaf("taper", K::Number), leaf("tip_chord", K::Number),
                   leaf("sweep_deg", K::Number), leaf("dihedral_deg", K::Number), leaf("twist_deg", K::Number),
                   leaf("half", K::Boolean), leaf("units_per_reference", K::Number), leaf("pivot", K::NumberList),
                   leaf("reference_area", K::Number)}),
          section("domain", {leaf("size_chords", K::NumberList), leaf("body_position_chords", K::NumberList)}),
          section("lattice",
                  {leaf("stencil", K::Choice, enum_names(kStencilNames)),
                   leaf("collision", K::Choice, enum_names(kCollisionNames)),
                   leaf("precision", K::Choice, enum_names(kPrecisionNames)),
                   leaf("kernel", K::Choice, enum_names(kKernelNames)), leaf("trt_magic", K::Number),
                   leaf("tau_min", K::Number),
                   section("les", {leaf("model", K::Choice, {"none", "smagorinsky", "wale"}), leaf("constant", K::Number)})}),
          section("boundaries", {leaf("inlet", K::Choice, {"velocity", "periodic"}),
                                 leaf("outlet", K::Choice, {"characteristic", "pressure", "periodic"}),
                                 leaf("outlet_relaxation", K::Number),
                                 leaf("lateral", K::Choice, enum_names(kSideFaceNames)),
                                 leaf("span", K::Choice, enum_names(kSideFaceNames)),
                                 leaf("wall", K::Choice, enum_names(kWallModelNames)),
                                 leaf("inlet_profile", K::Choice, enum_names(kInletProfileNames)),
                                 leaf("wall_model_probe", K::Number),
                                 section("sponge", {leaf("width_chords", K::Number), leaf("strength", K::Number)})}),
          section("time",
                  {leaf("convective_times", K::Number), leaf("average_last", K::Number), leaf("steps", K::Integer),
                   leaf("ramp_convective_times", K::Number)}),
          section("output", {leaf("every", K::Integer),
                             leaf("fields", K::ChoiceList, {"velocity", "pressure", "density", "vorticity", "q_criterion", "mask"}),
                             leaf("formats", K::ChoiceList, {"hdf5", "vtk"}),
                             leaf("precision", K::Choice, {"fp32", "fp16"}),
                             section("averages", {leaf("enabled", K::Boolean), leaf("every", K::Integer)})}),
          section("forces", {leaf("every", K::Integer), leaf("reference_area", K::Number),
                             leaf("moment_point", K::NumberList)}),
          section("checkpoint", {leaf("every", K::Integer)}),
          section("watchdog", {leaf("every", K::Integer), leaf("max_speed", K::Number)}),
          section("parallel", {leaf("ranks_grid", K::NumberList)}),
          section("refinement", {leaf("boxes", K::NumberLists),
                                  section("band", {leaf("levels", K::Integer), leaf("thickness", K::Number)})}),
      });
}

void collect_paths(const KeySpec& spec, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& k : spec.keys) {
    const std::string path = prefix.empty() ? k.name : prefix + "." + k.name;
    if (k.kind == K::Mapping)
      collect_paths(k, path, out);
    else
      out.push_back(path);
  }
}

}  // namespace

const KeySpec* KeySpec::find(std::string_view key) const {
  for (const auto& k : keys)
    if (k.name == key) return &k;
  return nullptr;
}

std::vector<std::string> KeySpec::key_names() const {
  std::vector<std::string> out;
  for (const auto& k : keys) out.push_back(k.name);
  return out;
}

const KeySpec& case_schema() {
  static const KeySpec schema = build_schema();
  return schema;
}

const KeySpec* find_key_spec(std::string_view dotted_path) {
  const KeySpec* cur = &case_schema();
  std::size_t start = 0;
  while (cur) {
    const std::size_t dot = dotted_path.find('.', start);
    cur = cur->find(dotted_path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return cur;
    start = dot + 1;
  }
  return nullptr;
}

std::vector<std::string> all_key_paths() {
  std::vector<std::string> out;
  collect_paths(case_schema(), "", out);
  return out;
}

std::string canonical_override_path(std::string_view dotted_path) {
  constexpr std::string_view alias = "flow";
  if (dotted_path == alias) return "physics";
  if (dotted_path.starts_with(alias) && dotted_path.size() > alias.size() && dotted_path[alias.size()] == '.')
    return "physics" + std::string(dotted_path.substr(alias.size()));
  return std::string(dotted_path);
}

std::vector<std::string> sections_with_key(std::string_view key) {
  std::vector<std::string> out;
  std::vector<std::string> paths = all_key_paths();
  for (const auto& p : paths) {
    const std::size_t dot = p.rfind('.');
    if (dot != std::string::npos && p.substr(dot + 1) == key) out.push_back(p.substr(0, dot));
  }
  return out;
}

std::string join_words(const std::vector<std::string>& words, std::string_view last_separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += (i + 1 == words.size()) ? std::string(last_separator) : std::string(", ");
    out += words[i];
  }
  return out;
}

}  // namespace aerolbm
