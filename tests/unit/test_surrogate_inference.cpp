// Surrogate inference: the CPU forward pass (fields and the C_L, C_D head) against an independent float64 numpy
// implementation of SCHEMA.md (postprocess/surrogate/numpy_forward.py), version-1 files (no head) too, the
// attention and the pooling against naive double computations, and the model-file checks (missing dataset, wrong
// shape, wrong version, wrong format) with messages that name what is wrong.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "src/surrogate/cpu_inference.hpp"
#include "src/surrogate/model_file.hpp"
#include "tests/unit/surrogate_test_model.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm::surrogate {
namespace {

using test::coefficient_error;
using test::TempDir;

// max over output channels of ||a_c − b_c|| / ||b_c|| (the definition numpy_forward.py uses).
double relative_error(const std::vector<float>& a, const std::vector<float>& b, int channels) {
  double worst = 0;
  for (int c = 0; c < channels; ++c) {
    double num = 0, den = 0;
    for (std::size_t t = c; t < b.size(); t += channels) {
      num += (double(a[t]) - b[t]) * (double(a[t]) - b[t]);
      den += double(b[t]) * b[t];
    }
    worst = std::max(worst, std::sqrt(num) / std::max(std::sqrt(den), 1e-30));
  }
  return worst;
}

// Writes a random test model and fills its reference outputs with numpy_forward.py; false: Python is missing.
bool write_with_numpy_reference(const std::filesystem::path& file, const test::TestModelShape& shape,
                                std::uint32_t seed) {
  test::write_test_model(file, shape, seed);
  const std::string cmd = std::string("/usr/bin/python3 ") + AEROLBM_SOURCE_DIR +
                          "/tests/surrogate/numpy_reference.py " + AEROLBM_SOURCE_DIR + " " + file.string();
  const int rc = std::system(cmd.c_str());
  if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) return false;
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << cmd;
  return true;
}

TEST(SurrogateInference, CpuMatchesNumpyReference) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  test::TestModelShape shape;
  if (!write_with_numpy_reference(file, shape, 7)) GTEST_SKIP() << "numpy_forward.py, numpy or h5py missing";

  const Model m = load_model(file);
  ASSERT_EQ(m.blocks.size(), 2u);
  const std::vector<float> y = forward_cpu(m, m.ref_points, m.ref_params).fields;
  ASSERT_EQ(y.size(), m.ref_output.size());
  // The reference is not trivial: every channel varies over the grid.
  for (int c = 0; c < 3; ++c) {
    float lo = m.ref_output[c], hi = lo;
    for (std::size_t t = c; t < y.size(); t += 3) {
      lo = std::min(lo, m.ref_output[t]);
      hi = std::max(hi, m.ref_output[t]);
    }
    EXPECT_GT(hi - lo, 1e-2f) << "channel " << c;
  }
  EXPECT_LE(relative_error(y, m.ref_output, 3), 1e-4);
  // And the check can fail: changing one weight moves the output beyond the tolerance.
  Model changed = m;
  changed.blocks[1].mlp2.W[5] += 0.5f;
  EXPECT_GT(relative_error(forward_cpu(changed, m.ref_points, m.ref_params).fields, m.ref_output, 3), 1e-4);
}

// The coefficient head (version 2): the C++ CPU pooling + MLP reproduces numpy_forward.py's C_L, C_D to 1e-4; the
// reference is not the normalisation's mean (the network moves it), and a changed pooling score, pooling heads in
// another order, or the conditioning vector left out each move it beyond the tolerance.
// A head with a third output (C_M: a model trained on data with the pitching moment), against numpy_forward.py.
TEST(SurrogateInference, CpuHeadWithPitchingMomentMatchesNumpyReference) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  test::TestModelShape shape;
  shape.coefficients = 3;
  if (!write_with_numpy_reference(file, shape, 11)) GTEST_SKIP() << "numpy_forward.py, numpy or h5py missing";
  const Model m = load_model(file);
  ASSERT_TRUE(m.coef.has_value());
  ASSERT_EQ(m.coef->outputs, 3);
  const NetworkOutput y = forward_cpu(m, m.ref_points, m.ref_params);
  ASSERT_TRUE(y.coefficients.has_value());
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(std::isfinite((*y.coefficients)[i])) << "coefficient " << i;
    EXPECT_GT(std::abs(m.ref_coefficients[i] - m.coef->mean[i]), 1e-3f * m.coef->std[i]) << "coefficient " << i;
  }
  const double err = coefficient_error(*y.coefficients, m.ref_coefficients);
  std::printf("three-output head: C++ CPU C_M %.6f vs numpy %.6f, relative error (C_L, C_D, C_M) %.3e\n",
              (*y.coefficients)[2], m.ref_coefficients[2], err);
  EXPECT_LE(err, 1e-4);
  // The third row of mlp.2 is what C_M reads: changing it moves C_M alone.
  Model moved = m;
  Linear& mlp2 = moved.coef->mlp2;
  for (int i = 0; i < mlp2.in; ++i) mlp2.W[std::size_t(2) * mlp2.in + i] += 0.05f;
  const auto k = *forward_cpu(moved, m.ref_points, m.ref_params).coefficients;
  EXPECT_EQ(k[0], (*y.coefficients)[0]);
  EXPECT_EQ(k[1], (*y.coefficients)[1]);
  EXPECT_GT(std::abs(k[2] - (*y.coefficients)[2]), 1e-4f);
}

