#pragma once
// The surrogate network as plain arrays (postprocess/surrogate/SCHEMA.md, model.h5 versions 1 and 2). No HDF5 and
// no CUDA here: the file reader (model_file.hpp), the CPU forward pass and the CUDA forward pass all share it.
// C++17 on purpose, because the CUDA path's .cu files include it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aerolbm::surrogate {

// The fixed uniform sample grid the surrogate works on, in chord units with the quarter chord at the origin and
// the free stream along +x. Point (i, j) has index j*nx + i and lies at (x0 + i·dx, y0 + j·dy), ends inclusive.
struct SampleGrid {
  int nx = 128, ny = 64;
  double x0 = -1.0, x1 = 3.0, y0 = -1.0, y1 = 1.0;
  std::int64_t points() const { return std::int64_t(nx) * ny; }
  double dx() const { return nx > 1 ? (x1 - x0) / (nx - 1) : 0.0; }
  double dy() const { return ny > 1 ? (y1 - y0) / (ny - 1) : 0.0; }
  double x(int i) const { return x0 + i * dx(); }
  double y(int j) const { return y0 + j * dy(); }
};

// y = x Wᵀ + b with W [out, in] row-major (PyTorch layout).
struct Linear {
  int out = 0, in = 0;
  std::vector<float> W, b;
};

struct LayerNormWeights {
  std::vector<float> gamma, beta;
};

struct Block {
  LayerNormWeights ln1, ln2;
  Linear q, k, v, o, mlp0, mlp2;
};

inline constexpr int kPointFeatures = 4;  // x, y, sdf, mask
inline constexpr int kParamFeatures = 5;  // camber, camber_position, thickness, aoa_deg, reynolds (log10 inside)
inline constexpr int kOutputs = 3;        // u, v, Cp
// The coefficient head's outputs (version 2): C_L, C_D and, in models trained on data with the pitching moment
// (attribute coefficients = 3), C_M about the quarter chord. Arrays hold kCoefficients; a 2-output head leaves the
// third NaN.
inline constexpr int kCoefficients = 3;

// The coefficient head (version 2): P softmax poolings over the final normalised tokens a [T, D] with scores
// a·scoreᵀ + b [T, P], pooled [P, D]; then mlp2(GELU(mlp0(concat(pooled_0, …, pooled_{P−1}, g)))) → normalised
// C_L, C_D (and C_M), with g the conditioning vector.
struct CoefficientHead {
  int pool_heads = 0;
  int outputs = 2;  // 2: C_L, C_D; 3: and C_M
  Linear score, mlp0, mlp2;
  std::array<float, kCoefficients> mean{}, std{};  // /norm/coef_mean, /norm/coef_std
};

struct Model {
  int version = 0;
  int d_model = 0, heads = 0, layers = 0, mlp_ratio = 0;
  SampleGrid grid;
  std::array<float, kPointFeatures> point_mean{}, point_std{};
  std::array<float, kParamFeatures> param_mean{}, param_std{};
  std::array<float, kOutputs> out_mean{}, out_std{};
  Linear embed0, embed2, cond0, cond2;
  std::vector<Block> blocks;
  LayerNormWeights ln_f;
  Linear head;
  std::optional<CoefficientHead> coef;  // version 2; a version-1 model has none (fields only)
  // One input/output pair computed by PyTorch at export: raw points [T, 4], raw params [5], raw output [T, 3],
  // and (version 2) the raw C_L, C_D of the head.
  std::vector<float> ref_points;
  std::array<float, kParamFeatures> ref_params{};
  std::vector<float> ref_output;
  std::array<float, kCoefficients> ref_coefficients{};

  int head_dim() const { return heads > 0 ? d_model / heads : 0; }
  int pool_heads() const { return coef ? coef->pool_heads : 0; }
};

// What a forward pass gives for one case: raw u, v, Cp [T, 3], and the raw C_L, C_D of the coefficient head when
// the model has one.
struct NetworkOutput {
  std::vector<float> fields;
  std::optional<std::array<float, kCoefficients>> coefficients;
};

}  // namespace aerolbm::surrogate
