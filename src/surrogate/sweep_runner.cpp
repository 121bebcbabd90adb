#include "src/surrogate/sweep_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "kernels/backend.hpp"
#include "kernels/lattice/lattice.hpp"
#include "src/case/diagnostics.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/solver/averaged_run.hpp"
#include "src/solver/backend_select.hpp"
#include "src/surrogate/airfoil_inputs.hpp"
#include "src/surrogate/field_sampling.hpp"

namespace aerolbm::surrogate {
namespace {

std::string case_label(const SweepCase& sc) {
  return "NACA " + sc.code + ", angle of attack " + format_significant(sc.params[3], 6) + " deg, Reynolds " +
         format_significant(sc.params[4], 6);
}

// The averaged lattice fields as free-stream quantities on the lattice's cell centres, sampled onto the sample
// grid: velocity bilinearly with zero in solid cells (no slip), Cp fluid-weighted (solid cells carry no pressure).
CaseResult sample_case(const Case& c, const LatticeUnits& u, const AveragedRun& run, const SampleGrid& g,
                       int surface_points) {
  const std::int64_t N = run.domain.cells();
  const double u_ref = u.u_lattice > 0 ? u.u_lattice : 1.0;
  const double cp_scale = cs2 / (0.5 * u_ref * u_ref);
  std::vector<float> ux(N), uy(N), cp(N);
  std::vector<std::uint8_t> solid(N);
  for (std::int64_t n = 0; n < N; ++n) {
    solid[n] = (run.domain.flags[n] & cell::type_mask) == cell::solid;
    ux[n] = solid[n] ? 0.0f : float(run.ux[n] / u_ref);
    uy[n] = solid[n] ? 0.0f : float(run.uy[n] / u_ref);
    cp[n] = solid[n] ? 0.0f : float((run.rho[n] - 1.0) * cp_scale);
  }
  GridField lat;
  lat.nx = int(run.domain.nx);
  lat.ny = int(run.domain.ny);
  lat.x0 = 0.5 * u.dx - c.body_position_chords[0];
  lat.y0 = 0.5 * u.dx - c.body_position_chords[1];
  lat.dx = lat.dy = u.dx;
  lat.solid = solid.data();
  GridField fu = lat, fv = lat, fp = lat;
  fu.values = ux.data();
  fv.values = uy.data();
  fp.values = cp.data();
  fu.solid = fv.solid = nullptr;  // plain bilinear: the zeros in solid cells are the wall's no-slip velocity

  CaseResult r;
  const std::vector<float> pts = point_features(g, case_outline(c));
  const std::size_t T = std::size_t(g.points());
  r.u.resize(T);
  r.v.resize(T);
  r.p.resize(T);
  r.sdf.resize(T);
  r.mask.resize(T);
  for (std::size_t t = 0; t < T; ++t) {
    const Point2 q = {pts[t * kPointFeatures], pts[t * kPointFeatures + 1]};
    const bool inside = pts[t * kPointFeatures + 3] > 0.5f;
    r.sdf[t] = pts[t * kPointFeatures + 2];
    r.mask[t] = inside ? 1 : 0;
    r.u[t] = inside ? 0.0f : float(bilinear(fu, q));
    r.v[t] = inside ? 0.0f : float(bilinear(fv, q));
    r.p[t] = float(fluid_sample(fp, q));
  }
  for (const Point2& q : case_outline(c, surface_points / 2)) {
    r.sx.push_back(float(q[0]));
    r.sy.push_back(float(q[1]));
    r.scp.push_back(float(fluid_sample(fp, q)));
  }
  r.cl = run.cl_mean;
  r.cd = run.cd_mean;
  r.cm = run.cpitch_mean;
  r.seconds = run.seconds;
  r.ok = std::isfinite(r.cl) && std::isfinite(r.cd);
  if (!r.ok) r.error = "no force samples in the averaging window";
  return r;
}

}  // namespace

std::vector<Case> build_sweep_cases(const SweepSpec& s, const std::vector<SweepCase>& cases) {
  std::vector<Case> out;
  out.reserve(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const SweepCase& sc = cases[i];
    std::vector<std::string> sets = s.sets;
    char name[96];
    std::snprintf(name, sizeof(name), "sweep_%05zu_naca%s", i, sc.code.c_str());
    sets.push_back(std::string("case.name=") + name);
    sets.push_back("geometry.code=" + sc.code);
    sets.push_back("physics.reynolds=" + format_number(sc.params[4]));
    sets.push_back("physics.angle_of_attack_deg=" + format_number(sc.params[3]));
    if (s.convective_times) {
      sets.push_back("time.convective_times=" + format_number(*s.convective_times));
      sets.push_back("time.steps=0");
    }
    if (s.average_last) sets.push_back("time.average_last=" + format_number(*s.average_last));
    Case c;
    try {
      c = load_case(s.base_case, sets);
    } catch (const CaseError& e) {
      throw CaseError(s.file.string() + ": case " + std::to_string(i) + " (" + case_label(sc) +
                      ") is not a valid case of base_case " + s.base_case.string() + " with the sweep's settings:\n" +
                      e.what() + "\nChange the sweep's parameters or set entries, or the base case.");
    }
    if (c.geometry != GeometryType::Naca4)
      throw CaseError(s.file.string() + ": base_case " + s.base_case.string() +
                      " must have geometry.type naca4 (the sweep varies the NACA 4-digit code).");
    if (dimensions(c.stencil) != 2)
      throw CaseError(s.file.string() + ": base_case " + s.base_case.string() +
                      " must be a 2D case (lattice.stencil D2Q9): the dataset holds 2D fields.");
    const double xl = -c.body_position_chords[0], xh = c.size_chords[0] - c.body_position_chords[0];
    const double yl = -c.body_position_chords[1], yh = c.size_chords[1] - c.body_position_chords[1];
    if (s.grid.x0 < xl || s.grid.x1 > xh || s.grid.y0 < yl || s.grid.y1 > yh)
      throw CaseError(s.file.string() + ": sample_grid x [" + format_number(s.grid.x0) + ", " +
                      format_number(s.grid.x1) + "], y [" + format_number(s.grid.y0) + ", " +
                      format_number(s.grid.y1) + "] reaches outside the base case's domain (x [" + format_number(xl) +
                      ", " + format_number(xh) + "], y [" + format_number(yl) + ", " + format_number(yh) +
                      "] chords from the quarter chord). Shrink the sample grid or enlarge domain.size_chords.");
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<CaseResult> run_sweep(const SweepSpec& s, const std::vector<Case>& cases, const SweepOptions& opt,
                                  std::string* backend_used) {
  std::vector<CaseResult> results(cases.size());
  run_sweep_cases(s, cases, std::vector<bool>(cases.size(), false), opt, results, nullptr, backend_used);
  return results;
}

std::size_t run_sweep_cases(const SweepSpec& s, const std::vector<Case>& cases, const std::vector<bool>& have,
                            const SweepOptions& opt, std::vector<CaseResult>& results, const CaseFinished& finished,
                            std::string* backend_used) {
  using Clock = std::chrono::steady_clock;
  const bool cuda = resolve_backend(opt.backend) == BackendKind::Cuda;
  const int hw = std::max(1, int(std::thread::hardware_concurrency()));
  // CPU: one single-threaded case per core. Small 2D lattices step in well under a millisecond, so OpenMP's
  // barriers in every step cost more than they give (measured: 15 tiny cases 65 s with 2 threads per case, 7 s
  // with one case per core on a shared 2-core machine).
  const int cpu_threads = opt.threads > 0 ? opt.threads : hw;
  int workers = opt.concurrent > 0 ? opt.concurrent : (cuda ? 8 : cpu_threads);
  workers = std::max(1, std::min<int>(workers, int(cases.size())));
  AveragedRunOptions ro;
  ro.backend = cuda ? BackendKind::Cuda : BackendKind::Cpu;
  ro.threads = cuda ? 1 : std::max(1, cpu_threads / workers);  // from the whole sweep: the same in every call
  if (backend_used) *backend_used = backend_name(ro.backend);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (!have[i]) todo.push_back(i);
  const int pool_size = std::max(1, std::min<int>(workers, int(todo.size())));
  spdlog::info("sweep: {} cases on {}, {} at a time{}", todo.size(), backend_name(ro.backend), pool_size,
               cuda ? std::string(" (one CUDA stream each)") : fmt::format(" ({} threads each)", ro.threads));
  results.resize(cases.size());

  std::size_t next = 0, started = 0, done = cases.size() - todo.size();
  double longest = 0;  // the longest case finished in this call, seconds
  bool stopped = false;
  std::exception_ptr failure;
  std::mutex mutex;  // next, started, done, longest, stopped, the log and `finished`
  // The next case to run, or none: all taken, or the deadline too close for another.
  auto take = [&]() -> std::optional<std::size_t> {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped || next >= todo.size()) return std::nullopt;
    if (opt.deadline && started > 0) {
      const double expected = 1.1 * (longest > 0 ? longest : opt.expected_case_wall);
      if (Clock::now() + std::chrono::duration<double>(expected) > *opt.deadline) {
        stopped = true;
        return std::nullopt;
      }
    }
    ++started;
    return todo[next++];
  };
  auto worker = [&]() {
    while (const auto taken = take()) {
      const std::size_t i = *taken;
      const Case& c = cases[i];
      const auto t0 = Clock::now();
      CaseResult r;
      try {
        const LatticeUnits u = lattice_units(c);
        const auto body = make_body(c);
        const AveragedRun run = run_averaged(c, u, body.get(), ro);
        r = sample_case(c, u, run, s.grid, s.surface_points);
      } catch (const std::exception& e) {
        r.ok = false;
        r.error = e.what();
      }
      r.wall = std::chrono::duration<double>(Clock::now() - t0).count();
      {
        std::lock_guard<std::mutex> lock(mutex);
        const std::size_t n = ++done;
        longest = std::max(longest, r.wall);
        if (r.ok)
          spdlog::info("[{}/{}] {}: Cl {:.4f}, Cd {:.4f} in {:.2f} s", n, cases.size(), c.name, r.cl, r.cd,
                       r.seconds);
        else
          spdlog::warn("[{}/{}] {} failed: {}", n, cases.size(), c.name, r.error);
        if (finished && !failure) {
          try {
            finished(i, r);
          } catch (...) {  // keeping the case failed (a full disk): stop, and throw it after the join
            failure = std::current_exception();
            stopped = true;
          }
        }
      }
      results[i] = std::move(r);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 0; w < pool_size && !todo.empty(); ++w) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return started;
}

}  // namespace aerolbm::surrogate
