#pragma once
// What both forward passes (CPU and CUDA) do identically on the host: normalise the raw inputs, turn the parameter
// vector into the conditioning vector g (5 → hidden → D, a few hundred operations), and the coefficient head's MLP
// after the pooling (a few ten thousand operations).
#include <array>
#include <vector>

#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

// Raw point features [T, 4] (x, y, sdf, mask) → normalised [T, 4].
std::vector<float> normalise_points(const Model& m, const std::vector<float>& points);
// Raw params (camber, camber_position, thickness, aoa_deg, Reynolds) → log10 Re → normalised [5].
std::array<float, kParamFeatures> normalise_params(const Model& m, const std::array<float, kParamFeatures>& params);
// g = cond.2(GELU(cond.0(c))) [D].
std::vector<float> condition_vector(const Model& m, const std::array<float, kParamFeatures>& normalised);
// y [T, 3] in place: y * out_std + out_mean.
void denormalise_outputs(const Model& m, std::vector<float>& y);
// Raw C_L, C_D from the pooled tokens [P·D] (pooled_0, …, pooled_{P−1}) and the case's conditioning vector g [D]:
// mlp2(GELU(mlp0(concat(pooled, g)))) · coef_std + coef_mean. The model must have the head (m.coef).
std::array<float, kCoefficients> coefficient_head(const Model& m, const float* pooled, const std::vector<float>& g);

// The exact (erf) GELU the model was trained with.
float gelu(float x);

}  // namespace aerolbm::surrogate
