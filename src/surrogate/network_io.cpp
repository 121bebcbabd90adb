#include "src/surrogate/network_io.hpp"

#include <cmath>
#include <stdexcept>

#include "src/surrogate/cuda_inference.hpp"

namespace aerolbm::surrogate {

float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f)); }

std::vector<float> normalise_points(const Model& m, const std::vector<float>& points) {
  std::vector<float> p(points.size());
  const std::size_t T = points.size() / kPointFeatures;
  for (std::size_t t = 0; t < T; ++t)
    for (int f = 0; f < kPointFeatures; ++f)
      p[t * kPointFeatures + f] = (points[t * kPointFeatures + f] - m.point_mean[f]) / m.point_std[f];
  return p;
}

std::array<float, kParamFeatures> normalise_params(const Model& m, const std::array<float, kParamFeatures>& params) {
  std::array<float, kParamFeatures> c{};
  for (int f = 0; f < kParamFeatures; ++f) {
    const float raw = f == 4 ? float(std::log10(double(params[f]))) : params[f];
    c[f] = (raw - m.param_mean[f]) / m.param_std[f];
  }
  return c;
}

std::vector<float> condition_vector(const Model& m, const std::array<float, kParamFeatures>& c) {
  std::vector<float> hidden(m.cond0.out), g(m.cond2.out);
  for (int o = 0; o < m.cond0.out; ++o) {
    float s = m.cond0.b[o];
    for (int i = 0; i < m.cond0.in; ++i) s += m.cond0.W[std::size_t(o) * m.cond0.in + i] * c[i];
    hidden[o] = gelu(s);
  }
  for (int o = 0; o < m.cond2.out; ++o) {
    float s = m.cond2.b[o];
    for (int i = 0; i < m.cond2.in; ++i) s += m.cond2.W[std::size_t(o) * m.cond2.in + i] * hidden[i];
    g[o] = s;
  }
  return g;
}

void denormalise_outputs(const Model& m, std::vector<float>& y) {
  const std::size_t T = y.size() / kOutputs;
  for (std::size_t t = 0; t < T; ++t)
    for (int f = 0; f < kOutputs; ++f) y[t * kOutputs + f] = y[t * kOutputs + f] * m.out_std[f] + m.out_mean[f];
}

std::vector<float> forward_cuda(CudaSurrogate& s, const Model& m, const std::vector<float>& points,
                                const std::array<float, kParamFeatures>& params, int repeats, CudaTiming* timing) {
  return forward_cuda_batch(s, m, {points}, {params}, repeats, timing).front();
}

std::vector<std::vector<float>> forward_cuda_batch(CudaSurrogate& s, const Model& m,
                                                   const std::vector<std::vector<float>>& points,
                                                   const std::vector<std::array<float, kParamFeatures>>& params,
                                                   int repeats, CudaTiming* timing) {
  if (points.empty() || points.size() != params.size())
    throw std::invalid_argument("forward_cuda_batch: one parameter set per point set, at least one");
  const std::size_t n = points.front().size();
  std::vector<float> all, g;
  all.reserve(n * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != n) throw std::invalid_argument("forward_cuda_batch: the cases' sample grids differ");
    const std::vector<float> p = normalise_points(m, points[i]);
    all.insert(all.end(), p.begin(), p.end());
    const std::vector<float> gi = condition_vector(m, normalise_params(m, params[i]));
    g.insert(g.end(), gi.begin(), gi.end());
  }
  std::vector<float> y = s.forward_normalised(all, g, int(points.size()), repeats, timing);
  denormalise_outputs(m, y);
  std::vector<std::vector<float>> out(points.size());
  const std::size_t per = y.size() / points.size();
  for (std::size_t i = 0; i < points.size(); ++i)
    out[i].assign(y.begin() + std::ptrdiff_t(i * per), y.begin() + std::ptrdiff_t((i + 1) * per));
  return out;
}

}  // namespace aerolbm::surrogate
