// Surrogate inference: the CPU forward pass against an independent float64 numpy implementation of SCHEMA.md
// (postprocess/surrogate/numpy_forward.py), the attention against a naive double computation, and the model-file
// checks (missing dataset, wrong shape, wrong version, wrong format) with messages that name what is wrong.
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

TEST(SurrogateInference, CpuMatchesNumpyReference) {
  TempDir dir;
  const auto file = dir.path() / "model.h5";
  test::TestModelShape shape;
  test::write_test_model(file, shape, 7);
  const std::string cmd = std::string("/usr/bin/python3 ") + AEROLBM_SOURCE_DIR +
                          "/tests/surrogate/numpy_reference.py " + AEROLBM_SOURCE_DIR + " " + file.string();
  const int rc = std::system(cmd.c_str());
  if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) GTEST_SKIP() << "numpy_forward.py, numpy or h5py missing";
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << cmd;

  const Model m = load_model(file);
  ASSERT_EQ(m.blocks.size(), 2u);
  const std::vector<float> y = forward_cpu(m, m.ref_points, m.ref_params);
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
  EXPECT_GT(relative_error(forward_cpu(changed, m.ref_points, m.ref_params), m.ref_output, 3), 1e-4);
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
  test::write_test_model(file, test::TestModelShape{}, 1, nullptr, edit);
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

TEST(SurrogateModelFile, WrongVersionAndFormat) {
  expect_refused(
      [](hid_t f) {
        H5Adelete(f, "version");
        test::h5_attr_int(f, "version", 2);
      },
      {"version 2", "reads version 1"});
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
  const std::vector<float> y = forward_cpu(m, m.ref_points, m.ref_params);
  ASSERT_EQ(y.size(), m.ref_output.size());
  const double err = relative_error(y, m.ref_output, 3);
  std::printf("committed model: CPU forward vs PyTorch reference, relative error %.3e over %zu tokens\n", err,
              y.size() / 3);
  EXPECT_LE(err, 1e-4);
}

}  // namespace
}  // namespace aerolbm::surrogate
