// The surface output's values (src/io/surface_values.hpp) and its 2D table (surface_csv_writer.cpp): C_f from a
// known shear flow (the viscous sublayer, τ_w = μ u_t / y, and the log region, Spalding's law), the wall shear's
// direction and sign, outward normals on an outline run either way round, and the table a frame writes.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "kernels/backend.hpp"
#include "kernels/physics/params.hpp"
#include "kernels/physics/wall_function.hpp"
#include "src/io/surface_values.hpp"
#include "src/solver/surface_probe.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm {
namespace {

// A 2D grid of n × n fluid cells; the frame's velocity is u/U = (a (y − y_wall), v, 0) at the cell centres
// (y = j + ½) and Cp = cp everywhere.
struct ShearFrame {
  DomainData d;
  GridInfo g;
  std::vector<float> pressure, velocity;
  ShearFrame(int n, double y_wall, double a, double v, double cp) {
    d.nx = d.ny = n;
    d.nz = 1;
    d.flags.assign(std::size_t(n) * n, cell::fluid);
    g.nx = g.ny = n;
    pressure.assign(std::size_t(n) * n, float(cp));
    velocity.assign(3 * std::size_t(n) * n, 0.0f);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const std::size_t c = std::size_t(i + n * j);
        velocity[3 * c] = float(a * (j + 0.5 - y_wall));
        velocity[3 * c + 1] = float(v);
      }
  }
};

// An outline whose first point lies on a wall y = 4.5 (a cell-centre row, so its probe one cell up is at the
// centres of the row above) with the chord from its predecessor to its successor along −x: its normal is +y.
SurfaceMesh one_point(const ShearFrame& f, double nu, double u) {
  const std::vector<Vec3> outline = {{4.0, 4.5, 0}, {2.0, 4.5, 0}, {4.0, 2.0, 0}, {6.0, 4.5, 0}};
  SurfaceMesh m = surface_outline(outline, f.d, f.g);
  m.nu_lattice = nu;
  m.u_lattice = u;
  return m;
}

TEST(SurfaceValues, ViscousSublayerGivesMuDuDy) {
  const double nu = 0.01, U = 0.05, a = 0.01;  // u_τ² = ν a U: y⁺ = 0.22 at the probe
  const ShearFrame f(10, 4.5, a, 0.3, 0.25);
  const SurfaceMesh m = one_point(f, nu, U);
  EXPECT_NEAR(m.normals[0][0], 0.0, 1e-15);
  EXPECT_NEAR(m.normals[0][1], 1.0, 1e-15);
  const SurfaceValues v = surface_values(m, f.pressure.data(), f.velocity.data());
  EXPECT_EQ(m.probe_distance[0], 1.0);
  EXPECT_NEAR(v.cp[0], 0.25, 1e-6);
  const double expected = 2 * nu * a / U;  // τ_w/(½U²) with τ_w = ν (a U) / 1
  EXPECT_NEAR(v.cf[0] / expected, 1.0, 1e-4);
  // Along the tangential velocity; the normal component (v) leaves it alone.
  EXPECT_NEAR(v.shear[0] / expected, 1.0, 1e-4);
  EXPECT_EQ(v.shear[1], 0.0f);
  EXPECT_EQ(v.shear[2], 0.0f);
  // Flow running the other way: the same magnitude, the vector reversed.
  const ShearFrame back(10, 4.5, -a, 0.3, 0.25);
  const SurfaceValues w = surface_values(m, back.pressure.data(), back.velocity.data());
  EXPECT_NEAR(w.cf[0] / expected, 1.0, 1e-4);
  EXPECT_NEAR(w.shear[0] / expected, -1.0, 1e-4);
}

TEST(SurfaceValues, LogRegionFollowsSpaldingsLaw) {
  const double nu = 1e-6, U = 0.05, a = 0.8;  // Re_y = 0.04 / 1e-6: y⁺ of several hundred
  const ShearFrame f(10, 4.5, a, 0.0, 0.0);
  const SurfaceMesh m = one_point(f, nu, U);
  const SurfaceValues v = surface_values(m, f.pressure.data(), f.velocity.data());
  const double u_tau = std::sqrt(v.cf[0] / 2.0) * U;
  const double u_plus = a * U / u_tau, y_plus = 1.0 * u_tau / nu;
  EXPECT_GT(y_plus, 100);
  EXPECT_NEAR(spalding_y_plus<double>(u_plus) / y_plus, 1.0, 1e-5);  // float output: 1e-5
  // Far above what a linear profile down to the wall would give (τ_w = μ u_t / y): the log law's stress.
  EXPECT_GT(v.cf[0], 20 * 2 * nu * a / U);
}