TEST(SurrogateInference, CpuCoefficientHeadMatchesNumpyReference) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  test::TestModelShape shape;
  if (!write_with_numpy_reference(file, shape, 9)) GTEST_SKIP() << "numpy_forward.py, numpy or h5py missing";
  const Model m = load_model(file);
  ASSERT_TRUE(m.coef.has_value());
  ASSERT_EQ(m.pool_heads(), 3);
  const NetworkOutput y = forward_cpu(m, m.ref_points, m.ref_params);
  ASSERT_TRUE(y.coefficients.has_value());
  for (int i = 0; i < m.coef->outputs; ++i)
    EXPECT_GT(std::abs(m.ref_coefficients[i] - m.coef->mean[i]), 1e-3f * m.coef->std[i]) << "coefficient " << i;
  const double err = coefficient_error(*y.coefficients, m.ref_coefficients);
  std::printf("coefficient head: C++ CPU (%.6f, %.6f) vs numpy (%.6f, %.6f), relative error %.3e\n",
              (*y.coefficients)[0], (*y.coefficients)[1], m.ref_coefficients[0], m.ref_coefficients[1], err);
  EXPECT_LE(err, 1e-4);

  Model score = m;
  score.coef->score.W[3] += 0.5f;
  EXPECT_GT(coefficient_error(*forward_cpu(score, m.ref_points, m.ref_params).coefficients, m.ref_coefficients), 1e-4);
  Model order = m;  // pooling heads 0 and 1 swapped: the concatenation order reaches mlp.0
  const int D = m.d_model;
  std::swap_ranges(order.coef->score.W.begin(), order.coef->score.W.begin() + D, order.coef->score.W.begin() + D);
  std::swap(order.coef->score.b[0], order.coef->score.b[1]);
  EXPECT_GT(coefficient_error(*forward_cpu(order, m.ref_points, m.ref_params).coefficients, m.ref_coefficients), 1e-4);
  Model no_g = m;  // the columns of mlp.0 that read g set to 0
  Linear& mlp0 = no_g.coef->mlp0;
  for (int o = 0; o < mlp0.out; ++o)
    for (int i = m.pool_heads() * D; i < mlp0.in; ++i) mlp0.W[std::size_t(o) * mlp0.in + i] = 0;
  EXPECT_GT(coefficient_error(*forward_cpu(no_g, m.ref_points, m.ref_params).coefficients, m.ref_coefficients), 1e-4);
}

// A version-1 file (fields only, as the committed model until it is retrained) still loads and runs: no head, no
// coefficients, the fields as numpy_forward.py gives them.
TEST(SurrogateInference, Version1ModelHasNoHeadAndStillRuns) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  test::TestModelShape shape;
  shape.version = 1;
  if (!write_with_numpy_reference(file, shape, 7)) GTEST_SKIP() << "numpy_forward.py, numpy or h5py missing";
  const Model m = load_model(file);
  EXPECT_EQ(m.version, 1);
  EXPECT_FALSE(m.coef.has_value());
  EXPECT_EQ(m.pool_heads(), 0);
  const NetworkOutput y = forward_cpu(m, m.ref_points, m.ref_params);
  EXPECT_FALSE(y.coefficients.has_value());
  EXPECT_LE(relative_error(y.fields, m.ref_output, 3), 1e-4);
}

