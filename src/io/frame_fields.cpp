#include "src/io/frame_fields.hpp"

#include <cmath>
#include <stdexcept>

namespace aerolbm {

void check_grid(const GridInfo& g) {
  if (g.nx < 1 || g.ny < 1 || g.nz < 1)
    throw std::invalid_argument("output grid must have nx, ny, nz >= 1, got " + std::to_string(g.nx) + " x " +
                                std::to_string(g.ny) + " x " + std::to_string(g.nz));
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(g.origin[a]) || !std::isfinite(g.spacing[a]) || !(g.spacing[a] > 0))
      throw std::invalid_argument("output grid origin must be finite and spacing finite and > 0 (axis " +
                                  std::to_string(a) + ")");
  }
}

namespace {

template <class T>
void add(std::vector<FieldView>& out, const char* name, const char* units, int components, FieldType type,
         const std::vector<T>& data, std::int64_t cells) {
  if (data.empty()) return;
  const auto expected = static_cast<std::size_t>(cells) * static_cast<std::size_t>(components);
  if (data.size() != expected)
    throw std::invalid_argument(std::string("output field '") + name + "' has " + std::to_string(data.size()) +
                                " values, expected " + std::to_string(expected) + " (" + std::to_string(cells) +
                                " points x " + std::to_string(components) + " components)");
  out.push_back(FieldView{name, units, components, type, data.data(), data.size()});
}

}  // namespace

std::vector<FieldView> present_fields(const Frame& f, const GridInfo& g) {
  if (!std::isfinite(f.time)) throw std::invalid_argument("output frame time is not finite");
  if (f.vorticity_components != 1 && f.vorticity_components != 3)
    throw std::invalid_argument("vorticity_components must be 1 or 3, got " + std::to_string(f.vorticity_components));
  const std::int64_t cells = g.cells();
  std::vector<FieldView> out;
  add(out, "velocity", "U_inf", 3, FieldType::Float32, f.velocity, cells);
  add(out, "pressure", "Cp = (p - p_inf)/(0.5 rho U^2)", 1, FieldType::Float32, f.pressure, cells);
  add(out, "density", "rho/rho_inf", 1, FieldType::Float32, f.density, cells);
  add(out, "vorticity", "omega L/U_inf", f.vorticity_components, FieldType::Float32, f.vorticity, cells);
  add(out, "q_criterion", "Q (L/U)^2 = (|Omega|^2 - |S|^2)/2", 1, FieldType::Float32, f.q_criterion, cells);
  add(out, "mask", "1 = solid", 1, FieldType::UInt8, f.mask, cells);
  return out;
}

std::string frame_number(std::int64_t counter) {
  if (counter < 0) throw std::invalid_argument("negative frame counter");
  std::string digits = std::to_string(counter);
  if (digits.size() < 6) digits.insert(0, 6 - digits.size(), '0');
  return digits;
}

}  // namespace aerolbm