// A 40-gon around a solid disc: the normals point away from the centre whichever way the outline runs, and every
// probe lands among fluid cells only, its weights adding to 1.
TEST(SurfaceValues, OutlineNormalsPointOutOfTheBody) {
  const int n = 40;
  const double cx = 20, cy = 20, r = 8;
  DomainData d;
  d.nx = d.ny = n;
  d.flags.assign(std::size_t(n) * n, cell::fluid);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (std::hypot(i + 0.5 - cx, j + 0.5 - cy) < r) d.flags[std::size_t(i + n * j)] = cell::solid;
  GridInfo g;
  g.nx = g.ny = n;
  for (int dir : {1, -1}) {
    std::vector<Vec3> outline;
    for (int k = 0; k < 40; ++k) {
      const double t = dir * 2 * M_PI * k / 40;
      outline.push_back({cx + r * std::cos(t), cy + r * std::sin(t), 0});
    }
    const SurfaceMesh m = surface_outline(outline, d, g);
    ASSERT_EQ(m.points.size(), outline.size());
    for (std::size_t p = 0; p < outline.size(); ++p) {
      const double rx = outline[p][0] - cx, ry = outline[p][1] - cy;
      EXPECT_NEAR((m.normals[p][0] * rx + m.normals[p][1] * ry) / r, 1.0, 1e-2) << dir << " " << p;
      double sum = 0;
      for (int k = 0; k < 8; ++k) {
        const float w = m.probe_weights[8 * p + std::size_t(k)];
        if (w == 0.0f) continue;
        sum += w;
        EXPECT_EQ(d.flags[std::size_t(m.probe_cells[8 * p + std::size_t(k)])], cell::fluid);
      }
      EXPECT_NEAR(sum, 1.0, 1e-6);
      EXPECT_GE(m.probe_distance[p], 1.0);
    }
  }
}

TEST(SurfaceValues, CsvWriterWritesOneLinePerPoint) {
  test::TempDir dir;
  const double nu = 0.01, U = 0.05, a = 0.01;
  const ShearFrame f(10, 4.5, a, 0.0, -0.5);
  SurfaceMesh m = one_point(f, nu, U);
  const std::size_t points = m.points.size();
  auto w = make_surface_csv_writer(dir.path(), m);
  Frame fr;
  fr.step = 120;
  fr.time = 1.5;
  fr.pressure = f.pressure;
  fr.velocity = f.velocity;
  w->write(fr);
  w->write(fr);
  EXPECT_EQ(w->frames(), 2);
  const std::string text = test::read_text(dir.path() / "surface/surface_000001.csv");
  EXPECT_NE(text.find("# step: 120"), std::string::npos);
  std::istringstream in(text);
  std::string line;
  std::size_t rows = 0;
  bool header = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      EXPECT_EQ(line, "x,y,nx,ny,Cp,Cf,Cf_x,Cf_y");
      header = true;
      continue;
    }
    double x, y, nx, ny, cp, cf, cfx, cfy;
    char c;
    std::istringstream ls(line);
    ls >> x >> c >> y >> c >> nx >> c >> ny >> c >> cp >> c >> cf >> c >> cfx >> c >> cfy;
    ASSERT_FALSE(ls.fail()) << line;
    EXPECT_NEAR(cp, -0.5, 1e-6);
    EXPECT_NEAR(std::hypot(nx, ny), 1.0, 1e-6);
    EXPECT_NEAR(std::abs(cf), std::hypot(cfx, cfy), 1e-6 * (1 + std::abs(cf)));
    ++rows;
  }
  EXPECT_EQ(rows, points);
  // Missing velocity: refused, nothing written.
  Frame bad = fr;
  bad.velocity.clear();
  EXPECT_THROW(w->write(bad), std::invalid_argument);
  EXPECT_EQ(w->frames(), 2);
}

}  // namespace
}  // namespace aerolbm
