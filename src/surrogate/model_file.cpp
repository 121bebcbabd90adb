#include "src/surrogate/model_file.hpp"

#include <limits>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "src/io/hdf5_reader.hpp"

namespace aerolbm::surrogate {
namespace {

const char* const kFix =
    " Use a model file written by postprocess/surrogate/export.py (format aerolbm-surrogate, version 2 or 1, "
    "postprocess/surrogate/SCHEMA.md), or export the trained model again.";

std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

class Checker {
 public:
  Checker(const std::filesystem::path& file, const h5::Reader& in) : file_(file), in_(in) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw ModelFileError("model file " + file_.string() + ": " + what + "." + kFix);
  }

  int int_attr(const std::string& name, int lo, int hi) const {
    const auto v = in_.attr_int("/", name);  // h5::Error when it is not a single integer
    if (!v) fail("root attribute '" + name + "' is missing");
    if (*v < lo || *v > hi)
      fail("root attribute '" + name + "' is " + std::to_string(*v) + ", expected " + std::to_string(lo) + " to " +
           std::to_string(hi));
    return int(*v);
  }

  double double_attr(const std::string& name) const {
    const auto v = in_.attr_double("/", name);  // h5::Error when it is not a single number
    if (!v) fail("root attribute '" + name + "' is missing");
    if (!std::isfinite(*v)) fail("root attribute '" + name + "' is not finite");
    return *v;
  }

  // A float dataset of exactly `shape`, every value finite.
  std::vector<float> floats(const std::string& path, const std::vector<std::int64_t>& shape,
                            const std::string& meaning) const {
    const auto s = in_.shape(path);
    if (!s) fail("dataset " + path + " (" + meaning + ", shape " + shape_text(shape) + ") is missing");
    if (*s != shape)
      fail("dataset " + path + " (" + meaning + ") has shape " + shape_text(*s) + ", expected " + shape_text(shape));
    const std::string cls = in_.type_class(path);
    if (cls != "float" && cls != "integer")
      fail("dataset " + path + " holds " + cls + " values, expected float32 numbers");
    std::vector<float> v = in_.read<float>(path);
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i])) fail("dataset " + path + " has a non-finite value (NaN or Inf) at element " +
                                     std::to_string(i));
    return v;
  }

  template <std::size_t N>
  std::array<float, N> fixed(const std::string& path, const std::string& meaning, bool positive = false) const {
    const auto v = floats(path, {std::int64_t(N)}, meaning);
    std::array<float, N> a{};
    for (std::size_t i = 0; i < N; ++i) {
      if (positive && !(v[i] > 0))
        fail("dataset " + path + " (" + meaning + ") element " + std::to_string(i) + " is " + std::to_string(v[i]) +
             ", expected a positive standard deviation");
      a[i] = v[i];
    }
    return a;
  }

  // Linear layer `name` under /weights with W [out, in]; in = −1 or out = −1: take it from the file (> 0).
  Linear linear(const std::string& name, int out, int in) const {
    const std::string w = "/weights/" + name + ".W", b = "/weights/" + name + ".b";
    if (out < 0 || in < 0) {
      const auto s = in_.shape(w);
      if (!s) fail("dataset " + w + " (weights of linear layer " + name + ") is missing");
      if (s->size() != 2 || (*s)[0] < 1 || (*s)[1] < 1 || (*s)[0] > 65536 || (*s)[1] > 65536)
        fail("dataset " + w + " has shape " + shape_text(*s) + ", expected a matrix [out, in]");
      if (out < 0) out = int((*s)[0]);
      if (in < 0) in = int((*s)[1]);
    }
    Linear l;
    l.out = out;
    l.in = in;
    l.W = floats(w, {out, in}, "weights of linear layer " + name + ", [out, in]");
    l.b = floats(b, {out}, "bias of linear layer " + name);
    return l;
  }

  LayerNormWeights layer_norm(const std::string& name, int d) const {
    LayerNormWeights n;
    n.gamma = floats("/weights/" + name + ".gamma", {d}, "LayerNorm scale");
    n.beta = floats("/weights/" + name + ".beta", {d}, "LayerNorm shift");
    return n;
  }

 private:
  const std::filesystem::path& file_;
  const h5::Reader& in_;
};

