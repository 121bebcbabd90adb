// `aerolbm bench`: MLUPs of each kernel variant on a periodic box holding a Taylor–Green flow (real, non-zero
// data), timed with device events after a warm-up, median of repeats, beside the device copy bandwidth measured
// in the same process. Bytes per cell count every population read once and written once plus the flag byte.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "kernels/backend.hpp"
#include "src/app/bench_attention.hpp"
#include "src/app/bench_case.hpp"
#include "src/app/commands.hpp"
#include "src/case/case.hpp"
#include "src/io/json.hpp"
#include "src/parallel/parallel.hpp"
#include "src/solver/backend_select.hpp"

namespace aerolbm::app {
namespace {

struct BenchArgs {
  std::string lattice = "D2Q9";
  std::vector<std::string> precisions = {"fp32", "fp16s"};
  std::vector<std::string> variants = {"pull", "aa", "tiled"};
  std::vector<std::string> collisions = {"bgk"};  // the box's collision operators (lattice.collision spellings)
  std::vector<double> cells = {4e6};
  std::string backend = "cuda";
  int steps = 200;
  int repeats = 5;
  std::string json;
  std::string scaling = "weak";  // MPI runs: weak (--cells per rank) or strong (--cells in all)
  std::string ranks_grid;        // MPI runs: AxBxC, else chosen
  std::string case_file;         // --case: a real case beside the box (src/app/bench_case.cpp)
  std::vector<std::string> sets;
  std::int64_t frames_every = 0;
  std::string output_dir = "bench-output";
};

Stencil parse_stencil(const std::string& s) {
  if (const auto st = enum_from_name(kStencilNames, s)) return *st;
  throw InputError("--lattice: expected D2Q9, D3Q19 or D3Q27, got '" + s + "'");
}

// A box of about `cells` cells: square in 2D, cubic in 3D, x a multiple of 32 for whole warps.
DomainData box(Stencil s, double cells) {
  DomainData d;
  if (s == Stencil::D2Q9) {
    const auto side = std::int64_t(std::llround(std::sqrt(cells)));
    d.nx = std::max<std::int64_t>(32, side / 32 * 32);
    d.ny = std::max<std::int64_t>(8, std::llround(cells / double(d.nx)));
    d.nz = 1;
  } else {
    const auto side = std::int64_t(std::llround(std::cbrt(cells)));
    d.nx = std::max<std::int64_t>(32, side / 32 * 32);
    d.ny = std::max<std::int64_t>(8, side);
    d.nz = std::max<std::int64_t>(8, std::llround(cells / double(d.nx * d.ny)));
  }
  d.flags.assign(d.cells(), cell::fluid);
  d.link.assign(d.cells(), -1);
  return d;
}

int run_bench(const BenchArgs& a_in) {
  // Under mpirun: the box (weak: --cells per rank, stacked; strong: --cells in all) is split over the
  // ranks, one GPU each, and run with the halo exchange of a real run; only pull applies. Rank 0 prints.
  const std::shared_ptr<RankContext> ranks = start_ranks();
  BenchArgs a = a_in;
  RanksGrid ranks_grid{0, 0, 0};
  if (ranks) {
    a.variants = {"pull"};
    if (!a.ranks_grid.empty()) ranks_grid = parse_ranks_grid(a.ranks_grid);
    if (ranks->rank() != 0) std::freopen("/dev/null", "w", stdout);
  }
  const Stencil st = parse_stencil(a.lattice);
  const int Q = lattice_q(st);
  const BackendKind backend = parse_backend(a.backend);
  const bool gpu = backend == BackendKind::Cuda;
  if (gpu && cuda_device_count() == 0)
    throw BackendUnavailable("bench --backend cuda: " + cuda_device_summary() + ". Use --backend cpu.");
  PhysicsParams p;
  p.collision = Collision::BGK;
  p.tau = 0.6;
  for (auto& f : p.faces) f = FaceBC::Periodic;
  p.wall = WallModel::HalfwayBounceBack;
  p.taylor_green_amplitude = 0.05;

  const double copy_gbs = gpu ? cuda_copy_bandwidth_gbs(std::size_t(1) << 30, 10)
                              : host_copy_bandwidth_gbs(std::size_t(1) << 28, 10);  // same threads as the backend
  std::printf("aerolbm bench: %s, %s backend%s\n", a.lattice.c_str(), a.backend.c_str(),
              gpu ? (", " + cuda_device_summary()).c_str() : "");
  if (ranks)
    std::printf("MPI: %d ranks, %s scaling (%s), times: wall clock between barriers, slowest rank; MLUPs of the "
                "whole grid\n",
                ranks->size(), a.scaling.c_str(),
                a.scaling == "weak" ? (gpu ? "--cells per rank, blocks stacked along the outermost axis"
                                           : "--cells per rank, blocks stacked along x")
                                    : "--cells split over the ranks");
  std::printf(gpu ? "device copy bandwidth (1 GiB cudaMemcpy, read + write): %.0f GB/s\n"
                  : "host copy bandwidth (256 MiB memcpy split over the OpenMP threads, read + write): %.1f GB/s\n",
              copy_gbs);
  std::printf("%-8s %-7s %12s %8s %10s %9s %9s %7s\n", "variant", "storage", "cells", "steps", "MLUPs", "B/cell",
              "GB/s", "% copy");
  Json rows = Json::array();
  for (double n : a.cells) {
    DomainData d = box(st, n);
    if (ranks && a.scaling == "weak") {
      // Stacked along the axis the default split cuts: x for CPU ranks, the outermost axis for GPU ranks (their
      // faces are whole planes in memory), so each rank's block is the box itself with two faces of its size.
      (!gpu ? d.nx : st == Stencil::D2Q9 ? d.ny : d.nz) *= ranks->size();
      d.flags.assign(d.cells(), cell::fluid);
      d.link.assign(d.cells(), -1);
    }
    for (const auto& prec : a.precisions) {
      for (const auto& coll : a.collisions)
      for (const auto& var : a.variants) {
        p.collision = enum_from_name(kCollisionNames, coll).value_or(Collision::BGK);
        // The label: the variant, and the operator where it is not BGK (pull+kbc).
        const std::string label = coll == "bgk" ? var : var + "+" + coll;
        BackendConfig cfg;
        cfg.stencil = st;
        cfg.precision = enum_from_name(kPrecisionNames, prec).value_or(Precision::FP32);
        cfg.kernel = *enum_from_name(kKernelNames, var);
        std::unique_ptr<Backend> b;
        try {
          if (ranks) {
            DistributedConfig dc;
            dc.backend = backend;
            const std::int64_t n[3] = {d.nx, d.ny, d.nz};
            dc.ranks_grid = choose_ranks_grid(n, dimensions(st), ranks->size(), ranks_grid, gpu);
            dc.print = true;  // rank 0 logs the split and halo transport, and the exchange time per step at the end
            b = make_distributed_backend(*ranks, dc, cfg, d, p).backend;
          } else {
            b = gpu ? make_cuda_backend(cfg, d, p) : make_cpu_backend(cfg, d, p);
          }
        } catch (const std::invalid_argument& e) {
          std::printf("%-8s %-7s skipped: %s\n", label.c_str(), prec.c_str(), e.what());
          continue;
        }
        b->initialize();
        b->timed_run(a.steps);  // warm-up (also captures the CUDA graph)
        std::vector<double> t;
        for (int r = 0; r < a.repeats; ++r) t.push_back(b->timed_run(a.steps));
        std::sort(t.begin(), t.end());
        const double med = t[t.size() / 2];
        const double mlups = double(d.cells()) * a.steps / med * 1e-6;
        const int bytes_per_value = prec == "fp16s" ? 2 : (prec == "fp64" ? 8 : 4);
        const double bytes = 2.0 * Q * bytes_per_value + 1.0;
        const double gbs = mlups * 1e6 * bytes * 1e-9;
        const double pct = copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0;
        std::printf("%-8s %-7s %12lld %8d %10.0f %9.0f %9.0f %6.1f%%\n", label.c_str(), prec.c_str(),
                    static_cast<long long>(d.cells()), a.steps, mlups, bytes, gbs, pct);
        std::fflush(stdout);
        Json row = Json::object();
        row.set("variant", var);
        row.set("collision", coll);
        row.set("storage", prec);
        row.set("nx", d.nx);
        row.set("ny", d.ny);
        row.set("nz", d.nz);
        row.set("cells", d.cells());
        row.set("steps", a.steps);
        row.set("repeats", a.repeats);
        row.set("median_s", med);
        row.set("mlups", mlups);
        row.set("bytes_per_cell", bytes);
        row.set("effective_gbs", gbs);
        row.set("percent_of_copy", pct);
        rows.push_back(row);
      }
    }
  }
  if (!a.json.empty() && (!ranks || ranks->root())) {
    Json doc = Json::object();
    doc.set("lattice", a.lattice);
    doc.set("backend", a.backend);
    doc.set("device", gpu ? cuda_device_summary() : std::string("cpu"));
    doc.set("copy_bandwidth_gbs", copy_gbs);
    doc.set("mpi_ranks", ranks ? ranks->size() : 1);
    doc.set("scaling", ranks ? a.scaling : std::string("none"));
    doc.set("results", rows);
    write_json_atomically(a.json, doc);
  }
  return kOk;
}

}  // namespace

void add_bench_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("bench", "Measure MLUPs of the kernel variants against the device copy bandwidth");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("--lattice", a->lattice, "D2Q9 | D3Q19 | D3Q27")->capture_default_str();
  cmd->add_option("--precision", a->precisions, "Storage: fp32, fp16s (CUDA), fp64 (CPU); repeatable")
      ->delimiter(',')->capture_default_str();
  cmd->add_option("--variants", a->variants, "Kernel variants: pull, aa, tiled")
      ->delimiter(',')
      ->check(CLI::IsMember(enum_names(kKernelNames)))
      ->capture_default_str();
  cmd->add_option("--collision", a->collisions, "Collision operators of the box: bgk, trt, kbc (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(enum_names(kCollisionNames)))
      ->capture_default_str();
  cmd->add_option("--cells", a->cells, "Grid sizes in cells (comma-separated)")->delimiter(',')->capture_default_str();
  cmd->add_option("--backend", a->backend, "cuda | cpu")->check(CLI::IsMember({"cuda", "cpu"}))->capture_default_str();
  cmd->add_option("--steps", a->steps, "Steps per timed repeat")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--repeats", a->repeats, "Timed repeats (the median is reported)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--json", a->json, "Also write the results as JSON to this file");
  cmd->add_option("--scaling", a->scaling, "Under mpirun: weak (--cells per rank) or strong (--cells in all)")
      ->check(CLI::IsMember({"weak", "strong"}))->capture_default_str();
  cmd->add_option("--ranks-grid", a->ranks_grid, "Under mpirun: ranks along x, y, z as AxBxC (default: chosen)");
  auto* precision_opt = cmd->get_option("--precision");
  auto* variants_opt = cmd->get_option("--variants");
  cmd->add_option("--case", a->case_file,
                  "Time this case (its grid, boundaries and force samples, no field output) beside the periodic box "
                  "of the same lattice, storage and size; --precision and --variants default to the case's own");
  cmd->add_option("--set", a->sets, "With --case: override a case key, key.path=value (repeatable)");
  cmd->add_option("--frames-every", a->frames_every,
                  "With --case: also time the run loop with a frame every N steps against none, and the disk's write "
                  "bandwidth in --output afterwards");
  cmd->add_option("--output", a->output_dir, "With --frames-every: the folder the frames go to (emptied)")
      ->capture_default_str();
  // `aerolbm bench attention ...`: the fused attention kernel instead of the LBM kernels.
  CLI::App* attention = add_bench_attention_command(*cmd, status);
  cmd->require_subcommand(0, 1);
  cmd->callback([&status, a, attention, precision_opt, variants_opt]() {
    if (attention->parsed()) return;
    status = exit_status("bench", [&] {
      if (!a->case_file.empty()) {
        BenchCaseArgs c;
        c.file = a->case_file;
        c.sets = a->sets;
        if (precision_opt->count() > 0) c.precisions = a->precisions;
        if (variants_opt->count() > 0) c.variants = a->variants;
        c.backend = a->backend;
        c.steps = a->steps;
        c.repeats = a->repeats;
        c.json = a->json;
        c.frames_every = a->frames_every;
        c.output_dir = a->output_dir;
        return run_bench_case(c);
      }
      return run_bench(*a);
    });
  });
}

}  // namespace aerolbm::app
