// The mean fields (output.averages) against the physics they average:
//  - a decaying Taylor–Green vortex, whose velocity is A(x)·e^(−λt) in every cell (λ = 2νk²): over samples at
//    steps t_i the mean is A(x)·mean(e^(−λt_i)) and the RMS fluctuation |A(x)|·std(e^(−λt_i)); and the
//    backend's running statistics equal the two-pass mean and RMS of the same fields read to the host at every
//    sample;
//  - a converged (steady) Poiseuille channel through a whole `aerolbm run`: the mean frame in RUN/mean/ equals the
//    last frame bit for bit, every RMS is 0, the files have the grid's shapes and the window's attributes, and
//    `aerolbm compare` reads and compares them;
//  - a run continued from a checkpoint inside the window averages from the checkpoint on and says so.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "src/compare/comparison.hpp"
#include "src/compare/run_folder.hpp"
#include "src/io/checkpoint.hpp"
#include "src/io/hdf5_reader.hpp"
#include "src/solver/backend_select.hpp"
#include "src/solver/simulation.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

const char* test_backend() {
  const char* env = std::getenv("AEROLBM_TEST_BACKEND");
  return env ? env : "cpu";
}

TEST(MeanFields, TaylorGreenMeanIsTheAnalyticTimeAverage) {
  const auto file = write_temp_case("mean_taylor_green",
                                    "schema_version: 1\n"
                                    "case: {name: tg}\n"
                                    "physics: {reynolds: 50, mach: 0.1}\n"
                                    "geometry: {type: none, reference_cells: 32}\n"
                                    "domain: {size_chords: [1, 1], body_position_chords: [0.5, 0.5]}\n"
                                    "lattice: {stencil: D2Q9, collision: trt}\n"
                                    "boundaries: {inlet: periodic, outlet: periodic, lateral: periodic}\n"
                                    "output: {every: 0}\n");
  const Case c = load_case(file);
  const LatticeUnits u = lattice_units(c);
  const auto body = make_body(c);
  const DomainData d = build_domain(c, u, body.get());
  PhysicsParams p = physics_params(c, u);
  p.taylor_green_amplitude = 0.05;
  BackendConfig cfg;
  cfg.threads = 2;
  auto b = std::string(test_backend()) == "cuda" ? make_cuda_backend(cfg, d, p) : make_cpu_backend(cfg, d, p);
  b->initialize();
  std::vector<float> rho0, u0;
  b->macroscopic(rho0, u0);  // A(x): the initial field

  // Samples every 10 steps from step 100 to 400: the amplitude falls by e^(−1.1) over the window.
  const std::int64_t every = 10, start = 100, end = 400;
  std::vector<std::int64_t> steps;
  std::vector<std::vector<float>> rho_s, u_s;  // the same samples on the host, for the two-pass statistics
  for (std::int64_t s = every; s <= end; s += every) {
    b->run(every);
    if (s < start) continue;
    b->sample_averages();
    steps.push_back(s);
    rho_s.emplace_back();
    u_s.emplace_back();
    b->macroscopic(rho_s.back(), u_s.back());
  }
  FieldAverages a;
  b->read_averages(a);
  const std::int64_t cells = d.cells();
  const std::size_t N = steps.size();
  ASSERT_EQ(a.samples, std::int64_t(N));
  ASSERT_EQ(a.mean.size(), std::size_t(4 * cells));

  // 1. The running statistics are the two-pass ones of the same float values.
  double worst_mean = 0, worst_m2 = 0;
  for (std::int64_t n = 0; n < cells; ++n)
    for (int q = 0; q < 4; ++q) {
      double mean = 0, m2 = 0;
      for (std::size_t i = 0; i < N; ++i) mean += q == 0 ? rho_s[i][n] : u_s[i][3 * n + q - 1];
      mean /= double(N);
      for (std::size_t i = 0; i < N; ++i) {
        const double x = q == 0 ? rho_s[i][n] : u_s[i][3 * n + q - 1];
        m2 += (x - mean) * (x - mean);
      }
      const std::size_t k = std::size_t(q * cells + n);
      worst_mean = std::max(worst_mean, std::abs(a.mean[k] - mean));
      worst_m2 = std::max(worst_m2, std::abs(std::sqrt(a.m2[k] / N) - std::sqrt(m2 / N)));
    }
  std::printf("Taylor-Green, %zu samples: running vs two-pass statistics, largest difference: mean %.2e, RMS %.2e\n",
              N, worst_mean, worst_m2);
  EXPECT_LT(worst_mean, 1e-15);
  EXPECT_LT(worst_m2, 1e-12);

  // 2. Against the analytic decay: u(x, t) = A(x) e^(−λt), λ = ν (kx² + ky²), k = 2π/32. The lattice's own decay
  //    rate differs from the continuum's by its discretisation error on a 32-cell vortex: measured 0.52 % in the
  //    mean and 0.95 % in the RMS (0.48 % and 0.69 % with a fifth of the amplitude, so not the start-up's sound
  //    waves). A mean of the wrong samples, a missing 1/N or a variance about the wrong mean misses by far more.
  const double k = 2 * std::numbers::pi / double(d.nx);
  const double lambda = u.nu_lattice * 2 * k * k;
  double gbar = 0, g2 = 0;
  for (std::int64_t s : steps) gbar += std::exp(-lambda * double(s)) / double(N);
  for (std::int64_t s : steps) g2 += std::pow(std::exp(-lambda * double(s)) - gbar, 2) / double(N);
  const double gstd = std::sqrt(g2);
  double em = 0, nm = 0, er = 0, nr = 0;
  for (std::int64_t n = 0; n < cells; ++n)
    for (int c2 = 0; c2 < 2; ++c2) {
      const double A = u0[3 * n + c2];
      const std::size_t q = std::size_t((c2 + 1) * cells + n);
      em += std::pow(a.mean[q] - A * gbar, 2);
      nm += std::pow(A * gbar, 2);
      er += std::pow(std::sqrt(a.m2[q] / N) - std::abs(A) * gstd, 2);
      nr += std::pow(A * gstd, 2);
    }
  const double mean_error = std::sqrt(em / nm), rms_error = std::sqrt(er / nr);
  std::printf("Taylor-Green mean over steps %lld-%lld: mean(e^-lt) %.5f, std %.5f; relative L2 error of the mean "
              "velocity %.2e, of its RMS %.2e\n",
              (long long)steps.front(), (long long)steps.back(), gbar, gstd, mean_error, rms_error);
  EXPECT_LT(mean_error, 1e-2);
  EXPECT_LT(rms_error, 2e-2);
}

