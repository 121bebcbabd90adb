// Fuzz target: the case-file loader, through load_case() as `aerolbm check` calls it (src/app/cmd_check.cpp),
// then what check does next short of allocating the grid (lattice units, summary, the body for modest sizes).
//
// Input: the case file's text, then optionally a NUL byte and `--set` overrides separated by NUL bytes (argv
// entries cannot hold NUL, so this covers every override a user can type, newlines included).
// Promises under test: load_case returns a Case or throws CaseError with a message; nothing crashes, hangs, leaks
// or throws anything else. A loaded case's `yaml_text` (written to RUN/case.yaml) must load again to the same case.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/geometry/naca.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace aerolbm;
namespace fs = std::filesystem;

// The scratch folder holds data/naca2412.dat, so that the seed cases/naca2412_selig_aoa4.yaml (file:
// data/naca2412.dat) reaches the Selig reader and the body.
const fs::path& case_folder() {
  static const fs::path dir = [] {
    const fs::path d = fuzz::scratch_dir();
    fs::create_directories(d / "data");
    std::string text = "NACA 2412 (fuzz scratch copy)\n";
    for (const Point2& p : naca4_outline("2412", 40)) text += std::to_string(p[0]) + " " + std::to_string(p[1]) + "\n";
    fuzz::write_file(d / "data" / "naca2412.dat", text);
    return d;
  }();
  return dir;
}

// The stored case minus its leading '#' comment lines, which name the source file and the overrides.
std::string_view body_of(std::string_view yaml) {
  while (!yaml.empty() && yaml.front() == '#') {
    const auto eol = yaml.find('\n');
    yaml = eol == std::string_view::npos ? std::string_view() : yaml.substr(eol + 1);
  }
  return yaml;
}

void exercise_loaded_case(const Case& c) {
  const LatticeUnits u = lattice_units(c);
  const std::string summary = describe(c, u);
  if (summary.empty()) fuzz::fail("describe() gave an empty summary", c.yaml_text);
  // make_body is linear in chord_cells (NACA outlines get 2 points per cell); bigger bodies only cost time.
  if (c.chord_cells <= 4096) {
    try {
      if (const auto body = make_body(c)) {
        const auto box = body->bounds();
        body->inside({0.5 * (box[0][0] + box[1][0]), 0.5 * (box[0][1] + box[1][1]), 0});
      }
    } catch (const GeometryError&) {
      // A Selig file that exists but is not a good airfoil is reported here, as in `aerolbm check`.
    }
  }
}

void check_round_trip(const Case& c) {
  const fs::path again_file = case_folder() / "case_as_run.yaml";
  fuzz::write_file(again_file, c.yaml_text);
  Case again;
  try {
    again = load_case(again_file);
  } catch (const CaseError& e) {
    fuzz::fail("the case as run (Case::yaml_text) does not load again", std::string(e.what()) + "\n---\n" + c.yaml_text);
  }
  if (body_of(again.yaml_text) != body_of(c.yaml_text))
    fuzz::fail("the case as run loads to a different case", c.yaml_text + "\n--- became ---\n" + again.yaml_text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path file = case_folder() / "case.yaml";
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  std::vector<std::string> overrides;
  for (std::size_t pos = nul; pos != std::string_view::npos;) {
    const std::size_t next = input.find('\0', pos + 1);
    overrides.emplace_back(input.substr(pos + 1, next == std::string_view::npos ? next : next - pos - 1));
    pos = next;
  }
  fuzz::write_file(file, input.substr(0, nul));

  Case c;
  try {
    c = load_case(file, overrides);
  } catch (const CaseError& e) {
    if (std::string_view(e.what()).empty()) fuzz::fail("CaseError without a message", std::string(input));
    return 0;
  }
  exercise_loaded_case(c);
  check_round_trip(c);
  return 0;
}
