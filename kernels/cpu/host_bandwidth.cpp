// Host copy bandwidth: the CPU counterpart of cuda_copy_bandwidth_gbs, so that `aerolbm bench --backend cpu` has
// a ceiling measured in the same process. Each OpenMP thread copies its own contiguous share of a large buffer
// (memcpy: the fastest copy the C library has for the host), the buffers first touched by the same threads with the
// same split, so each share lives near the core that copies it.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/backend.hpp"

namespace aerolbm {

double host_copy_bandwidth_gbs(std::size_t bytes, int repeats, int threads) {
  if (threads <= 0) threads = omp_get_max_threads();
  repeats = std::max(repeats, 1);
  const std::size_t n = std::max<std::size_t>(bytes / sizeof(double), 1);
  std::unique_ptr<double[]> src(new double[n]), dst(new double[n]);  // not touched yet: the threads do it below
  double* const a = src.get();
  double* const b = dst.get();
  auto share = [n](int t, int nt, std::size_t& lo, std::size_t& hi) {
    lo = n * std::size_t(t) / std::size_t(nt);
    hi = n * std::size_t(t + 1) / std::size_t(nt);
  };
#pragma omp parallel num_threads(threads)
  {
    std::size_t lo, hi;
    share(omp_get_thread_num(), omp_get_num_threads(), lo, hi);
    for (std::size_t i = lo; i < hi; ++i) a[i] = double(i);
    std::memset(b + lo, 0, (hi - lo) * sizeof(double));
  }
  std::vector<double> t;
  for (int r = 0; r <= repeats; ++r) {  // the first copy is a warm-up
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads)
    {
      std::size_t lo, hi;
      share(omp_get_thread_num(), omp_get_num_threads(), lo, hi);
      std::memcpy(b + lo, a + lo, (hi - lo) * sizeof(double));
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) t.push_back(s);
  }
  std::sort(t.begin(), t.end());
  const double med = t[t.size() / 2];
  return med > 0 ? 2.0 * double(n * sizeof(double)) / med * 1e-9 : 0.0;
}

}  // namespace aerolbm