// A channel driven by a body force between walls, periodic along x: converged long before the window.
std::filesystem::path channel_case(const std::string& name) {
  const int H = 16;
  const double tau = 0.8, u = 0.1 / std::sqrt(3.0), nu = (tau - 0.5) / 3.0;
  const double g = 8.0 * nu * 0.02 / (double(H) * H);
  return write_temp_case(name,
                         "schema_version: 1\n"
                         "case: {name: mean_channel}\n"
                         "physics: {reynolds: " + std::to_string(u * H / nu) + ", mach: 0.1, body_force: [" +
                             std::to_string(g) + ", 0]}\n"
                         "geometry: {type: none, reference_cells: 16}\n"
                         "domain: {size_chords: [0.5, 1], body_position_chords: [0.25, 0.5]}\n"
                         "lattice: {stencil: D2Q9, collision: trt, precision: fp64}\n"
                         "boundaries: {inlet: periodic, outlet: periodic, lateral: wall}\n"
                         "time: {steps: 12000, average_last: 5}\n"
                         "output: {every: 12000, formats: [hdf5, vtk], averages: {enabled: true, every: 20}}\n"
                         "checkpoint: {every: 0}\n");
}

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "aerolbm_validation" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

RunResult run_into(const std::filesystem::path& file, const std::filesystem::path& dir,
                   const std::vector<std::string>& sets = {}, const std::filesystem::path& restart = {}) {
  const Case c = load_case(file, sets);
  const LatticeUnits u = lattice_units(c);
  RunOptions opt;
  opt.solver.backend = parse_backend(test_backend());
  opt.output_dir = dir;
  opt.solver.threads = 2;
  opt.progress = false;
  Simulation sim(c, u, make_body(c), opt);
  if (!restart.empty()) sim.resume(read_checkpoint(restart));
  return sim.run();
}