// The pooling against a naive double computation on random tokens, with one pooling head peaked on one token.
TEST(SurrogateInference, AttentionPoolMatchesNaiveDouble) {
  const int T = 53, D = 12, P = 3;
  std::mt19937 rng(5);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::vector<float> A(std::size_t(T) * D);
  for (auto& x : A) x = nd(rng);
  Linear score;
  score.out = P;
  score.in = D;
  score.W.resize(std::size_t(P) * D);
  score.b.resize(P);
  for (auto& x : score.W) x = nd(rng);
  for (auto& x : score.b) x = nd(rng);
  // Head 2 scores channel 0 alone, in which token 17 stands out by far: its weights are all on token 17.
  for (int c = 0; c < D; ++c) score.W[2 * D + c] = c == 0 ? 50.0f : 0.0f;
  A[std::size_t(17) * D] = 10.0f;
  const std::vector<float> pooled = attention_pool_cpu(score, A.data(), T, D);
  ASSERT_EQ(pooled.size(), std::size_t(P) * D);
  double worst = 0;
  for (int p = 0; p < P; ++p) {
    std::vector<double> s(T);
    double mx = -1e300, sum = 0;
    for (int t = 0; t < T; ++t) {
      double v = score.b[p];
      for (int c = 0; c < D; ++c) v += double(score.W[std::size_t(p) * D + c]) * A[std::size_t(t) * D + c];
      mx = std::max(mx, s[t] = v);
    }
    for (int t = 0; t < T; ++t) sum += (s[t] = std::exp(s[t] - mx));
    for (int c = 0; c < D; ++c) {
      double v = 0;
      for (int t = 0; t < T; ++t) v += s[t] / sum * A[std::size_t(t) * D + c];
      worst = std::max(worst, std::abs(v - pooled[std::size_t(p) * D + c]));
    }
  }
  EXPECT_LT(worst, 1e-5);
  for (int c = 0; c < D; ++c) EXPECT_NEAR(pooled[std::size_t(2) * D + c], A[std::size_t(17) * D + c], 1e-4);
}

TEST(SurrogateInference, AttentionMatchesNaiveDouble) {
  const int T = 37, H = 3, d = 8, D = H * d;
  std::mt19937 rng(3);
  std::normal_distribution<float> nd(0.0f, 1.5f);
  std::vector<float> q(T * D), k(T * D), v(T * D), out(T * D);
  for (auto* a : {&q, &k, &v})
    for (auto& x : *a) x = nd(rng);
  const float scale = 1.0f / std::sqrt(float(d));
  attention_cpu(q.data(), k.data(), v.data(), out.data(), T, H, d, scale);
  double worst = 0;
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < T; ++i) {
      std::vector<double> s(T);
      double mx = -1e300, sum = 0;
      for (int j = 0; j < T; ++j) {
        double dot = 0;
        for (int c = 0; c < d; ++c) dot += double(q[i * D + h * d + c]) * k[j * D + h * d + c];
        s[j] = dot * scale;
        mx = std::max(mx, s[j]);
      }
      for (int j = 0; j < T; ++j) sum += (s[j] = std::exp(s[j] - mx));
      for (int c = 0; c < d; ++c) {
        double o = 0;
        for (int j = 0; j < T; ++j) o += s[j] / sum * v[j * D + h * d + c];
        worst = std::max(worst, std::abs(o - out[i * D + h * d + c]));
      }
    }
  EXPECT_LT(worst, 1e-5);
}

// A good model file changed by `edit` must be refused with a message containing every one of `words`.
void expect_refused(const std::function<void(hid_t)>& edit, const std::vector<std::string>& words) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  test::write_test_model(file, test::TestModelShape{}, 1, edit);
  try {
    load_model(file);
    FAIL() << "accepted a bad model file; expected a message with " << words.front();
  } catch (const ModelFileError& e) {
    const std::string msg = e.what();
    for (const auto& w : words) EXPECT_NE(msg.find(w), std::string::npos) << msg;
    EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
  }
}

TEST(SurrogateModelFile, GoodFileLoads) {
  TempDir dir;
  test::write_test_model(dir.path() / "model.h5", test::TestModelShape{}, 1);
  const Model m = load_model(dir.path() / "model.h5");
  EXPECT_EQ(m.d_model, 32);
  EXPECT_EQ(m.head_dim(), 8);
  EXPECT_EQ(m.grid.points(), 96);
  EXPECT_EQ(m.blocks[1].mlp0.out, 64);
  EXPECT_EQ(m.version, 2);
  ASSERT_TRUE(m.coef.has_value());
  EXPECT_EQ(m.coef->mlp0.in, 4 * 32);
}

TEST(SurrogateModelFile, MissingDataset) {
  expect_refused([](hid_t f) { H5Ldelete(f, "/weights/blocks.1.q.W", H5P_DEFAULT); },
                 {"/weights/blocks.1.q.W", "missing"});
  expect_refused([](hid_t f) { H5Ldelete(f, "/reference", H5P_DEFAULT); }, {"/reference/points", "missing"});
}

TEST(SurrogateModelFile, WrongShape) {
  expect_refused(
      [](hid_t f) {
        H5Ldelete(f, "/weights/head.W", H5P_DEFAULT);
        test::h5_write(f, "/weights/head.W", std::vector<float>(4 * 32), {4, 32});
      },
      {"/weights/head.W", "[4, 32]", "expected [3, 32]"});
  expect_refused(
      [](hid_t f) {
        H5Ldelete(f, "/norm/out_std", H5P_DEFAULT);
        test::h5_write(f, "/norm/out_std", {1, 1}, {2});
      },
      {"/norm/out_std", "[2]", "expected [3]"});
}

