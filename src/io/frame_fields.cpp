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

void add(std::vector<FieldView>& out, const char* name, const char* units, int components, FieldType type,
         const void* data, std::size_t values, std::int64_t cells) {
  if (!data || values == 0) return;
  const auto expected = static_cast<std::size_t>(cells) * static_cast<std::size_t>(components);
  if (values != expected)
    throw std::invalid_argument(std::string("output field '") + name + "' has " + std::to_string(values) +
                                " values, expected " + std::to_string(expected) + " (" + std::to_string(cells) +
                                " points x " + std::to_string(components) + " components)");
  out.push_back(FieldView{name, units, components, type, data, values});
}

// The one list of fields: names, units, components, types, in a fixed order. n_*: the values each array holds.
std::vector<FieldView> field_list(const FieldPointers& p, std::size_t n_velocity, std::size_t n_pressure,
                                  std::size_t n_density, std::size_t n_vorticity, std::size_t n_q,
                                  std::size_t n_mask, const GridInfo& g, double time) {
  if (!std::isfinite(time)) throw std::invalid_argument("output frame time is not finite");
  if (p.vorticity_components != 1 && p.vorticity_components != 3)
    throw std::invalid_argument("vorticity_components must be 1 or 3, got " + std::to_string(p.vorticity_components));
  const std::int64_t cells = g.cells();
  std::vector<FieldView> out;
  add(out, "velocity", "U_inf", 3, FieldType::Float32, p.velocity, n_velocity, cells);
  add(out, "pressure", "Cp = (p - p_inf)/(0.5 rho U^2)", 1, FieldType::Float32, p.pressure, n_pressure, cells);
  add(out, "density", "rho/rho_inf", 1, FieldType::Float32, p.density, n_density, cells);
  add(out, "vorticity", "omega L/U_inf", p.vorticity_components, FieldType::Float32, p.vorticity, n_vorticity,
      cells);
  add(out, "q_criterion", "Q (L/U)^2 = (|Omega|^2 - |S|^2)/2", 1, FieldType::Float32, p.q_criterion, n_q, cells);
  add(out, "mask", "1 = solid", 1, FieldType::UInt8, p.mask, n_mask, cells);
  return out;
}

}  // namespace

std::vector<FieldView> present_fields(const Frame& f, const GridInfo& g) {
  const FieldPointers p{f.velocity.data(), f.pressure.data(),      f.density.data(), f.vorticity.data(),
                        f.vorticity_components, f.q_criterion.data(), f.mask.data()};
  return field_list(p, f.velocity.size(), f.pressure.size(), f.density.size(), f.vorticity.size(),
                    f.q_criterion.size(), f.mask.size(), g, f.time);
}

std::vector<FieldView> present_fields(const FieldPointers& p, const GridInfo& g, double time) {
  const auto n = static_cast<std::size_t>(g.cells());
  return field_list(p, 3 * n, n, n, std::size_t(p.vorticity_components) * n, n, n, g, time);
}

std::vector<FieldView> mean_fields(const MeanFieldPointers& p, const GridInfo& g, double time) {
  if (!std::isfinite(time)) throw std::invalid_argument("output frame time is not finite");
  const std::int64_t cells = g.cells();
  const auto n = static_cast<std::size_t>(cells);
  std::vector<FieldView> out;
  add(out, "velocity", "U_inf (time average)", 3, FieldType::Float32, p.velocity, 3 * n, cells);
  add(out, "velocity_rms", "U_inf (RMS of the fluctuation about the average)", 3, FieldType::Float32,
      p.velocity_rms, 3 * n, cells);
  add(out, "pressure", "Cp = (p - p_inf)/(0.5 rho U^2) (time average)", 1, FieldType::Float32, p.pressure, n,
      cells);
  add(out, "pressure_rms", "Cp (RMS of the fluctuation about the average)", 1, FieldType::Float32, p.pressure_rms,
      n, cells);
  add(out, "mask", "1 = solid", 1, FieldType::UInt8, p.mask, n, cells);
  return out;
}

std::string frame_number(std::int64_t counter) {
  if (counter < 0) throw std::invalid_argument("negative frame counter");
  std::string digits = std::to_string(counter);
  if (digits.size() < 6) digits.insert(0, 6 - digits.size(), '0');
  return digits;
}

}  // namespace aerolbm
