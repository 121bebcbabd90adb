// Reference attention: per query row, logits in double, the maximum subtracted before exp (so large logits do
// not overflow), then the weighted sum of value rows divided by the sum of weights.
#include "kernels/cpu/attention_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace aerolbm::attention {
namespace {

template <class T>
void reference(const Dims& d, double scale, const T* q, const Strides& qs, const T* k, const Strides& ks, const T* v,
               const Strides& vs, T* o, const Strides& os) {
  if (d.batch < 1 || d.heads < 1 || d.nq < 0 || d.nk < 1 || d.head_dim < 1)
    throw std::invalid_argument("attention_reference: batch, heads, nk and head_dim must be >= 1, nq >= 0");
  const std::int64_t rows = std::int64_t(d.batch) * d.heads * d.nq;
#pragma omp parallel
  {
    std::vector<double> w(std::size_t(d.nk)), acc(std::size_t(d.head_dim));
#pragma omp for schedule(static)
    for (std::int64_t idx = 0; idx < rows; ++idx) {
      const int n = int(idx % d.nq);
      const int h = int((idx / d.nq) % d.heads);
      const int b = int(idx / (std::int64_t(d.nq) * d.heads));
      const T* qr = q + qs.at(b, h, n);
      double mx = -INFINITY;
      for (int j = 0; j < d.nk; ++j) {
        const T* kr = k + ks.at(b, h, j);
        double s = 0.0;
        for (int i = 0; i < d.head_dim; ++i) s += double(qr[i]) * double(kr[i]);
        w[std::size_t(j)] = s * scale;
        mx = std::max(mx, w[std::size_t(j)]);
      }
      double sum = 0.0;
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int j = 0; j < d.nk; ++j) {
        const double e = std::exp(w[std::size_t(j)] - mx);
        sum += e;
        const T* vr = v + vs.at(b, h, j);
        for (int i = 0; i < d.head_dim; ++i) acc[std::size_t(i)] += e * double(vr[i]);
      }
      T* orow = o + os.at(b, h, n);
      for (int i = 0; i < d.head_dim; ++i) orow[i] = T(acc[std::size_t(i)] / sum);
    }
  }
}

}  // namespace

void attention_reference(const Dims& dims, double scale, const float* q, const Strides& qs, const float* k,
                         const Strides& ks, const float* v, const Strides& vs, float* o, const Strides& os) {
  reference(dims, scale, q, qs, k, ks, v, vs, o, os);
}
void attention_reference(const Dims& dims, double scale, const double* q, const Strides& qs, const double* k,
                         const Strides& ks, const double* v, const Strides& vs, double* o, const Strides& os) {
  reference(dims, scale, q, qs, k, ks, v, vs, o, os);
}

}  // namespace aerolbm::attention