// A malformed coefficient head names the dataset or attribute and what was expected.
TEST(SurrogateModelFile, MalformedCoefficientHead) {
  expect_refused(
      [](hid_t f) {
        H5Ldelete(f, "/weights/coef.mlp.0.W", H5P_DEFAULT);
        test::h5_write(f, "/weights/coef.mlp.0.W", std::vector<float>(32 * 96), {32, 96});
      },
      {"/weights/coef.mlp.0.W", "[32, 96]", "expected [32, 128]"});
  expect_refused(
      [](hid_t f) {
        H5Ldelete(f, "/weights/coef.score.W", H5P_DEFAULT);
        test::h5_write(f, "/weights/coef.score.W", std::vector<float>(3 * 31), {3, 31});
      },
      {"/weights/coef.score.W", "expected [3, 32]"});
  expect_refused([](hid_t f) { H5Ldelete(f, "/weights/coef.mlp.2.b", H5P_DEFAULT); },
                 {"/weights/coef.mlp.2.b", "missing"});
  expect_refused([](hid_t f) { H5Ldelete(f, "/norm/coef_std", H5P_DEFAULT); }, {"/norm/coef_std", "missing"});
  expect_refused([](hid_t f) { H5Ldelete(f, "/reference/coefficients", H5P_DEFAULT); },
                 {"/reference/coefficients", "missing"});
  expect_refused([](hid_t f) { H5Adelete(f, "pool_heads"); }, {"'pool_heads'", "missing"});
  expect_refused(
      [](hid_t f) {
        H5Adelete(f, "coefficients");
        test::h5_attr_int(f, "coefficients", 4);
      },
      {"'coefficients' is 4", "expected 2 to 3"});
  // A head that says it predicts C_M (3 outputs) over a 2-output file: the first 2-long array is named.
  expect_refused(
      [](hid_t f) {
        H5Adelete(f, "coefficients");
        test::h5_attr_int(f, "coefficients", 3);
      },
      {"/norm/coef_mean", "[2]", "expected [3]"});
}

TEST(SurrogateModelFile, WrongVersionAndFormat) {
  expect_refused(
      [](hid_t f) {
        H5Adelete(f, "version");
        test::h5_attr_int(f, "version", 3);
      },
      {"version 3", "reads versions 1 (fields) and 2"});
  expect_refused(
      [](hid_t f) {
        H5Adelete(f, "format");
        test::h5_attr_string(f, "format", "aerolbm-dataset");
      },
      {"'aerolbm-dataset'", "expected 'aerolbm-surrogate'"});
  expect_refused([](hid_t f) { H5Adelete(f, "heads"); }, {"'heads'", "missing"});
  expect_refused(
      [](hid_t f) {
        H5Adelete(f, "heads");
        test::h5_attr_int(f, "heads", 5);
      },
      {"not divisible by heads 5"});
}

TEST(SurrogateModelFile, NotAModelFile) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  std::ofstream(file) << "not hdf5\n";
  try {
    load_model(file);
    FAIL();
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("not an HDF5 file"), std::string::npos) << e.what();
  }
  try {
    load_model(dir.path() / "absent.h5");
    FAIL();
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("no file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace aerolbm::surrogate

namespace aerolbm::surrogate {
namespace {

// The committed, trained model (postprocess/surrogate/model.h5, made by export.py on an H200): the C++ CPU forward
// pass reproduces the output PyTorch computed for its stored reference case (8192 tokens) to 1e-4 relative.
TEST(SurrogateInference, CommittedModelReproducesItsPyTorchReference) {
  const auto file = std::filesystem::path(AEROLBM_SOURCE_DIR) / "postprocess/surrogate/model.h5";
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  const Model m = load_model(file);
  const NetworkOutput out = forward_cpu(m, m.ref_points, m.ref_params);
  const std::vector<float>& y = out.fields;
  ASSERT_EQ(y.size(), m.ref_output.size());
  const double err = relative_error(y, m.ref_output, 3);
  std::printf("committed model (version %d): CPU forward vs PyTorch reference, relative error %.3e over %zu tokens\n",
              m.version, err, y.size() / 3);
  EXPECT_LE(err, 1e-4);
  ASSERT_EQ(out.coefficients.has_value(), m.coef.has_value());
  if (m.coef) {  // version 2: the head as well
    const double cerr = coefficient_error(*out.coefficients, m.ref_coefficients);
    std::printf("committed model: CPU coefficient head vs PyTorch reference, relative error %.3e\n", cerr);
    EXPECT_LE(cerr, 1e-4);
  }
}

}  // namespace
}  // namespace aerolbm::surrogate
