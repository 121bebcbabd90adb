// `aerolbm bench --case`: a case as users run it, timed on the device (CUDA events; the wall clock on the CPU)
// after a warm-up, median of repeats: the steps with the force samples the case file asks for (every forces.every
// steps, per near-wall cell for 3D bodies, queued as in a run), no field output. Beside it the periodic
// Taylor–Green box of the same lattice, storage and cell count (the figure `aerolbm bench` reports) and the copy
// bandwidth, all in this process.
#include "src/app/bench_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "kernels/backend.hpp"
#include "src/app/commands.hpp"
#include "src/case/case.hpp"
#include "src/case/units.hpp"
#include "src/case/make_body.hpp"
#include "src/io/json.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/case_backend.hpp"
#include "src/solver/refined_levels.hpp"
#include "src/io/disk_bandwidth.hpp"
#include "src/solver/domain.hpp"
#include "src/solver/simulation.hpp"

namespace aerolbm::app {
namespace {


Precision parse_precision(const std::string& s) {
  if (const auto p = enum_from_name(kPrecisionNames, s)) return *p;
  throw CaseError("--precision: expected fp32, fp16s or fp64, got '" + s + "'.");
}

// The periodic box of `cells` cells (shape as `aerolbm bench`: square or cubic, x a multiple of 32) holding a
// Taylor–Green flow.
DomainData box_domain(Stencil s, std::int64_t cells) {
  DomainData d;
  if (s == Stencil::D2Q9) {
    const auto side = std::int64_t(std::llround(std::sqrt(double(cells))));
    d.nx = std::max<std::int64_t>(32, side / 32 * 32);
    d.ny = std::max<std::int64_t>(8, std::llround(double(cells) / double(d.nx)));
  } else {
    const auto side = std::int64_t(std::llround(std::cbrt(double(cells))));
    d.nx = std::max<std::int64_t>(32, side / 32 * 32);
    d.ny = std::max<std::int64_t>(8, side);
    d.nz = std::max<std::int64_t>(8, std::llround(double(cells) / double(d.nx * d.ny)));
  }
  d.flags.assign(std::size_t(d.cells()), cell::fluid);
  d.link.assign(std::size_t(d.cells()), -1);
  return d;
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The case through the run loop as `aerolbm run` runs it (force samples, watchdog, frames every `every` steps, no
// checkpoints, no progress line), `steps` steps, into `dir` (emptied first). Wall-clock seconds of the loop, the
// writer's bytes and its frames in flight are in the result.
RunResult run_loop(const Case& c0, const BenchCaseArgs& a, std::int64_t every, const std::filesystem::path& dir) {
  Case c = c0;
  c.output_every = every;
  c.checkpoint_every = 0;
  LatticeUnits u = lattice_units(c);
  u.total_steps = a.steps;
  u.average_steps = std::min(u.average_steps, std::int64_t(a.steps));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  RunOptions opt;
  opt.solver.backend = parse_backend(a.backend);
  opt.output_dir = dir;
  opt.progress = false;
  Simulation sim(c, u, make_body(c), opt);
  return sim.run();
}

void bench_output(const Case& c, const BenchCaseArgs& a, std::int64_t cells) {
  const std::filesystem::path dir = std::filesystem::path(a.output_dir) / "run";
  const RunResult plain = run_loop(c, a, 0, dir);
  const RunResult framed = run_loop(c, a, a.frames_every, dir);
  const double bytes = double(framed.frame_bytes);
  // After the run, in the same folder: at least 2 GiB, and at least what the run wrote, so a write cache does not
  // flatter the disk.
  const std::size_t probe = std::max<std::size_t>(std::size_t(2) << 30, std::size_t(bytes));
  const DiskBandwidth disk = measure_disk_write_bandwidth(a.output_dir, probe);
  std::filesystem::remove_all(dir);
  const double written_mbs = bytes / 1e6 / framed.wall_seconds;
  const double floor_s = bytes / 1e6 / disk.mb_per_s;  // the fastest the disk can take these bytes
  std::printf("run loop, %d steps, %lld cells: no frames %.3f s (%.0f MLUPs); a frame every %lld steps %.3f s "
              "(%.0f MLUPs, %d frames, %.1f MB written, %.0f MB/s, up to %d frames in flight): cost %.1f %% of the "
              "no-frame rate\n",
              a.steps, static_cast<long long>(cells), plain.wall_seconds, plain.mlups,
              static_cast<long long>(a.frames_every), framed.wall_seconds, framed.mlups, framed.frames, bytes / 1e6,
              written_mbs, framed.frames_in_flight, 100.0 * (1.0 - framed.mlups / plain.mlups));
  std::printf("disk write bandwidth (%s, %.0f MB with fdatasync): %.0f MB/s; the frames' bytes at that rate take "
              "%.3f s: the run took %.2fx that (%.0f %% of the disk's rate)\n",
              std::filesystem::absolute(a.output_dir).string().c_str(), double(disk.bytes) / 1e6, disk.mb_per_s,
              floor_s, framed.wall_seconds / floor_s, 100.0 * written_mbs / disk.mb_per_s);
}

}  // namespace

int run_bench_case(const BenchCaseArgs& a) {
  const Case c = load_case(a.file, a.sets);
  const LatticeUnits u = lattice_units(c);
  const auto body = make_body(c);
  const DomainData d = build_domain(c, u, body.get());
  PhysicsParams p = physics_params(c, u);
  p.ramp_steps = 0;  // the steps a run takes once the inflow ramp is over (during it they are launched one by one)
  const BackendKind backend = parse_backend(a.backend);
  const bool gpu = backend == BackendKind::Cuda;
  if (gpu && cuda_device_count() == 0)
    throw BackendUnavailable("bench --backend cuda: " + cuda_device_summary() + ". Use --backend cpu.");
  const int Q = lattice_q(c.stencil);
  const std::int64_t K = std::max<std::int64_t>(1, c.forces_every);
  const bool per_cell = body != nullptr;  // as Simulation: a body's moments come from its per-cell forces
  std::vector<std::string> precisions = a.precisions, variants = a.variants;
  if (precisions.empty()) precisions = {precision_name(c.precision)};
  if (variants.empty())
    variants = {kernel_name(c.kernel == KernelVariant::Auto ? KernelVariant::Pull : c.kernel)};

  PhysicsParams bp;  // the box: BGK, periodic, a Taylor–Green vortex (as `aerolbm bench`)
  bp.collision = Collision::BGK;
  bp.tau = 0.6;
  for (auto& f : bp.faces) f = FaceBC::Periodic;
  bp.wall = WallModel::HalfwayBounceBack;
  bp.taylor_green_amplitude = 0.05;
  // Refined levels: every level's own cells times its sub-steps per step (the updates the MLUPs count), and the
  // box of that many cells.
  std::int64_t updates = d.cells();
  if (!c.refinement_boxes.empty())
    updates = cell_updates_per_step(*make_case_backend(backend, backend_config(c, 0), c, u, d, p), d);
  const DomainData box = box_domain(c.stencil, updates);

  const double copy_gbs = gpu ? cuda_copy_bandwidth_gbs(std::size_t(1) << 30, 10)
                              : host_copy_bandwidth_gbs(std::size_t(1) << 28, 10);
  std::printf("aerolbm bench --case %s: %s, %lld x %lld x %lld = %lld cells, %zu near-wall cells, forces every %lld "
              "steps%s, %s backend%s\n",
              a.file.c_str(), stencil_name(c.stencil), static_cast<long long>(d.nx), static_cast<long long>(d.ny),
              static_cast<long long>(d.nz), static_cast<long long>(d.cells()), d.wall_cells.size(),
              static_cast<long long>(K), per_cell ? " (per cell)" : "", a.backend.c_str(),
              gpu ? (", " + cuda_device_summary()).c_str() : "");
  if (gpu) std::printf("device copy bandwidth (1 GiB cudaMemcpy, read + write): %.0f GB/s\n", copy_gbs);
  else std::printf("host copy bandwidth (256 MiB memcpy split over the OpenMP threads, read + write): %.1f GB/s\n",
                   copy_gbs);
  if (updates != d.cells())
    std::printf("refined: %zu levels, %lld cell updates per step (every level's own cells times its sub-steps)\n",
                c.refinement_boxes.size() + 1, static_cast<long long>(updates));
  std::printf("box: periodic %lld x %lld x %lld, BGK, Taylor-Green\n", static_cast<long long>(box.nx),
              static_cast<long long>(box.ny), static_cast<long long>(box.nz));
  std::printf("%-8s %-7s %8s %11s %11s %7s %9s %7s\n", "variant", "storage", "steps", "case MLUPs", "box MLUPs",
              "ratio", "case GB/s", "% copy");
  Json rows = Json::array();
  for (const auto& prec : precisions) {
    for (const auto& var : variants) {
      BackendConfig cfg = backend_config(c, 0);
      cfg.precision = parse_precision(prec);
      cfg.kernel = *enum_from_name(kKernelNames, var);
      std::unique_ptr<Backend> cb, bb;
      try {
        cb = make_case_backend(backend, cfg, c, u, d, p);
        bb = select_backend(backend, cfg, box, bp);
      } catch (const std::exception& e) {
        std::printf("%-8s %-7s skipped: %s\n", var.c_str(), prec.c_str(), e.what());
        continue;
      }
      // The case: chunks of K steps, each followed by a queued force sample, as Simulation::run does.
      cb->initialize();
      auto case_steps = [&](std::int64_t steps) {
        for (std::int64_t s = 0; s < steps; s += K) {
          cb->queue_steps(std::min(K, steps - s));
          cb->queue_force_sample(per_cell);
        }
      };
      std::int64_t samples = 0;
      bool finite = true;
      auto check_samples = [&]() {
        for (const auto& f : cb->take_force_samples()) {
          ++samples;
          for (double v : f.total) finite = finite && std::isfinite(v);
        }
      };
      cb->timed([&] { case_steps(a.steps); });  // warm-up (captures the CUDA graphs)
      check_samples();
      std::vector<double> tc, tb;
      for (int r = 0; r < a.repeats; ++r) {
        tc.push_back(cb->timed([&] { case_steps(a.steps); }));
        check_samples();
      }
      const std::string kernel = cb->kernel();
      // Refined levels: each level's own steps alone (level ℓ: 2^ℓ per step of level 0, no coupling), timed the
      // same way after the case's; the rest of the case's time is the interfaces' (hand-over and its waits).
      double levels_alone = 0;
      if (auto* r = dynamic_cast<RefinedLevels*>(cb.get())) {
        for (int l = 0; l < r->levels(); ++l) {
          std::vector<double> t;
          for (int k = 0; k < a.repeats; ++k) t.push_back(r->backend(l).timed_run(std::int64_t(a.steps) << l));
          levels_alone += median(t);
        }
      }
      cb.reset();
      bb->initialize();
      bb->timed_run(a.steps);
      for (int r = 0; r < a.repeats; ++r) tb.push_back(bb->timed_run(a.steps));
      bb.reset();
      const double case_mlups = double(updates) * a.steps / median(tc) * 1e-6;
      const double box_mlups = double(box.cells()) * a.steps / median(tb) * 1e-6;
      const int bytes_per_value = prec == "fp16s" ? 2 : (prec == "fp64" ? 8 : 4);
      const double bytes = 2.0 * Q * bytes_per_value + 1.0;
      const double gbs = case_mlups * 1e6 * bytes * 1e-9;
      const double pct = copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0;
      std::printf("%-8s %-7s %8d %11.0f %11.0f %6.1f%% %9.0f %6.1f%%%s\n", var.c_str(), prec.c_str(), a.steps,
                  case_mlups, box_mlups, 100.0 * case_mlups / box_mlups, gbs, pct,
                  finite ? "" : "  (non-finite forces: the case diverged)");
      if (levels_alone > 0)
        std::printf("         the levels' own steps alone: %.4f s of the case's %.4f s; the interfaces %.1f %%\n",
                    levels_alone, median(tc), 100.0 * (1.0 - levels_alone / median(tc)));
      std::fflush(stdout);
      Json row = Json::object();
      row.set("variant", var);
      row.set("storage", prec);
      row.set("kernel", kernel);
      row.set("steps", a.steps);
      row.set("repeats", a.repeats);
      row.set("force_samples", samples);
      row.set("case_mlups", case_mlups);
      row.set("box_mlups", box_mlups);
      row.set("ratio", case_mlups / box_mlups);
      row.set("case_effective_gbs", gbs);
      row.set("percent_of_copy", pct);
      row.set("forces_finite", finite);
      if (levels_alone > 0) row.set("interface_share", 1.0 - levels_alone / median(tc));
      rows.push_back(row);
    }
  }
  if (a.frames_every > 0) bench_output(c, a, updates);
  if (!a.json.empty()) {
    Json doc = Json::object();
    doc.set("case", c.name);
    doc.set("file", a.file);
    doc.set("lattice", stencil_name(c.stencil));
    doc.set("nx", d.nx);
    doc.set("ny", d.ny);
    doc.set("nz", d.nz);
    doc.set("cells", d.cells());
    doc.set("cell_updates_per_step", updates);
    doc.set("refined_levels", std::int64_t(c.refinement_boxes.size() + 1));
    doc.set("box_nx", box.nx);
    doc.set("box_ny", box.ny);
    doc.set("box_nz", box.nz);
    doc.set("near_wall_cells", std::int64_t(d.wall_cells.size()));
    doc.set("forces_every", K);
    doc.set("backend", a.backend);
    doc.set("device", gpu ? cuda_device_summary() : std::string("cpu"));
    doc.set("copy_bandwidth_gbs", copy_gbs);
    doc.set("results", rows);
    write_json_atomically(a.json, doc);
  }
  return kOk;
}

}  // namespace aerolbm::app