TEST(MeanFields, SteadyChannelMeanIsItsLastFrameAndCompareReadsIt) {
  const auto file = channel_case("mean_channel");
  const auto dir = fresh_dir("mean_channel");
  run_into(file, dir);
  const LatticeUnits u = lattice_units(load_case(file));

  // The files: the mean frame in HDF5 (+ XDMF) and VTK, with the window's attributes.
  for (const char* f : {"mean/fields.h5", "mean/fields.xdmf", "mean/fields/frame_000000.h5", "mean/fields.pvd",
                        "mean/vtk/fields_000000.vti"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  const std::int64_t start = u.total_steps - u.average_steps;
  const std::int64_t first = (start + 19) / 20 * 20;
  const std::int64_t samples = (u.total_steps - first) / 20 + 1;
  const h5::Reader h5(dir / "mean/fields/frame_000000.h5");
  EXPECT_EQ(h5.attr_doubles("/", "samples").value().at(0), double(samples));
  EXPECT_EQ(h5.attr_doubles("/", "sample_every_steps").value().at(0), 20.0);
  EXPECT_EQ(h5.attr_doubles("/", "first_sample_step").value().at(0), double(first));
  EXPECT_EQ(h5.attr_doubles("/", "last_sample_step").value().at(0), double(u.total_steps));
  EXPECT_NEAR(h5.attr_doubles("/", "window_start_time").value().at(0), double(start) * u.dt, 1e-12);
  EXPECT_EQ(h5.attr_doubles("/", "restarted_from_step").value().at(0), -1.0);
  EXPECT_EQ(h5.attr_int("/", "step").value(), u.total_steps);

  // Read back as compare reads it: the shapes are checked on loading (nz, ny, nx[, 3]).
  const RunFolder r = load_run_folder(dir);
  ASSERT_NE(r.mean, nullptr);
  ASSERT_EQ(r.mean->frames.size(), 1u);
  const FrameEntry& mf = r.mean->frames.front();
  EXPECT_EQ(mf.fields, (std::vector<std::string>{"velocity", "pressure", "velocity_rms", "pressure_rms", "mask"}));
  EXPECT_EQ(r.mean_samples, samples);
  EXPECT_EQ(field_components(*r.mean, mf, "velocity_rms"), 3);
  const std::vector<float> mean_u = read_field(*r.mean, mf, "velocity");
  ASSERT_EQ(mean_u.size(), std::size_t(3 * u.nx * u.ny));
  // Steady: the mean is the last frame and nothing fluctuates, to round-off. (The streamwise velocity and the
  // pressure are equal bit for bit; the cross-stream velocity, 0 in exact arithmetic, is round-off of 1e-18 that
  // changes from step to step.)
  const std::vector<float> last_u = read_field(r, r.frames.back(), "velocity");
  float peak = 0, largest_diff = 0, largest_rms = 0;
  for (std::size_t n = 0; n < mean_u.size(); ++n) largest_diff = std::max(largest_diff, std::abs(mean_u[n] - last_u[n]));
  for (std::size_t n = 0; n < mean_u.size(); n += 3) {
    peak = std::max(peak, mean_u[n]);
    EXPECT_EQ(mean_u[n], last_u[n]) << "streamwise velocity, cell " << n / 3;
  }
  EXPECT_EQ(read_field(*r.mean, mf, "pressure"), read_field(r, r.frames.back(), "pressure"));
  for (const char* f : {"velocity_rms", "pressure_rms"})
    for (float v : read_field(*r.mean, mf, f)) largest_rms = std::max(largest_rms, std::abs(v));
  std::printf("steady channel: %lld samples, peak mean u/U %.5f, largest |mean - last frame| %.3g, largest RMS "
              "%.3g\n", (long long)samples, peak, largest_diff, largest_rms);
  EXPECT_GT(peak, 0.3);  // the parabola's peak, 0.02 / u_lattice = 0.35
  EXPECT_LT(largest_diff, 1e-12f);
  EXPECT_LT(largest_rms, 1e-12f);

  // compare: a run against itself agrees, mean fields included; against a run without them it says so.
  const Comparison same = compare_runs(r, r, CompareOptions{});
  EXPECT_TRUE(same.mean_compared);
  ASSERT_EQ(same.mean.fields.size(), 4u);
  for (const auto& f : same.mean.fields) EXPECT_EQ(f.error.max_abs, 0.0) << f.field;
  EXPECT_TRUE(same.agree) << same.verdict;
  EXPECT_NE(same.verdict.find("the mean fields"), std::string::npos) << same.verdict;
  const auto plain_dir = fresh_dir("mean_channel_plain");
  run_into(file, plain_dir, {"output.averages.enabled=false", "time.steps=400"});
  const RunFolder plain = load_run_folder(plain_dir);
  EXPECT_EQ(plain.mean, nullptr);
  const Comparison one = compare_runs(r, plain, CompareOptions{});
  EXPECT_FALSE(one.mean_compared);
  EXPECT_NE(one.mean_note.find("B has no mean/fields.h5"), std::string::npos) << one.mean_note;
}

// The statistics are not in checkpoint.h5: a run continued inside the window averages from the checkpoint's step.
TEST(MeanFields, RestartInsideTheWindowAveragesFromTheCheckpoint) {
  const auto file = channel_case("mean_restart");
  const auto dir = fresh_dir("mean_restart");
  run_into(file, dir, {"time.steps=600", "time.average_last=3", "checkpoint.every=300"});
  run_into(file, dir, {"time.steps=1000", "time.average_last=3", "checkpoint.every=300"}, dir / "checkpoint.h5");
  const h5::Reader h5(dir / "mean/fields/frame_000000.h5");
  EXPECT_EQ(h5.attr_doubles("/", "restarted_from_step").value().at(0), 600.0);
  EXPECT_EQ(h5.attr_doubles("/", "first_sample_step").value().at(0), 620.0);
  EXPECT_EQ(h5.attr_doubles("/", "samples").value().at(0), 20.0);  // 620, 640, ..., 1000
  const RunFolder r = load_run_folder(dir);
  ASSERT_NE(r.mean, nullptr);
  EXPECT_EQ(r.mean_samples, 20);
}

}  // namespace
}  // namespace aerolbm::testing
