#pragma once
// Face cells through the vector loop. A fluid cell on a y or z face of the grid (far field, free slip, no-slip face
// or a non-periodic MPI cut), away from the body and from the x faces, is not plain interior, so the per-cell path
// used to update it: stream_source for every direction, then collide, one cell at a time. But along a row such a
// cell's sources do not depend on x: the faces only act on y and z, so population i of every cell x of the
// segment comes from the same direction j of the cell at x + (the same offset), or from the same free-stream value.
// The plan records those Q sources once per segment, and the row loop (RunKernels::blocks) loads from them: the
// same values into the same collide, so the results are those of the per-cell path bit for bit.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/cpu/cpu_open_nodes.hpp"
#include "kernels/cpu/cpu_rows.hpp"
#include "kernels/storage/aa_rows.hpp"

namespace aerolbm::cpu {

// A face_src entry for a population the far field sets (free_stream_population): the row loop reads it from a row
// of Q × nx values filled with the free stream of the step (FaceRows::fill).
inline constexpr std::int64_t kFreeStream = std::numeric_limits<std::int64_t>::min();

// Where population i of face cell x comes from, as an offset into a two-lattice buffer of `stride` values per
// direction, less x (so that it is the same for every cell of the segment), or kFreeStream.
template <class L, class R>
void face_sources(const GridView& g, const StepConstants<R>& k, std::int64_t stride, int x, int y, int z,
                  std::int64_t (&src)[L::Q]) {
  const int c[3] = {x, y, z};
  const std::int64_t n = g.index(x, y, z);
  for (int i = 0; i < L::Q; ++i) {
    const StreamSource s = stream_source<L, R>(g, k, c, n, i);
    src[i] = s.m < 0 ? kFreeStream : std::int64_t(s.j) * stride + s.m - x;
  }
}

// The two-lattice plan with its per-cell segments split: runs of face cells (fluid, not near the body, not a
// ghost, 1 ≤ x ≤ nx−2, the same sources) become face segments; the rest stays per cell.
template <class L, class R>
RowPlan add_face_segments(const RowPlan& in, const GridView& g, const StepConstants<R>& k, std::int64_t stride) {
  RowPlan p;
  p.vector_cells = in.vector_cells;
  p.begin.push_back(0);
  const int nx = g.n[0];
  for (std::int64_t r = 0; r < in.rows(); ++r) {
    const int y = int(r % g.n[1]), z = int(r / g.n[1]);
    for (std::int64_t j = in.begin[r]; j < in.begin[r + 1]; ++j) {
      const Segment sg = in.seg[j];
      if (sg.vec) {
        p.seg.push_back(sg);
        continue;
      }
      std::int64_t prev[L::Q];
      bool open_face = false;
      for (int x = sg.x0; x < sg.x1; ++x) {
        const std::uint8_t flag = g.flags[g.index(x, y, z)];
        std::int64_t src[L::Q];
        const int c[3] = {x, y, z};
        const bool face = flag == cell::fluid && x >= 1 && x <= nx - 2 && !on_wall_model_face<L, R>(g, k, c);
        if (face) face_sources<L, R>(g, k, stride, x, y, z, src);
        bool same = open_face && face;
        for (int i = 0; same && i < L::Q; ++i) same = src[i] == prev[i];
        if (same) {
          p.seg.back().x1 = x + 1;
        } else if (face) {
          p.seg.push_back(Segment{x, x + 1, 2, std::int32_t(p.face_src.size())});
          for (int i = 0; i < L::Q; ++i) {
            p.face_src.push_back(src[i]);
            prev[i] = src[i];
            p.far_field = p.far_field || src[i] == kFreeStream;
          }
        } else if (!open_face && x > sg.x0) {
          p.seg.back().x1 = x + 1;
        } else {
          p.seg.push_back(Segment{x, x + 1, 0, 0});
        }
        (face ? p.face_cells : p.scalar_cells) += 1;
        open_face = face;
      }
    }
    p.begin.push_back(std::int64_t(p.seg.size()));
  }
  return p;
}

// The free-stream rows the face segments read, refilled for the constants of each step (the inflow ramp scales
// the free stream): Q × nx values, so that a row loop reads value (i, x) at ld[i][x].
template <class L, class T>
struct FaceRows {
  std::vector<T> free_stream;
  int nx = 0;

  template <class R>
  void fill(const RowPlan& p, const StepConstants<R>& k, int nx_) {
    fill(p.far_field, k, nx_);
  }
  template <class R>
  void fill(bool far_field, const StepConstants<R>& k, int nx_) {
    if (!far_field) return;
    nx = nx_;
    free_stream.resize(std::size_t(L::Q) * std::size_t(nx));
    for (int i = 0; i < L::Q; ++i)
      std::fill_n(free_stream.data() + std::size_t(i) * nx, nx, T(free_stream_population<L, R>(k, i)));
  }

