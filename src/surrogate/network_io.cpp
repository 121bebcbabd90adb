#include "src/surrogate/network_io.hpp"

#include <limits>
#include <cmath>
#include <stdexcept>

#include "src/surrogate/cuda_inference.hpp"

namespace aerolbm::surrogate {

float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f)); }

namespace {

// y = W x + b for one vector x [l.in] (GELU after it when asked).
std::vector<float> dense(const Linear& l, const float* x, bool gelu_after) {
  std::vector<float> y(l.out);
  for (int o = 0; o < l.out; ++o) {
    float s = l.b[o];
    for (int i = 0; i < l.in; ++i) s += l.W[std::size_t(o) * l.in + i] * x[i];
    y[o] = gelu_after ? gelu(s) : s;
  }
  return y;
}

}  // namespace

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
  return dense(m.cond2, dense(m.cond0, c.data(), true).data(), false);
}

std::array<float, kCoefficients> coefficient_head(const Model& m, const float* pooled, const std::vector<float>& g) {
  if (!m.coef) throw std::logic_error("coefficient_head: the model has no coefficient head (model.h5 version 1)");
  const CoefficientHead& h = *m.coef;
  const std::size_t PD = std::size_t(h.pool_heads) * std::size_t(m.d_model);
  std::vector<float> z(pooled, pooled + PD);
  z.insert(z.end(), g.begin(), g.end());
  const std::vector<float> y = dense(h.mlp2, dense(h.mlp0, z.data(), true).data(), false);
  std::array<float, kCoefficients> k;
  k.fill(std::numeric_limits<float>::quiet_NaN());
  for (int i = 0; i < h.outputs; ++i) k[std::size_t(i)] = y[std::size_t(i)] * h.std[std::size_t(i)] + h.mean[std::size_t(i)];
  return k;
}

void denormalise_outputs(const Model& m, std::vector<float>& y) {
  const std::size_t T = y.size() / kOutputs;
  for (std::size_t t = 0; t < T; ++t)
    for (int f = 0; f < kOutputs; ++f) y[t * kOutputs + f] = y[t * kOutputs + f] * m.out_std[f] + m.out_mean[f];
}

NetworkOutput forward_cuda(CudaSurrogate& s, const Model& m, const std::vector<float>& points,
                           const std::array<float, kParamFeatures>& params, int repeats, CudaTiming* timing) {
  return forward_cuda_batch(s, m, {points}, {params}, repeats, timing).front();
}

std::vector<NetworkOutput> forward_cuda_batch(CudaSurrogate& s, const Model& m,
                                              const std::vector<std::vector<float>>& points,
                                              const std::vector<std::array<float, kParamFeatures>>& params,
                                              int repeats, CudaTiming* timing) {
  if (points.empty() || points.size() != params.size())
    throw std::invalid_argument("forward_cuda_batch: one parameter set per point set, at least one");
  const std::size_t n = points.front().size();
  std::vector<float> all, g;
  std::vector<std::vector<float>> gs;
  all.reserve(n * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != n) throw std::invalid_argument("forward_cuda_batch: the cases' sample grids differ");
    const std::vector<float> p = normalise_points(m, points[i]);
    all.insert(all.end(), p.begin(), p.end());
    gs.push_back(condition_vector(m, normalise_params(m, params[i])));
    g.insert(g.end(), gs.back().begin(), gs.back().end());
  }
  CudaPass pass = s.forward_normalised(all, g, int(points.size()), repeats, timing);
  denormalise_outputs(m, pass.fields);
  std::vector<NetworkOutput> out(points.size());
  const std::size_t per = pass.fields.size() / points.size();
  const std::size_t PD = std::size_t(m.pool_heads()) * std::size_t(m.d_model);
  for (std::size_t i = 0; i < points.size(); ++i) {
    out[i].fields.assign(pass.fields.begin() + std::ptrdiff_t(i * per),
                         pass.fields.begin() + std::ptrdiff_t((i + 1) * per));
    if (m.coef) out[i].coefficients = coefficient_head(m, pass.pooled.data() + i * PD, gs[i]);
  }
  return out;
}

}  // namespace aerolbm::surrogate
