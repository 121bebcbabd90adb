#pragma once
// CPU backend: OpenMP loops over the same per-cell physics the CUDA backend runs. This is the reference backend.
// Rows of plain interior cells (and, with two lattices, of plain face cells: kernels/cpu/cpu_face_rows.hpp) go
// through vectorised loops (kernels/cpu/cpu_rows.hpp), the other cells through the per-cell update; both compute
// the same operations in the same order. Each lattice is instantiated in a file of
// its own (cpu_backend_d2q9.cpp, ...), so that the three compile in parallel; cpu_backend.cpp picks one.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <utility>

#include "kernels/backend.hpp"
#include "kernels/backend_factory.hpp"
#include "kernels/cpu/cpu_face_rows.hpp"
#include "kernels/cpu/cpu_open_node_batches.hpp"
#include "kernels/cpu/cpu_open_nodes.hpp"
#include "kernels/cpu/cpu_rows.hpp"
#include "kernels/cpu/cpu_sponge_rows.hpp"
#include "kernels/lattice_owner.hpp"
#include "kernels/physics/cell_update.hpp"
#include "kernels/physics/field_averages.hpp"
#include "kernels/physics/wall_masks.hpp"
#include "kernels/storage/aa_lattice.hpp"
#include "kernels/storage/aa_rows.hpp"
#include "kernels/storage/two_lattice.hpp"

namespace aerolbm::cpu {

template <class L, class T>
class CpuBackend final : public Backend, public LatticeOwner {
  using R = T;  // arithmetic in the storage precision (fp32 or fp64)

 public:
  CpuBackend(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p)
      : dom_(d),
        k_(make_step_constants<R>(p)),
        ramp_{p},
        threads_(cfg.threads > 0 ? cfg.threads : omp_get_max_threads()),
        runs_(k_.coll),
        ramp_runs_(ramp_.next().coll) {
    g_.set_extent(d.nx, d.ny, d.nz);  // refuses grids of 2^32 cells or more
    g_.periodic = periodic_axes(p);
    g_.flags = dom_.flags.data();
    g_.link = dom_.link.data();
    g_.q = dom_.q.data();
    wall_mask_ = build_wall_masks<L, R>(g_, k_, dom_.wall_cells);
    g_.wall_mask = wall_mask_.data();
    for (int a = 0; a < 3; ++a) {
      g_.origin[a] = int(d.origin[a]);
      g_.global_n[a] = int(d.global_n[a]);
    }
    aa_ = cfg.kernel == KernelVariant::AA;
    wale_ = k_.coll.wale > R(0);
    if (wale_ && aa_)
      throw std::invalid_argument("lattice.les.model: wale runs with the pull kernel (lattice.kernel: pull or auto); "
                                  "the aa kernel has no WALE path.");
    if (k_.wall_function && aa_)
      throw std::invalid_argument("boundaries.wall: wall_model runs with the pull kernel (lattice.kernel: pull or "
                                  "auto); the aa kernel has no wall-model path.");
    if (wale_) velocity_.assign(std::size_t(6 * g_.cells), 0.0f);  // one field per lattice (wale_step)
    plan_ = build_row_plan<L>(g_, aa_);
    stride_ = padded_stride(g_.cells, sizeof(T));
    if (!aa_) plan_ = add_face_segments<L, R>(plan_, g_, k_, stride_);
    gs_ = g_;
    gs_.cells = stride_;
    const std::size_t lattice = std::size_t(L::Q) * std::size_t(stride_);
    store_.assign((aa_ ? 1 : 2) * lattice, T(0));
    a_ = store_.data();
    if (aa_) {
      rows_ = build_aa_rows<L>(g_);
      aa_faces_ = build_aa_face_plan<L, R>(g_, k_, rows_);
      snap_[0].assign(std::size_t(L::Q) * rows_.row_cell.size(), T(0));
      snap_[1] = snap_[0];
    } else {
      b_ = a_ + lattice;
    }
  }

  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device() const override {
    return std::to_string(threads_) + " OpenMP threads, " + isa_name(runs_.isa) + " row loops";
  }
  std::string kernel() const override { return aa_ ? "aa (one lattice, in place)" : "pull (two lattices)"; }