  // The load pointers of a face segment: ld[i][x] is population i of its cell x.
  void loads(const RowPlan& p, const Segment& sg, const T* src, const T* (&ld)[L::Q]) const {
    const std::int64_t* s = p.face_src.data() + sg.src;
    for (int i = 0; i < L::Q; ++i)
      ld[i] = s[i] == kFreeStream ? free_stream.data() + std::size_t(i) * nx : src + s[i];
  }
};

// In place (AA): the face cells' runs through the same vector loop. A boundary cell reads the snapshot of the
// previous step (kernels/storage/aa_lattice.hpp), where its row's cells, and the interior cells beside them, have
// consecutive rows (build_aa_rows puts both in index order); so along a run of face cells population i comes from
// the same direction j of snapshot rows that advance with x, and the cell's new values go to consecutive rows of
// the next snapshot and to consecutive slots of the lattice. `src`: per run and direction, j × rows + (the source's
// row) − x, or kFreeStream; the other boundary rows (near the body, open faces, the ends of rows) stay per cell.
struct AAFaceRun {
  std::int64_t r0;  // the first cell's snapshot row (the run's rows are r0 .. r0 + x1 − x0 − 1)
  std::int32_t x0, x1, y, z;
  std::int64_t src;  // into AAFacePlan::src, Q entries
};

// The shortest run of gathered cells copied direction by direction (shorter ones go row by row).
inline constexpr int kMinGatherRun = 8;

struct AAFacePlan {
  std::vector<AAFaceRun> runs;
  std::vector<std::int64_t> src;
  std::vector<std::int64_t> cell_rows;  // boundary rows updated per cell
  AAOpenNodes open_nodes;               // open nodes read in the gather phase (cpu_open_nodes.hpp)
  bool far_field = false;
  std::int64_t face_cells = 0;
  // The gather before each step (aa_gather_row: the interior cells the boundary cells read, copied into the
  // snapshot): runs of cells with consecutive rows along x, 1 ≤ x ≤ nx−2, whose slots in either layout advance
  // with x, so each direction is one copy; the other gathered rows one at a time. Only the rows that the face runs
  // and the per-cell rows read: the open nodes of open_nodes read their neighbours in the lattice.
  std::vector<AAFaceRun> gather_runs;  // src unused; each at least kMinGatherRun cells
  std::vector<std::int64_t> gather_rows;
};

// Whether the cell at x with snapshot row r continues run b: the next cell of the same row and the next row.
inline bool continues(const AAFaceRun& b, const int (&x)[3], std::int64_t r) {
  return b.y == x[1] && b.z == x[2] && b.x1 == x[0] && b.r0 + (b.x1 - b.x0) == r;
}

template <class L, class R>
AAFacePlan build_aa_face_plan(const GridView& g, const StepConstants<R>& k, const AARows& rows) {
  AAFacePlan p;
  const std::int64_t nrows = std::int64_t(rows.row_cell.size());
  const int nx = g.n[0];
  // The gathered rows some boundary cell reads from the snapshot.
  std::vector<char> read(std::size_t(nrows), 0);
  auto mark = [&](std::int64_t m) {
    if (rows.row[m] >= rows.boundary_rows) read[std::size_t(rows.row[m])] = 1;
  };
  const std::int64_t grid_rows = std::int64_t(g.n[1]) * g.n[2];
  p.open_nodes.begin.assign(std::size_t(grid_rows) + 1, 0);
  std::int64_t prev[L::Q];
  bool open = false;  // the last run may grow
  for (std::int64_t r = 0; r < rows.boundary_rows; ++r) {
    const std::int64_t n = rows.row_cell[r];
    int x[3];
    cell_coords(g, n, x);
    const bool face = g.flags[n] == cell::fluid && x[0] >= 1 && x[0] <= nx - 2 && !k.wall_function;
    if (!face) {
      open = false;
      std::int64_t nb_row = -1;
      if (open_node_in_batches<L>(g, rows, n, x, nb_row)) {
        const bool inlet = (g.flags[n] & cell::type_mask) == cell::inlet;
        p.open_nodes.node.push_back(AAOpenNode{r, nb_row, x[0], inlet ? 1 : 0, x[1], x[2]});
        ++p.open_nodes.begin[std::size_t(x[1] + std::int64_t(g.n[1]) * x[2]) + 1];
        continue;
      }
      p.cell_rows.push_back(r);
      if ((g.flags[n] & cell::type_mask) == cell::inlet || (g.flags[n] & cell::type_mask) == cell::outlet) {
        mark(g.index((g.flags[n] & cell::type_mask) == cell::inlet ? x[0] + 1 : x[0] - 1, x[1], x[2]));
        continue;
      }
      // Any other boundary cell: every neighbour (what build_aa_rows gathers for it).
      for_each_neighbour<L>(g, x, mark);
      continue;
    }
    std::int64_t src[L::Q];
    for (int i = 0; i < L::Q; ++i) {
      const StreamSource s = stream_source<L, R>(g, k, x, n, i);
      src[i] = s.m < 0 ? kFreeStream : std::int64_t(s.j) * nrows + rows.row[s.m] - x[0];
      if (s.m >= 0) mark(s.m);
    }
    bool same = open && continues(p.runs.back(), x, r);
    for (int i = 0; same && i < L::Q; ++i) same = src[i] == prev[i];
    if (same) {
      p.runs.back().x1 = x[0] + 1;
    } else {
      p.runs.push_back(AAFaceRun{r, x[0], x[0] + 1, x[1], x[2], std::int64_t(p.src.size())});
      for (int i = 0; i < L::Q; ++i) {
        p.src.push_back(src[i]);
        prev[i] = src[i];
        p.far_field = p.far_field || src[i] == kFreeStream;
      }
    }
    ++p.face_cells;
    open = true;
  }
  for (std::size_t r = 1; r < p.open_nodes.begin.size(); ++r) p.open_nodes.begin[r] += p.open_nodes.begin[r - 1];
  for (const int kind : {1, 0}) {
    const std::int64_t first = std::int64_t(p.open_nodes.order.size());
    for (std::size_t o = 0; o < p.open_nodes.node.size(); ++o)
      if (p.open_nodes.node[o].inlet == kind) p.open_nodes.order.push_back(std::int64_t(o));
    const std::int64_t end = std::int64_t(p.open_nodes.order.size());
    for (std::int64_t b = first; b < end; b += kOpenBatch)
      p.open_nodes.batch.push_back(AAOpenBatch{b, std::int32_t(std::min<std::int64_t>(kOpenBatch, end - b)), kind});
  }
  // The batches in the order of their grid rows, inlets and outlets alternating: the gather phase hands them out
  // in equal shares (schedule static), as the row loop hands out the grid rows, so a thread updates the nodes
  // whose slots its rows then fill (aa_open_node_slots) and the next snapshot's rows they read. Inlets first, then
  // outlets, one thread took the inlets and the other the outlets, each node's next-snapshot row sharing its cache
  // lines with the other kind's node of the same grid row: both threads wrote the same lines at once, and the row
  // loop read half its nodes from the other core.
  auto grid_row = [&](const AAOpenBatch& b) {
    const AAOpenNode& o = p.open_nodes.node[std::size_t(p.open_nodes.order[std::size_t(b.first)])];
    return o.y + std::int64_t(g.n[1]) * o.z;
  };
  std::stable_sort(p.open_nodes.batch.begin(), p.open_nodes.batch.end(),
                   [&](const AAOpenBatch& a, const AAOpenBatch& b) { return grid_row(a) < grid_row(b); });
  for (std::int64_t r = rows.boundary_rows; r < nrows; ++r) {
    if (!read[std::size_t(r)]) continue;
    const std::int64_t n = rows.row_cell[r];
    int x[3];
    cell_coords(g, n, x);
    if (x[0] < 1 || x[0] > nx - 2) {
      p.gather_rows.push_back(r);
      continue;
    }
    if (!p.gather_runs.empty() && continues(p.gather_runs.back(), x, r)) {
      p.gather_runs.back().x1 = x[0] + 1;
      continue;
    }
    p.gather_runs.push_back(AAFaceRun{r, x[0], x[0] + 1, x[1], x[2], 0});
  }
  // A short run's rows go one at a time: a run costs a library copy per direction, which for a few cells is
  // mostly the call (the cells beside the inlet and outlet are runs of one cell, one per row of the grid: on the
  // CI wing 4,600 of its 5,100 gather runs, 87,000 calls of one value per step).
  std::vector<AAFaceRun> long_runs;
  for (const AAFaceRun& b : p.gather_runs) {
    if (b.x1 - b.x0 >= kMinGatherRun) {
      long_runs.push_back(b);
      continue;
    }
    for (std::int64_t r = b.r0; r < b.r0 + (b.x1 - b.x0); ++r) p.gather_rows.push_back(r);
  }
  p.gather_runs.swap(long_runs);
  return p;
}

}  // namespace aerolbm::cpu
