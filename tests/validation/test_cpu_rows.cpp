// The CPU backend's vectorised row loops (kernels/cpu/cpu_rows.hpp) against the plain per-cell loop they replace:
// update_cell on every cell of two lattices, written out here from the shared physics headers. The same
// operations in the same order, so after any number of steps the states must be identical bit for bit — for pull
// and in place (aa), every lattice, fp32 and fp64, with and without body force and Smagorinsky (BGK and TRT), with
// walls (half-way and interpolated), open and slip faces, and periodic rows whose end cells wrap; and for every
// compiled variant of the loops the machine runs (AEROLBM_CPU_ISA=sse2, avx2, avx512; for the D3Q19 pull with
// AVX-512 both vector widths, AEROLBM_CPU_VECTOR=256, 512).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cpu/cpu_face_rows.hpp"
#include "kernels/cpu/cpu_sponge_rows.hpp"
#include "kernels/physics/cell_update.hpp"
#include "kernels/storage/two_lattice.hpp"
#include "tests/cases_dir.hpp"
#include "tests/validation/harness.hpp"

namespace aerolbm::testing {
namespace {

// Bounce-back through link −c_i of a near-wall cell, its neighbour behind looked at here.
template <class L, class R, class Acc>
R reference_wall_value(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                       std::int64_t n, std::uint8_t flag, int i) {
  const int ib = opposite(i);
  if (!k.interpolated_walls || !(flag & cell::near_wall)) return acc.get(ib, n);
  int y[3];
  bool in = true;
  for (int a = 0; a < 3; ++a) {
    y[a] = x[a] + L::c(i, a);
    if (y[a] < 0 || y[a] >= g.n[a]) in = false;
  }
  const std::int64_t m = in ? g.index(y[0], y[1], y[2]) : n;
  const bool fluid = in && (g.flags[m] & cell::type_mask) == cell::fluid;
  return wall_link_value<L, R>(g, k, acc, n, g.link[n], fluid, fluid ? acc.get(ib, m) : R(0), i);
}

// The population i arriving at a cell at a face or next to the body, found the plain way: the neighbour's flag
// looked at for every direction (the backends read which links cross the body from the wall table's masks).
template <class L, class R, class Acc>
R reference_streamed_value(const GridView& g, const StepConstants<R>& k, const Acc& acc, const int (&x)[3],
                           std::int64_t n, std::uint8_t flag, int i) {
  if (i == 0) return acc.get(0, n);
  int s[3] = {x[0] - L::c(i, 0), x[1] - L::c(i, 1), x[2] - L::c(i, 2)};
  int j = i;
  for (int a = 0; a < L::D; ++a) {
    if (s[a] >= 0 && s[a] < g.n[a]) continue;
    const auto bc = static_cast<FaceBC>(s[a] < 0 ? k.faces[2 * a] : k.faces[2 * a + 1]);
    if (bc == FaceBC::Periodic) {
      s[a] = s[a] < 0 ? s[a] + g.n[a] : s[a] - g.n[a];
    } else if (bc == FaceBC::Slip) {
      s[a] = x[a];
      j = mirror<L>(j, a);
    } else if (bc == FaceBC::FarField) {
      return free_stream_population<L, R>(k, i);
    } else {
      return acc.get(opposite(i), n);  // no-slip face, or an open face reached sideways
    }
  }
  const std::int64_t m = g.index(s[0], s[1], s[2]);
  if ((flag & cell::near_wall) && (g.flags[m] & cell::type_mask) == cell::solid)
    return reference_wall_value<L, R>(g, k, acc, x, n, flag, i);
  return acc.get(j, m);
}

// The reference: every cell on its own, two lattices, one thread, no vector loop, the boundary cells' populations
// streamed one direction at a time (reference_streamed_value).
template <class L, class R, class Acc>
void reference_update(const GridView& g, const StepConstants<R>& k, Acc& acc, int x0, int x1, int x2) {
  const int x[3] = {x0, x1, x2};
  const std::int64_t n = g.index(x0, x1, x2);
  const std::uint8_t flag = g.flags[n];
  const std::uint8_t type = flag & cell::type_mask;
  if (type == cell::solid || (flag & cell::ghost)) return;
  if (type != cell::fluid) {
    open_boundary_cell<L, R>(g, k, acc, x, n, type == cell::inlet);
    return;
  }
  R f[L::Q];
  if (is_interior<L>(g, flag, x0, x1, x2)) {
    pull_interior<L, R>(g, acc, x0, x1, x2, f);
  } else {
    for (int i = 0; i < L::Q; ++i) f[i] = reference_streamed_value<L, R>(g, k, acc, x, n, flag, i);
  }
  collide_and_store<L, R>(g, k, acc, x0, x1, x2, n, f);
}

// The grid of a case's domain as the CPU backend views it (flags, wall links).
GridView grid_of(const DomainData& d, const PhysicsParams& p) {
  GridView g{};
  g.set_extent(d.nx, d.ny, d.nz);
  g.periodic = periodic_axes(p);
  g.flags = d.flags.data();
  g.link = d.link.data();
  g.q = d.q.data();
  return g;
}

template <class L, class T>
std::vector<double> reference_steps(const DomainData& d, const PhysicsParams& p, const std::vector<double>& f0,
                                    std::int64_t start, std::int64_t steps) {
  using R = T;
  const GridView g = grid_of(d, p);
  // The inflow ramp's constants where the state stands in it (a case with an inlet ramps over its first
  // convective time), the full ones after it.
  InflowRamp<R> ramp{p, start};
  std::vector<T> a(f0.size()), b;
  for (std::size_t j = 0; j < f0.size(); ++j) a[j] = T(f0[j]);
  b = a;
  for (std::int64_t s = 0; s < steps; ++s, ++ramp.step) {
    const StepConstants<R> k = ramp.active() ? ramp.next() : make_step_constants<R>(p);
    const TwoLatticeAccess<T, R> acc{a.data(), b.data(), g.cells};
    for (int z = 0; z < g.n[2]; ++z)
      for (int y = 0; y < g.n[1]; ++y)
        for (int x = 0; x < g.n[0]; ++x) reference_update<L, R>(g, k, acc, x, y, z);
    std::swap(a, b);
  }
  return std::vector<double>(a.begin(), a.end());
}

std::vector<double> reference(const SolverSetup& s, const std::vector<double>& f0, std::int64_t start,
                              std::int64_t steps) {
  const bool fp64 = s.c.precision == Precision::FP64;
  switch (s.c.stencil) {
    case Stencil::D2Q9:
      return fp64 ? reference_steps<D2Q9, double>(s.d, s.p, f0, start, steps) : reference_steps<D2Q9, float>(s.d, s.p, f0, start, steps);
    case Stencil::D3Q19:
      return fp64 ? reference_steps<D3Q19, double>(s.d, s.p, f0, start, steps)
                  : reference_steps<D3Q19, float>(s.d, s.p, f0, start, steps);
    case Stencil::D3Q27:
      return fp64 ? reference_steps<D3Q27, double>(s.d, s.p, f0, start, steps)
                  : reference_steps<D3Q27, float>(s.d, s.p, f0, start, steps);
  }
  return {};
}

// Bit-for-bit equality (a NaN would compare unequal to itself, and −0 equal to +0, with ==).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b, std::size_t& first) {
  if (a.size() != b.size()) return false;
  for (std::size_t j = 0; j < a.size(); ++j)
    if (std::memcmp(&a[j], &b[j], sizeof(double)) != 0) {
      first = j;
      return false;
    }
  return true;
}

// Runs the case `start` steps on the pull backend to get a developed state, then `steps` more on the pull and aa
// backends (in uneven pieces: the aa layout flips between calls) and on the reference, from that state.
void expect_rows_match_reference(const std::filesystem::path& file, const std::vector<std::string>& sets,
                                 std::int64_t start, std::int64_t steps, const std::string& what) {
  std::vector<double> f0;
  {
    auto pull_sets = sets;
    pull_sets.push_back("lattice.kernel=pull");
    SolverSetup s(file, pull_sets, "cpu", 2);
    s.backend->run(start);
    s.backend->read_populations(f0);
  }
  const std::vector<double> ref = reference(SolverSetup(file, sets, "cpu", 1), f0, start, steps);
  // And the flow moved: not two copies of the starting state.
  EXPECT_GT(relative_l2(ref, f0), 1e-7) << what;
  // With AVX-512 the D3Q19 pull runs 512-bit or 256-bit vectors as the CPU suits (full_width_avx512): both.
  const std::pair<std::string, std::string> runs[] = {{"sse2", "pull"},       {"sse2", "aa"},      {"avx2", "pull"},
                                                      {"avx2", "aa"},         {"avx512", "pull"},  {"avx512", "aa"},
                                                      {"avx512/256", "pull"}};
  for (const auto& [isa_and_width, kernel] : runs) {
    const bool narrow = isa_and_width == "avx512/256";
    const std::string isa = narrow ? "avx512" : isa_and_width;
    auto with = sets;
    with.push_back("lattice.kernel=" + kernel);
    setenv("AEROLBM_CPU_ISA", isa.c_str(), 1);  // the backend takes the lower of this and what the CPU has
    setenv("AEROLBM_CPU_VECTOR", narrow ? "256" : "512", 1);
    SolverSetup s(file, with, "cpu", 2);
    unsetenv("AEROLBM_CPU_ISA");
    unsetenv("AEROLBM_CPU_VECTOR");
    s.backend->write_populations(f0);
    s.backend->set_step(start);
    const std::int64_t first = steps / 3 | 1;  // odd
    s.backend->run(first);
    s.backend->run(steps - first);
    std::vector<double> f;
    s.backend->read_populations(f);
    std::size_t at = 0;
    EXPECT_TRUE(same_bits(f, ref, at)) << what << ", " << kernel << ", " << isa_and_width << ", "
                                       << s.backend->device() << ": first difference at value " << at << " of "
                                       << ref.size() << " (" << f[at] << " vs " << ref[at] << ")";
  }
}

std::filesystem::path cases() { return cases_dir(); }

TEST(CpuRows, AirfoilInletOutletSlipFacesInterpolatedWalls) {
  expect_rows_match_reference(cases() / "naca0012_re1000_aoa5.yaml", {"geometry.chord_cells=24"}, 40, 31,
                              "NACA 0012 D2Q9 BGK fp32");
  expect_rows_match_reference(cases() / "naca0012_re1000_aoa5.yaml",
                              {"geometry.chord_cells=24", "lattice.precision=fp64", "lattice.collision=trt",
                               "boundaries.wall=halfway"},
                              40, 31, "NACA 0012 D2Q9 TRT fp64 half-way walls");
  // The far field (farfield faces, characteristic outlet, sponge) and the inflow ramp above; the fixed-density
  // outlet and slip faces at full inflow here.
  expect_rows_match_reference(cases() / "naca0012_re1000_aoa5.yaml",
                              {"geometry.chord_cells=24", "boundaries.outlet=pressure", "boundaries.lateral=slip",
                               "time.ramp_convective_times=0"},
                              40, 31, "NACA 0012 D2Q9 BGK fp32, pressure outlet and slip faces");
}

TEST(CpuRows, SchaeferTurekWithSmagorinsky) {
  expect_rows_match_reference(cases() / "ci/schaefer_turek_2d1.yaml", {}, 50, 21, "Schäfer–Turek 2D-1");
  expect_rows_match_reference(cases() / "ci/schaefer_turek_2d1.yaml",
                              {"lattice.les.model=smagorinsky", "lattice.les.constant=0.17"}, 50, 21,
                              "Schäfer–Turek 2D-1, Smagorinsky TRT");
  expect_rows_match_reference(cases() / "ci/schaefer_turek_2d1.yaml",
                              {"lattice.les.model=smagorinsky", "lattice.les.constant=0.17", "lattice.collision=bgk"},
                              50, 21, "Schäfer–Turek 2D-1, Smagorinsky BGK");
}

// The entropic collision: its vector loops (kbc, kbc with Smagorinsky) against the per-cell loop, 2D and 3D, with
// a body force (the ducts below).
TEST(CpuRows, EntropicCollision) {
  expect_rows_match_reference(cases() / "naca0012_re1000_aoa5.yaml", {"geometry.chord_cells=24", "lattice.collision=kbc"},
                              40, 31, "NACA 0012 D2Q9 KBC fp32");
  expect_rows_match_reference(cases() / "ci/schaefer_turek_2d1.yaml",
                              {"lattice.collision=kbc", "lattice.les.model=smagorinsky", "lattice.les.constant=0.17"},
                              50, 21, "Schäfer–Turek 2D-1, Smagorinsky KBC");
  expect_rows_match_reference(cases() / "ci/wing_naca0012_ar4.yaml", {"geometry.chord_cells=12", "lattice.collision=kbc"},
                              10, 7, "3D wing D3Q19 KBC");
}

// Periodic along every axis but the walls (x periodic: the row ends wrap), with a body force.
std::filesystem::path duct(const std::string& stencil, const std::string& precision, const std::string& les) {
  return write_temp_case("rows_duct_" + stencil + precision + les,
                         "schema_version: 1\n"
                         "case: {name: duct}\n"
                         "physics: {reynolds: 10, mach: 0.1, body_force: [1.0e-5, 2.0e-6, 0]}\n"
                         "geometry: {type: none, reference_cells: 8}\n"
                         "domain: {size_chords: [2, 1, 1], body_position_chords: [1, 0.5, 0.5]}\n"
                         "lattice: {stencil: " + stencil + ", collision: trt, precision: " + precision +
                             ", les: {model: " + les + ", constant: 0.2}}\n"
                         "boundaries: {inlet: periodic, outlet: periodic, lateral: wall}\n"
                         "output: {every: 0}\n");
}

TEST(CpuRows, ThreeDimensionalDuctsWithBodyForce) {
  for (const std::string st : {"D3Q19", "D3Q27"})
    for (const std::string prec : {"fp32", "fp64"})
      expect_rows_match_reference(duct(st, prec, "none"), {}, 20, 17, st + " " + prec + " duct");
  expect_rows_match_reference(duct("D3Q19", "fp32", "smagorinsky"), {}, 20, 17, "D3Q19 duct, Smagorinsky");
  expect_rows_match_reference(duct("D3Q27", "fp32", "none"), {"lattice.collision=kbc"}, 20, 17, "D3Q27 duct, KBC");
}

TEST(CpuRows, ThreeDimensionalWingSlipAndOpenFaces) {
  expect_rows_match_reference(cases() / "ci/wing_naca0012_ar4.yaml", {"geometry.chord_cells=12"}, 10, 7,
                              "3D wing D3Q19");
}

// The face runs (kernels/cpu/cpu_face_rows.hpp) on far-field, slip and no-slip faces: the two-lattice plan must
// route the plain face cells through them (else the comparisons above would not test them), and so must the in-place
// plan (runs of several cells each, its snapshot rows in index order), and the states stay bit-identical to the
// per-cell reference.
TEST(CpuRows, FaceCellsThroughVectorRuns) {
  const std::vector<std::vector<std::string>> faces = {
      {"geometry.chord_cells=12"},
      {"geometry.chord_cells=12", "boundaries.lateral=slip", "boundaries.span=wall"},
      {"geometry.chord_cells=12", "boundaries.lateral=wall", "boundaries.span=slip", "lattice.precision=fp64"}};
  for (const auto& sets : faces) {
    SolverSetup s(cases() / "ci/wing_naca0012_ar4.yaml", sets, "cpu", 1);
    const GridView g = grid_of(s.d, s.p);
    const cpu::RowPlan plain = cpu::build_row_plan<D3Q19>(g, false);
    const cpu::RowPlan plan = cpu::add_face_segments<D3Q19, double>(plain, g, make_step_constants<double>(s.p),
                                                                   cpu::padded_stride(g.cells, sizeof(float)));
    EXPECT_GT(plan.face_cells, plain.scalar_cells / 2) << sets.back();
    EXPECT_EQ(plan.face_cells + plan.scalar_cells, plain.scalar_cells) << sets.back();
    // In place: the boundary rows' face cells go through runs, the rest per cell, every boundary row once.
    const AARows rows = build_aa_rows<D3Q19>(g);
    const cpu::AAFacePlan in_place = cpu::build_aa_face_plan<D3Q19, double>(g, make_step_constants<double>(s.p), rows);
    const std::int64_t open_nodes = std::int64_t(in_place.open_nodes.node.size());
    EXPECT_GT(in_place.face_cells, rows.boundary_rows / 2) << sets.back();
    EXPECT_EQ(in_place.face_cells + std::int64_t(in_place.cell_rows.size()) + open_nodes, rows.boundary_rows)
        << sets.back();
    EXPECT_LT(std::int64_t(in_place.runs.size()), in_place.face_cells / 4) << sets.back();
    // The inlet and outlet nodes with an interior neighbour read it in the lattice (cpu_open_nodes.hpp): all but
    // those on the y and z faces, indexed by grid row.
    std::int64_t inlet_outlet = 0;
    for (std::int64_t n = 0; n < g.cells; ++n) {
      const std::uint8_t type = g.flags[n] & cell::type_mask;
      inlet_outlet += type == cell::inlet || type == cell::outlet;
    }
    EXPECT_GT(open_nodes, inlet_outlet * 3 / 4) << sets.back();
    // Those on the edges of the open faces too, their neighbours (boundary cells) read from the snapshot.
    std::int64_t from_snapshot = 0;
    for (const auto& node : in_place.open_nodes.node) {
      if (node.nb_row < 0) continue;
      ++from_snapshot;
      EXPECT_LT(node.nb_row, rows.boundary_rows) << sets.back();
      EXPECT_EQ(rows.row_cell[std::size_t(node.nb_row)], g.index(node.inlet ? node.x + 1 : node.x - 1, node.y, node.z))
          << sets.back();
    }
    EXPECT_GT(from_snapshot, 0) << sets.back();
    EXPECT_EQ(open_nodes, inlet_outlet) << sets.back();
    ASSERT_EQ(in_place.open_nodes.begin.size(), std::size_t(g.n[1]) * g.n[2] + 1) << sets.back();
    EXPECT_EQ(in_place.open_nodes.begin.back(), open_nodes) << sets.back();
    for (std::size_t r = 0; r + 1 < in_place.open_nodes.begin.size(); ++r)
      for (std::int64_t o = in_place.open_nodes.begin[r]; o < in_place.open_nodes.begin[r + 1]; ++o) {
        const auto& node = in_place.open_nodes.node[std::size_t(o)];
        EXPECT_EQ(node.y + std::int64_t(g.n[1]) * node.z, std::int64_t(r)) << sets.back();
        EXPECT_EQ(rows.row_cell[std::size_t(node.row)], g.index(node.x, node.y, node.z)) << sets.back();
      }
    // The batches of open nodes in grid-row order (each of one kind), so that the threads share them out as they
    // share out the grid rows.
    for (std::size_t b = 0; b < in_place.open_nodes.batch.size(); ++b) {
      const auto& batch = in_place.open_nodes.batch[b];
      auto node_of = [&](std::int64_t j) -> const cpu::AAOpenNode& {
        return in_place.open_nodes.node[std::size_t(in_place.open_nodes.order[std::size_t(batch.first + j)])];
      };
      for (std::int64_t j = 0; j < batch.count; ++j) EXPECT_EQ(node_of(j).inlet, batch.inlet) << sets.back();
      if (b == 0) continue;
      const auto& prev = in_place.open_nodes.batch[b - 1];
      const auto& p0 = in_place.open_nodes.node[std::size_t(in_place.open_nodes.order[std::size_t(prev.first)])];
      EXPECT_LE(p0.y + std::int64_t(g.n[1]) * p0.z, node_of(0).y + std::int64_t(g.n[1]) * node_of(0).z)
          << sets.back();
    }
    // The gather: each row once at most, and only what the face runs and per-cell rows read, so not the open
    // nodes' neighbours.
    std::vector<int> gathered_times(rows.row_cell.size(), 0);
    std::int64_t gathered_in_runs = 0;
    for (const auto& r : in_place.gather_runs) {
      gathered_in_runs += r.x1 - r.x0;
      EXPECT_GE(r.x1 - r.x0, cpu::kMinGatherRun) << sets.back();
      for (std::int64_t q = r.r0; q < r.r0 + (r.x1 - r.x0); ++q) ++gathered_times[std::size_t(q)];
    }
    for (const auto q : in_place.gather_rows) ++gathered_times[std::size_t(q)];
    for (std::size_t q = 0; q < gathered_times.size(); ++q) {
      EXPECT_LE(gathered_times[q], 1) << sets.back();
      if (std::int64_t(q) < rows.boundary_rows) EXPECT_EQ(gathered_times[q], 0) << sets.back();
    }
    const std::int64_t gathered = std::int64_t(rows.row_cell.size()) - rows.boundary_rows;
    const std::int64_t gathered_now = gathered_in_runs + std::int64_t(in_place.gather_rows.size());
    EXPECT_GT(gathered_in_runs, gathered_now / 2) << sets.back();
    EXPECT_LT(gathered_now, gathered - open_nodes / 2) << sets.back();
    expect_rows_match_reference(cases() / "ci/wing_naca0012_ar4.yaml", sets, 10, 7, "3D wing, " + sets.back());
  }
}

// The sponge's σ along the rows from its tables (kernels/cpu/cpu_sponge_rows.hpp): every cell's σ as sponge_sigma
// gives it, and for segments of every row the cells relaxed from each end as the walk in from both ends, cell by
// cell, finds them (the row loops relax exactly those).
TEST(CpuRows, SpongeRowsMatchTheWalk) {
  const std::vector<std::vector<std::string>> sets = {{"geometry.chord_cells=12"},
                                                      {"geometry.chord_cells=12", "boundaries.span=slip"}};
  for (const auto& set : sets) {
    SolverSetup s(cases() / "ci/wing_naca0012_ar4.yaml", set, "cpu", 1);
    const GridView g = grid_of(s.d, s.p);
    const StepConstants<float> k = make_step_constants<float>(s.p);
    ASSERT_NE(k.sponge_faces, 0) << set.back();
    cpu::SpongeRows<D3Q19, float> t;
    t.update(g, k);
    std::int64_t relaxed = 0, zero = 0;
    const int nx = g.n[0];
    for (int z = 0; z < g.n[2]; ++z)
      for (int y = 0; y < g.n[1]; ++y) {
        const float* row = t.row(y, z, g);
        for (int x = 0; x < nx; ++x) ASSERT_EQ(row[x], (sponge_sigma<D3Q19, float>(g, k, x, y, z))) << x;
        for (const auto& [x0, x1] : {std::pair{0, nx}, std::pair{1, nx - 1}, std::pair{nx / 3, nx / 2},
                                     std::pair{nx - 5, nx}, std::pair{3, 4}}) {
          int lo = x0;  // the walk: from x0 up to the first cell without sponge, then from x1 − 1 down
          while (lo < x1 && sponge_sigma<D3Q19, float>(g, k, lo, y, z) > 0.0f) ++lo;
          int hi = x1;
          while (hi - 1 > lo && sponge_sigma<D3Q19, float>(g, k, hi - 1, y, z) > 0.0f) --hi;
          int tlo = 0, thi = 0;
          t.ends(y, z, g, x0, x1, tlo, thi);
          ASSERT_EQ(tlo, lo) << y << " " << z << " " << x0 << " " << x1;
          ASSERT_EQ(thi, hi) << y << " " << z << " " << x0 << " " << x1;
          if (x0 == 0 && x1 == nx) {
            relaxed += (lo - x0) + (x1 - hi);
            zero += hi - lo;
          }
        }
      }
    EXPECT_GT(relaxed, 0) << set.back();  // both kinds of row: partly and wholly in the layer
    EXPECT_GT(zero, 0) << set.back();
  }
}

}  // namespace
}  // namespace aerolbm::testing