Model read_model(const std::filesystem::path& file, const h5::Reader& in) {
  const Checker c(file, in);
  const auto format = in.attr_string("/", "format");
  if (!format)
    c.fail("it has no root attribute 'format' (a string '" + std::string(kModelFormat) +
           "'), so it is not a surrogate model file");
  if (*format != kModelFormat)
    c.fail("root attribute 'format' is '" + *format + "', expected '" + kModelFormat + "'" +
           (*format == "aerolbm-dataset" ? " (this is a dataset from aerolbm sweep, not a trained model)" : ""));
  const auto version = in.attr_int("/", "version");
  if (!version) c.fail("root attribute 'version' is missing");
  if (*version < kOldestModelVersion || *version > kModelVersion)
    c.fail("version " + std::to_string(*version) +
           " is not supported: this aerolbm reads versions 1 (fields) and 2 (fields and the C_L, C_D head)");

  Model m;
  m.version = int(*version);
  m.d_model = c.int_attr("d_model", 1, 8192);
  m.heads = c.int_attr("heads", 1, 256);
  m.layers = c.int_attr("layers", 0, 256);
  m.mlp_ratio = c.int_attr("mlp_ratio", 1, 64);
  if (m.d_model % m.heads != 0)
    c.fail("d_model " + std::to_string(m.d_model) + " is not divisible by heads " + std::to_string(m.heads));
  c.int_attr("point_features", kPointFeatures, kPointFeatures);
  c.int_attr("param_features", kParamFeatures, kParamFeatures);
  c.int_attr("outputs", kOutputs, kOutputs);
  m.grid.nx = c.int_attr("nx", 2, 1 << 16);
  m.grid.ny = c.int_attr("ny", 2, 1 << 16);
  m.grid.x0 = c.double_attr("x0");
  m.grid.x1 = c.double_attr("x1");
  m.grid.y0 = c.double_attr("y0");
  m.grid.y1 = c.double_attr("y1");
  if (!(m.grid.x1 > m.grid.x0) || !(m.grid.y1 > m.grid.y0))
    c.fail("the sample grid runs from (x0, y0) = (" + std::to_string(m.grid.x0) + ", " + std::to_string(m.grid.y0) +
           ") to (x1, y1) = (" + std::to_string(m.grid.x1) + ", " + std::to_string(m.grid.y1) +
           "), expected x1 > x0 and y1 > y0");
  if (m.grid.points() > (std::int64_t(1) << 22)) c.fail("the sample grid has more than 4M points");

  m.point_mean = c.fixed<kPointFeatures>("/norm/point_mean", "point feature means");
  m.point_std = c.fixed<kPointFeatures>("/norm/point_std", "point feature standard deviations", true);
  m.param_mean = c.fixed<kParamFeatures>("/norm/param_mean", "parameter means");
  m.param_std = c.fixed<kParamFeatures>("/norm/param_std", "parameter standard deviations", true);
  m.out_mean = c.fixed<kOutputs>("/norm/out_mean", "output means");
  m.out_std = c.fixed<kOutputs>("/norm/out_std", "output standard deviations", true);

  const int D = m.d_model;
  m.embed0 = c.linear("embed.0", -1, kPointFeatures);
  m.embed2 = c.linear("embed.2", D, m.embed0.out);
  m.cond0 = c.linear("cond.0", -1, kParamFeatures);
  m.cond2 = c.linear("cond.2", D, m.cond0.out);
  for (int l = 0; l < m.layers; ++l) {
    const std::string p = "blocks." + std::to_string(l) + ".";
    Block b;
    b.ln1 = c.layer_norm(p + "ln1", D);
    b.q = c.linear(p + "q", D, D);
    b.k = c.linear(p + "k", D, D);
    b.v = c.linear(p + "v", D, D);
    b.o = c.linear(p + "o", D, D);
    b.ln2 = c.layer_norm(p + "ln2", D);
    b.mlp0 = c.linear(p + "mlp.0", m.mlp_ratio * D, D);
    b.mlp2 = c.linear(p + "mlp.2", D, m.mlp_ratio * D);
    m.blocks.push_back(std::move(b));
  }
  if (in.exists("/weights/blocks." + std::to_string(m.layers) + ".ln1.gamma"))
    c.fail("it holds weights for block " + std::to_string(m.layers) + " but attribute 'layers' is " +
           std::to_string(m.layers));
  m.ln_f = c.layer_norm("ln_f", D);
  m.head = c.linear("head", kOutputs, D);
  if (m.version >= 2) {
    CoefficientHead h;
    h.outputs = c.int_attr("coefficients", 2, kCoefficients);
    h.pool_heads = c.int_attr("pool_heads", 1, 256);
    const auto head_values = [&](const std::string& path, const std::string& meaning, bool positive) {
      const auto v = c.floats(path, {std::int64_t(h.outputs)}, meaning);
      std::array<float, kCoefficients> a;
      a.fill(std::numeric_limits<float>::quiet_NaN());
      for (int i = 0; i < h.outputs; ++i) {
        if (positive && !(v[std::size_t(i)] > 0))
          c.fail("dataset " + path + " (" + meaning + ") element " + std::to_string(i) + " is " +
                 std::to_string(v[std::size_t(i)]) + ", expected a positive standard deviation");
        a[std::size_t(i)] = v[std::size_t(i)];
      }
      return a;
    };
    h.mean = head_values("/norm/coef_mean", "coefficient means (C_L, C_D[, C_M])", false);
    h.std = head_values("/norm/coef_std", "coefficient standard deviations (C_L, C_D[, C_M])", true);
    h.score = c.linear("coef.score", h.pool_heads, D);
    h.mlp0 = c.linear("coef.mlp.0", D, (h.pool_heads + 1) * D);
    h.mlp2 = c.linear("coef.mlp.2", h.outputs, D);
    m.coef = std::move(h);
  }

  const std::int64_t T = m.grid.points();
  m.ref_points = c.floats("/reference/points", {T, kPointFeatures}, "reference input points, T = nx*ny");
  const auto rp = c.fixed<kParamFeatures>("/reference/params", "reference input parameters");
  m.ref_params = rp;
  if (!(rp[4] > 0)) c.fail("dataset /reference/params has Reynolds number " + std::to_string(rp[4]) +
                           ", expected a positive value (raw, not log10)");
  m.ref_output = c.floats("/reference/output", {T, kOutputs}, "reference output u, v, Cp, T = nx*ny");
  if (m.coef) {
    const auto v = c.floats("/reference/coefficients", {std::int64_t(m.coef->outputs)},
                            "reference output C_L, C_D[, C_M]");
    m.ref_coefficients.fill(std::numeric_limits<float>::quiet_NaN());
    for (std::size_t i = 0; i < v.size(); ++i) m.ref_coefficients[i] = v[i];
  }
  return m;
}

}  // namespace

// What the HDF5 layer refuses (no file, not HDF5, an attribute of the wrong kind, an unreadable dataset) is as bad
// a model file as what the checks above refuse.
Model load_model(const std::filesystem::path& file) {
  try {
    const h5::Reader in(file);
    return read_model(file, in);
  } catch (const h5::Error& e) {
    throw ModelFileError("model file " + std::string(e.what()) + "." + kFix);
  }
}

}  // namespace aerolbm::surrogate