  void initialize() override {
    const StepConstants<R> k0 = ramp_.initial();
    with_state([&](const auto& acc) {
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t n = 0; n < g_.cells; ++n) initialize_cell<L, R>(g_, k0, acc, n);
    });
    copy_to_next();
    ramp_.step = 0;
  }

  void set_step(std::int64_t step) override { ramp_.step = step; }

  void run(std::int64_t steps) override {
    for (std::int64_t s = 0; s < steps; ++s, ++ramp_.step) {
      const StepConstants<R> k = ramp_.active() ? ramp_.next() : k_;
      if (k.sponge_faces) sponge_.update(g_, k);
      if (aa_) {
        step_in_place(k);
        continue;
      }
      const TwoLatticeAccess<T, R> acc{a_, b_, stride_};
      const GridView g = g_;
      const std::int64_t stride = stride_;
      const RowPlan& plan = plan_;
      const RunKernels<L, T, R>& runs = ramp_.active() ? ramp_runs_ : runs_;
      if (wale_) {
        wale_step(k, acc);
        std::swap(a_, b_);
        continue;
      }
      face_rows_.fill(plan, k, g.n[0]);
      const FaceRows<L, T>& face = face_rows_;
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t r = 0; r < plan.rows(); ++r) {
        const int y = int(r % g.n[1]), z = int(r / g.n[1]);
        for (std::int64_t j = plan.begin[r]; j < plan.begin[r + 1]; ++j) {
          const Segment sg = plan.seg[j];
          if (sg.vec) {
            if (sg.vec == 1) {
              runs.pull(g, stride, k.coll, acc.src, acc.dst, y, z, sg.x0, sg.x1);
            } else {
              const T* ld[L::Q];
              T* st[L::Q];
              face.loads(plan, sg, acc.src, ld);
              for (int i = 0; i < L::Q; ++i) st[i] = acc.dst + std::int64_t(i) * stride + g.index(0, y, z);
              runs.blocks(k.coll, ld, st, sg.x0, sg.x1);
            }
            if (k.sponge_faces) {
              T* st[L::Q];
              for (int i = 0; i < L::Q; ++i) st[i] = acc.dst + std::int64_t(i) * stride + g.index(0, y, z);
              sponge_stored(runs, y, z, sg.x0, sg.x1, st);
            }
          } else {
            if (k.wall_function) {  // the near-wall cells are scalar segments
              for (int x = sg.x0; x < sg.x1; ++x) update_cell<L, R, extras::wall_function>(g, k, acc, x, y, z);
            } else {
              for (int x = sg.x0; x < sg.x1; ++x) update_cell<L, R>(g, k, acc, x, y, z);
            }
          }
        }
      }
      std::swap(a_, b_);
    }
  }

  // A WALE step: every cell through the per-cell update with its WALE path (the vector rows have none), which
  // differentiates the velocity field of the source lattice and writes the destination's from what it stores (the
  // numbers the velocity pass, store_cell_velocity, would compute from them). After the state was set, both fields
  // come from it by that pass (solid and ghost cells 0, which no step writes).
  void wale_step(const StepConstants<R>& k, const TwoLatticeAccess<T, R>& acc) {
    GridView g = g_;
    float* field[2] = {velocity_.data(), velocity_.data() + 3 * g.cells};
    if (!wale_fresh_) {
      for (float* u : field) {
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t n = 0; n < g.cells; ++n) store_cell_velocity<L, R>(g, acc, n, u);
      }
      wale_fresh_ = true;
    }
    const int from = acc.src == store_.data() ? 0 : 1;
    g.velocity = field[from];
    g.velocity_next = field[from ^ 1];
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t r = 0; r < std::int64_t(g.n[1]) * g.n[2]; ++r) {
      const int y = int(r % g.n[1]), z = int(r / g.n[1]);
      if (k.wall_function) {
        for (int x = 0; x < g.n[0]; ++x) update_cell<L, R, extras::wale | extras::wall_function>(g, k, acc, x, y, z);
      } else {
        for (int x = 0; x < g.n[0]; ++x) update_cell<L, R, extras::wale>(g, k, acc, x, y, z);
      }
    }
  }

  double timed_run(std::int64_t steps) override {
    const auto t0 = std::chrono::steady_clock::now();
    run(steps);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  std::array<double, 3> wall_force() override {
    return with_state([&](const auto& acc) { return wall_force(acc, false); });
  }

  std::array<double, 3> wall_pressure_force() override {
    return with_state([&](const auto& acc) { return wall_force(acc, true); });
  }

  void wall_force_cells(std::vector<double>& f) override {
    const auto& cells = dom_.wall_cells;
    const std::size_t rows = cells.size();
    f.assign(3 * rows, 0.0);
    with_state([&](const auto& acc) {
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::size_t r = 0; r < rows; ++r) {
        double c[3], p[3];
        wall_force_cell<L, R>(g_, k_, acc, cells[r], c, p);
        f[r] = c[0];
        f[rows + r] = c[1];
        f[2 * rows + r] = c[2];
      }
    });
  }

  void macroscopic(std::vector<float>& rho, std::vector<float>& u) override {
    with_state([&](const auto& acc) { macroscopic(acc, rho, u); });
  }

  StateCheck check_state(double max_speed) override {
    return with_state([&](const auto& acc) { return check_state(acc, max_speed); });
  }

  // The CPU's fields are on the host already: the transfer is a plain copy made at once.
  std::unique_ptr<FieldsTransfer> start_fields_transfer() override { return host_fields_transfer(*this); }

  static_assert(FieldAverages::kQuantities == field_averages::kQuantities);
  void sample_averages() override {
    const std::size_t n = std::size_t(field_averages::kQuantities) * std::size_t(g_.cells);
    if (averages_.mean.size() != n) {
      averages_.mean.assign(n, 0.0);
      averages_.m2.assign(n, 0.0);
      averages_.samples = 0;
    }
    const double count = double(++averages_.samples);
    const field_averages::View v{averages_.mean.data(), averages_.m2.data(), g_.cells};
    with_state([&](const auto& acc) {
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t c = 0; c < g_.cells; ++c) field_averages::sample_cell<L, R>(k_, acc, c, v, count);
    });
  }

  void read_averages(FieldAverages& out) override { out = averages_; }

  void read_populations(std::vector<double>& f) override {
    f.resize(std::size_t(L::Q) * g_.cells);
    with_state([&](const auto& acc) {
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t n = 0; n < g_.cells; ++n)
        for (int i = 0; i < L::Q; ++i) f[std::size_t(i) * g_.cells + n] = double(acc.get(i, n));
    });
  }

  void write_populations(const std::vector<double>& f) override {
    if (f.size() != std::size_t(L::Q) * g_.cells) throw std::runtime_error("write_populations: size mismatch");
    with_state([&](const auto& acc) {
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t n = 0; n < g_.cells; ++n)
        for (int i = 0; i < L::Q; ++i) acc.put(i, n, R(f[std::size_t(i) * g_.cells + n]));
    });
    copy_to_next();
  }

  std::size_t population_bytes() const override { return sizeof(T); }

  Lattices lattices() override {
    if (aa_) throw std::logic_error("lattices: the in-place kernel keeps one lattice");
    return Lattices{a_, b_, stride_};
  }

  int halo_register(const std::vector<std::int64_t>& cells, const std::vector<int>& dirs) override {
    if (aa_) throw std::logic_error("halo exchange needs the two-lattice (pull) layout");
    Halo h;
    h.cells = cells;
    h.dirs = dirs;
    h.buffer.resize(cells.size() * dirs.size());
    halos_.push_back(std::move(h));
    return int(halos_.size()) - 1;
  }

  HaloBuffer halo_buffer(int list) override {
    auto& h = halos_.at(std::size_t(list));
    return HaloBuffer{h.buffer.data(), nullptr, h.buffer.size() * sizeof(T)};
  }

  // The state is a_ after every step (two lattices, swapped): copy the stored values, bit for bit.
  void halo_pack(int list, bool) override {
    auto& h = halos_.at(std::size_t(list));
    const std::size_t m = h.cells.size(), nd = h.dirs.size();
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_) if (m * nd > 16384)
    for (std::size_t j = 0; j < nd; ++j)
      for (std::size_t c = 0; c < m; ++c)
        h.buffer[j * m + c] = a_[std::size_t(h.dirs[j]) * std::size_t(stride_) + std::size_t(h.cells[c])];
  }

  void halo_unpack(int list, bool) override {
    auto& h = halos_.at(std::size_t(list));
    const std::size_t m = h.cells.size(), nd = h.dirs.size();
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads_) if (m * nd > 16384)
    for (std::size_t j = 0; j < nd; ++j)
      for (std::size_t c = 0; c < m; ++c)
        a_[std::size_t(h.dirs[j]) * std::size_t(stride_) + std::size_t(h.cells[c])] = h.buffer[j * m + c];
  }

 private:
  struct Halo {
    std::vector<std::int64_t> cells;
    std::vector<int> dirs;
    std::vector<T> buffer;
  };
  std::vector<Halo> halos_;

  // Calls fn with the accessor of the current state: get(i, n) = f*_i(n), put sets it.
  template <class Fn>
  decltype(auto) with_state(Fn&& fn) {
    if (aa_) return fn(AAStateAccess<L, T, R>{gs_, storage()});
    return fn(TwoLatticeAccess<T, R>{a_, a_, stride_});
  }

  // The sponge layer (sponge_cell) on the new populations the vector rows stored for cells x0 .. x1−1 of row
  // (y, z), st[i][x] their storage: the per-cell path applies it in registers to the same values.
  // Along a row σ is the largest of a term that only falls with x (the low x face), one that only rises (the high x
  // face) and a constant (the y and z faces), passed through the same rounding-monotone operations: once σ is 0
  // from each end, it is 0 in between. So the cells relaxed are those from each end up to the first cell without
  // sponge, found in σ's table of the row (cpu_sponge_rows.hpp, built by sponge_sigma), and the row kernel relaxes
  // them (sponge_cells), a direction at a time across them. (Relaxed one cell at a time, the layer cost the CI half
  // wing, whose sponge holds half its cells, as much as its whole step without one: kernels/PERFORMANCE.md.)
  void sponge_stored(const RunKernels<L, T, R>& runs, int y, int z, int x0, int x1, T* const* st) const {
    int lo, hi;
    sponge_.ends(y, z, g_, x0, x1, lo, hi);
    const R* sigma = sponge_.row(y, z, g_);
    if (lo > x0) runs.sponge(sponge_.fs, sigma + x0, st, x0, lo);
    if (hi < x1) runs.sponge(sponge_.fs, sigma + hi, st, hi, x1);
  }

  // Two lattices: the next step's lattice starts as a copy of the current one (the cells no step writes, solid
  // and ghost, then hold the same values in both).
  void copy_to_next() {
    wale_fresh_ = false;  // the velocity fields no longer match the state (wale_step)
    if (!aa_) std::copy(a_, a_ + std::size_t(L::Q) * std::size_t(stride_), b_);
  }

  AAStorage<T> storage() {
    return AAStorage<T>{a_,          snap_[cur_].data(),   snap_[cur_ ^ 1].data(),
                        rows_.row.data(),   rows_.row_cell.data(), std::int64_t(rows_.row_cell.size()),
                        rows_.boundary_rows, odd_};
  }

  // One in-place step: gather the boundary cells' interior neighbours (and update the open nodes that read theirs
  // in the lattice), update the interior in place, then the boundary cells from the snapshot (any order would do:
  // no two cells touch the same slot).
  void step_in_place(const StepConstants<R>& k) {
    const AAStorage<T> s = storage();
    const GridView g = g_, gs = gs_;  // gs: the storage functions' view (cells = stride_)
    const std::int64_t stride = stride_;
    const RunKernels<L, T, R>& runs = ramp_.active() ? ramp_runs_ : runs_;
    aa_face_rows_.fill(aa_faces_.far_field, k, g.n[0]);
#pragma omp parallel num_threads(threads_)
    {
      const AAFacePlan& faces = aa_faces_;
#pragma omp for schedule(static) nowait
      for (std::int64_t q = 0; q < std::int64_t(faces.gather_runs.size()); ++q) {
        const AAFaceRun& gr = faces.gather_runs[q];
        const int x[3] = {gr.x0, gr.y, gr.z};
        for (int i = 0; i < L::Q; ++i) {
          const T* from = s.f + aa_slot<L>(gs, s.odd, i, x);  // an interior cell: every slot inside the grid
          std::copy(from, from + (gr.x1 - gr.x0), s.snap + std::int64_t(i) * s.rows + gr.r0);
        }
      }
#pragma omp for schedule(static) nowait
      for (std::int64_t c = 0; c < std::int64_t(faces.gather_rows.size()); ++c)
        aa_gather_row<L>(gs, s, faces.gather_rows[c]);
      // The open nodes, their neighbours read in the lattice (or the snapshot), into the next snapshot
      // (cpu_open_nodes.hpp).
#pragma omp for schedule(static)
      for (std::int64_t b = 0; b < std::int64_t(faces.open_nodes.batch.size()); ++b)
        aa_open_node_batch<L, T, R>(g, gs, k, s, open_kernels_, faces.open_nodes, faces.open_nodes.batch[b]);
      // The snapshot is complete (the barrier above), and the open nodes have read the lattice. From here no phase
      // reads what another writes: each cell's update, in the rows or at the boundary, reads and writes only its
      // own slots of the step in the lattice, and the boundary cells read the snapshot and write the next one. So
      // no barrier between the phases: a thread done with its rows goes on to the boundary work not yet taken.
#pragma omp for schedule(static) nowait
      for (std::int64_t r = 0; r < plan_.rows(); ++r) {
        const int y = int(r % g.n[1]), z = int(r / g.n[1]);
        // The row's open nodes, computed in the gather phase, to their slots (cpu_open_nodes.hpp).
        for (std::int64_t o = faces.open_nodes.begin[r]; o < faces.open_nodes.begin[r + 1]; ++o)
          aa_open_node_slots<L, T>(gs, s, faces.open_nodes.node[o], y, z);
        for (std::int64_t j = plan_.begin[r]; j < plan_.begin[r + 1]; ++j) {
          const Segment sg = plan_.seg[j];
          if (sg.vec) {
            (s.odd ? runs.aa_odd : runs.aa_even)(g, stride, k.coll, s.f, y, z, sg.x0, sg.x1);
            if (k.sponge_faces) {  // on what the row stored, where it stored it (aa_row_slots)
              const T* ld[L::Q];
              T* st[L::Q];
              if (s.odd) {
                aa_row_slots<L, T, true>(g, stride, s.f, y, z, ld, st);
              } else {
                aa_row_slots<L, T, false>(g, stride, s.f, y, z, ld, st);
              }
              sponge_stored(runs, y, z, sg.x0, sg.x1, st);
            }
          } else {
            for (int x = sg.x0; x < sg.x1; ++x) {
              if (s.odd) {
                aa_interior_update<L, T, R, true>(gs, k, s.f, x, y, z);
              } else {
                aa_interior_update<L, T, R, false>(gs, k, s.f, x, y, z);
              }
            }
          }
        }
      }
      // The face runs (cpu_face_rows.hpp): the vector loop from the snapshot into the next snapshot, the sponge
      // there, then the values copied to their slots in the lattice.
      const FaceRows<L, T>& free_stream = aa_face_rows_;
#pragma omp for schedule(dynamic, 16) nowait
      for (std::int64_t q = 0; q < std::int64_t(faces.runs.size()); ++q) {
        const AAFaceRun& fr = faces.runs[q];
        const T* ld[L::Q];
        T* st[L::Q];
        for (int i = 0; i < L::Q; ++i) {
          const std::int64_t src = faces.src[fr.src + i];
          ld[i] = src == kFreeStream ? free_stream.free_stream.data() + std::size_t(i) * g.n[0] : s.snap + src;
          st[i] = s.snap_next + std::int64_t(i) * s.rows + (fr.r0 - fr.x0);
        }
        runs.blocks(k.coll, ld, st, fr.x0, fr.x1);
        if (k.sponge_faces) sponge_stored(runs, fr.y, fr.z, fr.x0, fr.x1, st);
        const int x[3] = {fr.x0, fr.y, fr.z};
        for (int i = 0; i < L::Q; ++i) {
          const std::int64_t slot = aa_slot<L>(gs, s.odd ^ 1, i, x);
          if (slot >= 0) std::copy(st[i] + fr.x0, st[i] + fr.x1, s.f + slot);
        }
      }
      // Handed out as the threads come free: the list is in cell order, its costly near-wall cells together.
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t c = 0; c < std::int64_t(faces.cell_rows.size()); ++c) {
        const std::int64_t r = faces.cell_rows[c];
        const std::int64_t n = s.row_cell[r];
        int x[3];
        aa_coords(g, n, x);
        AABoundaryAccess<L, T, R> acc{gs, s, n, std::int32_t(r), {x[0], x[1], x[2]}};
        update_cell<L, R>(g, k, acc, x[0], x[1], x[2]);
      }
    }
    cur_ ^= 1;
    odd_ ^= 1;
  }

  // The total force on the body, or its pressure part (`pressure_part`).
  template <class Acc>
  std::array<double, 3> wall_force(const Acc& acc, bool pressure_part) {
    double fx = 0, fy = 0, fz = 0;
    const auto& cells = dom_.wall_cells;
#pragma omp parallel for reduction(+ : fx, fy, fz) schedule(static) num_threads(threads_)
    for (std::size_t r = 0; r < cells.size(); ++r) {
      double f[3], p[3];
      wall_force_cell<L, R>(g_, k_, acc, cells[r], f, p);
      const double* v = pressure_part ? p : f;
      fx += v[0];
      fy += v[1];
      fz += v[2];
    }
    return {fx, fy, fz};
  }

  template <class Acc>
  void macroscopic(const Acc& acc, std::vector<float>& rho, std::vector<float>& u) {
    rho.resize(g_.cells);
    u.resize(3 * g_.cells);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t n = 0; n < g_.cells; ++n) {
      R r, v[3];
      cell_macroscopic<L, R>(k_, acc, n, r, v);
      rho[n] = float(r);
      for (int a = 0; a < 3; ++a) u[3 * n + a] = float(v[a]);
    }
  }

  template <class Acc>
  StateCheck check_state(const Acc& acc, double max_speed) {
    std::int64_t first = g_.cells;
#pragma omp parallel for reduction(min : first) schedule(static) num_threads(threads_)
    for (std::int64_t n = 0; n < g_.cells; ++n) {
      R speed = 0;
      if (!cell_is_sane<L, R>(g_, k_, acc, n, R(max_speed), speed) && n < first) first = n;
    }
    StateCheck c;
    if (first < g_.cells) {
      R speed = 0;
      cell_is_sane<L, R>(g_, k_, acc, first, R(max_speed), speed);
      c.ok = false;
      c.first_bad_cell = first;
      c.speed = double(speed);
    }
    return c;
  }

  DomainData dom_;
  GridView g_{};
  std::vector<std::uint32_t> wall_mask_;  // the wall table's link masks (kernels/physics/wall_masks.hpp)
  StepConstants<R> k_;  // after the inflow ramp (and for forces, fields, the watchdog)
  InflowRamp<R> ramp_;
  int threads_;
  bool wale_ = false;              // WALE: velocity fields beside the lattices (wale_step)
  bool wale_fresh_ = false;        // they match the state
  std::vector<float> velocity_;
  RunKernels<L, T, R> runs_;       // the vector loops for these collision constants
  RunKernels<L, T, R> ramp_runs_;  // and for those of the inflow ramp (a body force)
  OpenNodeKernels<L, T, R> open_kernels_{runs_.isa};  // in place: the open nodes' batches
  RowPlan plan_;              // rows cut into vector runs, face runs (two lattices) and per-cell segments
  FaceRows<L, T> face_rows_;  // the free stream the face runs read
  SpongeRows<L, R> sponge_;   // σ along the rows, where k.sponge_faces (sponge_stored)
  // Populations, Q arrays of stride_ values per lattice (padded_stride: the arrays staggered by a cache line), in
  // one buffer: two lattices a_ (current) and b_ (next), swapped each step; in place: a_ only. gs_ is g_ with
  // cells = stride_, for the storage functions (aa_lattice.hpp), which take the distance between the arrays of two
  // directions from GridView::cells; everything else gets g_.
  std::int64_t stride_ = 0;
  GridView gs_{};
  std::vector<T> store_;
  T* a_ = nullptr;
  T* b_ = nullptr;
  bool aa_ = false;
  AARows rows_;
  AAFacePlan aa_faces_;           // in place: the face runs and the boundary rows updated per cell
  FaceRows<L, T> aa_face_rows_;   // the free stream the face runs read
  std::vector<T> snap_[2];
  int cur_ = 0, odd_ = 0;
  FieldAverages averages_;  // the mean fields' statistics (empty until the first sample_averages)
};

template <class L>
std::unique_ptr<Backend> make_cpu_backend_for(const BackendConfig& cfg, const DomainData& d, const PhysicsParams& p) {
  return make_for_precision<CpuBackend, L, float, double, void>(
      cfg, d, p, "the CPU backend stores fp32 or fp64; fp16s storage is a CUDA-backend option");
}

}  // namespace aerolbm::cpu
