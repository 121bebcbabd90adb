// A rank's owned density and velocity plus one layer from each face neighbour (BlockFields), for output that every
// rank writes together. One message per neighbouring face, both ways at once; faces of the whole grid (also
// periodic ones: the frame's derivatives are one-sided there, as in a one-process run) get no layer.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <stdexcept>

#include "src/parallel/mpi_comm.hpp"
#include "src/parallel/mpi_tags.hpp"

namespace aerolbm {
namespace {

// Calls fn(x, y, z) for the cells of [lo, hi), x fastest.
template <class Fn>
void for_box(const std::int64_t (&lo)[3], const std::int64_t (&hi)[3], Fn&& fn) {
  for (std::int64_t z = lo[2]; z < hi[2]; ++z)
    for (std::int64_t y = lo[1]; y < hi[1]; ++y)
      for (std::int64_t x = lo[0]; x < hi[0]; ++x) fn(x, y, z);
}

}  // namespace

BlockFields owned_fields_with_layer(const Block& b, const std::int64_t (&n)[3], const std::int64_t (&origin)[3],
                                    const std::int64_t (&ln)[3], const std::vector<float>& lrho,
                                    const std::vector<float>& lu) {
  BlockFields out;
  bool layer[3][2];
  for (int a = 0; a < 3; ++a) {
    layer[a][0] = b.lo[a] > 0;
    layer[a][1] = b.hi[a] < n[a];
    for (int s = 0; s < 2; ++s)
      if (layer[a][s] && b.neighbour[a][s] < 0) throw std::logic_error("block fields: a face without a neighbour");
    out.owned.lo[a] = b.lo[a];
    out.owned.n[a] = b.hi[a] - b.lo[a];
    out.input.lo[a] = b.lo[a] - (layer[a][0] ? 1 : 0);
    out.input.n[a] = out.owned.n[a] + (layer[a][0] ? 1 : 0) + (layer[a][1] ? 1 : 0);
  }
  const GridBox& in = out.input;
  out.rho.assign(std::size_t(in.cells()), 0.0f);
  out.u.assign(std::size_t(3 * in.cells()), 0.0f);
  const auto input_index = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return std::size_t((x - in.lo[0]) + in.n[0] * ((y - in.lo[1]) + in.n[1] * (z - in.lo[2])));
  };
  const auto local_index = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return std::size_t((x - origin[0]) + ln[0] * ((y - origin[1]) + ln[1] * (z - origin[2])));
  };
  for_box(b.lo, b.hi, [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    const std::size_t i = input_index(x, y, z), l = local_index(x, y, z);
    out.rho[i] = lrho[l];
    for (std::size_t c = 0; c < 3; ++c) out.u[3 * i + c] = lu[3 * l + c];
  });

  // Per neighbouring face: the owned layer next to it goes out, the neighbour's layer comes into the input box.
  struct Face {
    std::int64_t send_lo[3], send_hi[3], recv_lo[3], recv_hi[3];
    std::vector<float> send, recv;  // rho, ux, uy, uz per cell
  };
  std::vector<Face> faces;
  std::vector<MPI_Request> req;
  faces.reserve(6);
  req.reserve(12);
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      if (!layer[a][s]) continue;
      Face& f = faces.emplace_back();
      for (int k = 0; k < 3; ++k) {
        f.send_lo[k] = f.recv_lo[k] = b.lo[k];
        f.send_hi[k] = f.recv_hi[k] = b.hi[k];
      }
      f.send_lo[a] = s == 0 ? b.lo[a] : b.hi[a] - 1;
      f.recv_lo[a] = s == 0 ? b.lo[a] - 1 : b.hi[a];
      f.send_hi[a] = f.send_lo[a] + 1;
      f.recv_hi[a] = f.recv_lo[a] + 1;
      for_box(f.send_lo, f.send_hi, [&](std::int64_t x, std::int64_t y, std::int64_t z) {
        const std::size_t i = input_index(x, y, z);
        f.send.push_back(out.rho[i]);
        for (std::size_t c = 0; c < 3; ++c) f.send.push_back(out.u[3 * i + c]);
      });
      f.recv.resize(f.send.size());  // blocks are aligned: the neighbour's face has the same cells across
      const int peer = b.neighbour[a][s];
      req.emplace_back();
      MPI_Irecv(f.recv.data(), int(f.recv.size()), MPI_FLOAT, peer,
                mpi_tag::kBlockFields + mpi_tag::face(a, s == 0), MPI_COMM_WORLD, &req.back());
      req.emplace_back();
      MPI_Isend(f.send.data(), int(f.send.size()), MPI_FLOAT, peer,
                mpi_tag::kBlockFields + mpi_tag::face(a, s == 1), MPI_COMM_WORLD, &req.back());
    }
  MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
  for (Face& f : faces) {
    std::size_t k = 0;
    for_box(f.recv_lo, f.recv_hi, [&](std::int64_t x, std::int64_t y, std::int64_t z) {
      const std::size_t i = input_index(x, y, z);
      out.rho[i] = f.recv[k++];
      for (std::size_t c = 0; c < 3; ++c) out.u[3 * i + c] = f.recv[k++];
    });
  }
  return out;
}

}  // namespace aerolbm
