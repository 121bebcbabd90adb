#pragma once
// Drives a backend directly for validation: the case comes from a YAML file (plus overrides), the domain and the
// backend are the same the `run` command builds, but nothing is written to disk.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/assemble_solver.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/force_history.hpp"
#include "tests/cases_dir.hpp"

namespace aerolbm::testing {

inline std::filesystem::path write_temp_case(const std::string& name, const std::string& yaml) {
  const auto dir = std::filesystem::temp_directory_path() / "aerolbm_validation";
  std::filesystem::create_directories(dir);
  const auto path = dir / (name + ".yaml");
  std::ofstream(path) << yaml;
  return path;
}

struct SolverSetup {
  Case c;
  LatticeUnits u;
  std::unique_ptr<Body> body;
  DomainData d;
  PhysicsParams p;
  std::unique_ptr<Backend> backend;

  // The backend comes from AEROLBM_TEST_BACKEND (cpu | cuda) unless given, so the GPU host can run the same
  // validation on the CUDA backend.
  explicit SolverSetup(const std::filesystem::path& file, const std::vector<std::string>& sets = {},
                       std::string which = "", int threads = 0) {
    if (which.empty()) {
      const char* env = std::getenv("AEROLBM_TEST_BACKEND");
      which = env ? env : "cpu";
    }
    c = load_case(file, sets);
    u = lattice_units(c);
    body = make_body(c);
    SolverOptions so;
    so.backend = parse_backend(which);
    so.threads = threads;
    Solver s = assemble_solver(c, u, body.get(), so);
    d = std::move(s.domain);
    backend = std::move(s.backend);
    p = physics_params(c, u);
  }

  // Force coefficients with the reference values the solver uses (ρ = 1, mean inflow speed, reference length).
  std::array<double, 3> coefficients() {
    const auto F = backend->wall_force();
    const double area = u.length_cells * (dimensions(c.stencil) == 3 ? double(u.nz) : 1.0);
    const double k = 1.0 / (0.5 * u.u_lattice * u.u_lattice * area);
    return {F[0] * k, F[1] * k, F[2] * k};
  }
};

// Runs `settle` convective times, then averages the coefficients over `average` more (sampled ten times per
// convective time), which evens out the acoustic waves that a closed channel keeps sloshing between its ends.
inline std::array<double, 2> mean_coefficients(SolverSetup& s, int settle, int average) {
  const std::int64_t per = s.u.steps_per_convective_time;
  s.backend->run(settle * per);
  std::array<double, 2> sum{0, 0};
  const int samples = 10 * average;
  for (int k = 0; k < samples; ++k) {
    s.backend->run(per / 10);
    const auto c = s.coefficients();
    sum[0] += c[0];
    sum[1] += c[1];
  }
  return {sum[0] / samples, sum[1] / samples};
}

// Runs `settle` convective times, then samples the coefficients every `every` steps over `average` more
// convective times: the averaging window as the solver's force history holds it, for analyse_window().
inline std::vector<CoefficientSample> window_samples(SolverSetup& s, double settle, double average,
                                                     std::int64_t every) {
  const double per = double(s.u.steps_per_convective_time);
  const std::int64_t start = std::llround(settle * per), end = start + std::llround(average * per);
  s.backend->run(start);
  std::vector<CoefficientSample> w;
  for (std::int64_t step = start; step + every <= end;) {
    s.backend->run(every);
    step += every;
    const auto c = s.coefficients();
    w.push_back({step, double(step) * s.u.dt, c[0], c[1], c[2]});
  }
  return w;
}

// A grid of fluid cells only (no body, no walls: the faces' boundaries come from the physics parameters).
inline DomainData fluid_grid(std::int64_t nx, std::int64_t ny, std::int64_t nz = 1) {
  DomainData d;
  d.nx = nx;
  d.ny = ny;
  d.nz = nz;
  d.flags.assign(std::size_t(d.cells()), cell::fluid);
  d.link.assign(std::size_t(d.cells()), -1);
  return d;
}

template <class T>
double relative_l2(const std::vector<T>& a, const std::vector<T>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    den += double(b[i]) * b[i];
  }
  return std::sqrt(num / den);
}

}  // namespace aerolbm::testing
