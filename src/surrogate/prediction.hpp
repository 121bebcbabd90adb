#pragma once
// `aerolbm predict` without the command line: a case + a model → the predicted fields, C_L and C_D (the model's
// coefficient head where it has one, and always integrated from the predicted field as a cross-check), and a run
// folder with the same files as `aerolbm run` (fields.h5 + fields.xdmf, fields.pvd + vtk/*.vti, summary.json,
// case.yaml) on the model's sample grid, so ParaView opens a prediction exactly like a simulation.
#include <cmath>
#include <limits>
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/backend_choice.hpp"
#include "src/case/case.hpp"
#include "src/geometry/polygon2d.hpp"
#include "src/io/frame.hpp"
#include "src/surrogate/field_sampling.hpp"
#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

struct Prediction {
  SampleGrid grid;
  std::vector<float> points;                    // raw inputs [T, 4]
  std::array<double, kParamFeatures> params{};  // raw params
  std::vector<float> output;                    // u, v, Cp [T, 3]
  std::vector<Point2> outline;                  // the section in the sample frame
  FieldCoefficients coefficients;               // integrated from the predicted field (reported as cl_field, ...)
  std::optional<std::array<double, kCoefficients>> head;  // C_L, C_D (C_M or NaN) of the coefficient head (version 2)
  std::string backend, device;
  double seconds = 0;        // inference time: CPU wall clock, CUDA median of device-timed passes
  double first_seconds = 0;  // the first pass (CUDA: cuBLAS start-up included)
  double wall_seconds = 0;   // inputs, upload, every pass and download
  int batch = 1;             // cases in the pass that predicted this one (a polar on CUDA: its share of the times)

  // What predict reports as C_L, C_D: the coefficient head's where the model has one, else the field-integrated.
  double cl() const { return head ? (*head)[0] : coefficients.cl; }
  double cd() const { return head ? (*head)[1] : coefficients.cd; }
  // The pitching moment about the quarter chord where the head predicts it (a model trained on data with C_M).
  std::optional<double> cm() const {
    return head && std::isfinite((*head)[2]) ? std::optional<double>((*head)[2]) : std::nullopt;
  }
};

// The most cases one batched CUDA pass of a polar takes (activations grow with it: about 50 MB per case for the
// shipped model's 8,192 tokens).
inline constexpr std::size_t kPolarBatch = 64;

// backend: Auto is resolved by resolve_backend (CUDA when a device is there). repeats: timed passes after the first (CUDA).
// Throws CaseError for a case the surrogate cannot take (not naca4).
Prediction predict_case(const Case& c, const Model& m, BackendKind backend, int repeats = 5);

// The case at each angle of attack in `alphas` (degrees), the rest of it as given: one model load and, on CUDA,
// one surrogate (weights uploaded once) and one batched pass per kPolarBatch angles, whose device time each
// prediction reports its share of. Each prediction's fields and coefficients as predict_case's.
std::vector<std::pair<double, Prediction>> predict_polar(const Case& c, const Model& m, BackendKind backend,
                                                         const std::vector<double>& alphas, int repeats = 5);

// The prediction as an output frame on the sample grid (velocity, Cp, vorticity, mask), and its grid.
Frame prediction_frame(const Prediction& p);
GridInfo prediction_grid(const SampleGrid& g);

// Writes fields (in the case's output.formats), case.yaml and summary.json into `dir` (which must exist).
void write_prediction(const std::filesystem::path& dir, const Case& c, const std::filesystem::path& model_file,
                      const Prediction& p);

// A polar (predict_polar) into `dir` (which must exist): polar.csv (alpha_deg, cl, cd, [cm where the head predicts
// it,] cl_field, cd_field,
// cl_pressure, cd_pressure, inference_s: one row per angle, in the order given; cl, cd as Prediction::cl(), cd()),
// case.yaml and summary.json (kind "polar prediction").
// postprocess/plot_polar.py DIR draws it.
void write_polar(const std::filesystem::path& dir, const Case& c, const std::filesystem::path& model_file,
                 const std::vector<std::pair<double, Prediction>>& polar);

}  // namespace aerolbm::surrogate
