// `aerolbm bench attention`: TFLOP/s of the fused attention kernel (kernels/attention) for the shapes of issue 5:
// B=4, H=8, N in {4096, 16384, 65536}, d in {32, 64, 128}, and the surrogate's own shapes (B=1, H=heads, N=8192,
// d=D/H). TFLOP/s = 4*B*H*Nq*Nk*d / median time, timed with CUDA events after a warm-up, each repeat a batch of
// back-to-back calls lasting at least --min-ms. Inputs are non-zero random bf16; a sample of output rows of the
// first and the last head is checked against the double-precision CPU reference in the same run.
#include "src/app/bench_attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "src/app/commands.hpp"
#include "src/io/json.hpp"
#include "src/solver/backend_select.hpp"

#ifdef AEROLBM_HAVE_ATTENTION
#include "kernels/attention/attention.hpp"
#include "kernels/attention/bf16.hpp"
#include "kernels/backend.hpp"
#include "kernels/cpu/attention_reference.hpp"
#endif

namespace aerolbm::app {
namespace {

struct AttentionBenchArgs {
  int batch = 4;
  int heads = 8;
  std::vector<int> tokens = {4096, 16384, 65536};
  std::vector<int> keys;  // empty: Nk = Nq (self-attention)
  std::vector<int> head_dims = {32, 64, 128};
  std::vector<int> model_dims = {128, 256};
  int model_heads = 4;
  int model_tokens = 8192;
  bool no_model = false, no_standard = false;
  int force_splits = 0;
  std::vector<int> variants = {0};
  int warmup = 2, repeats = 7;
  double min_ms = 50.0;
  int check_rows = 16;
  std::string json;
};

#ifdef AEROLBM_HAVE_ATTENTION
namespace at = aerolbm::attention;

struct Shape {
  std::string kind;  // "standard" or "model D=..,H=.."
  int batch, heads, nq, nk, d;
};

// Largest relative L2 error over sampled rows of the first and last (batch, head), against the CPU reference.
double check_sample(const Shape& s, const at::DeviceBf16& q, const at::DeviceBf16& k, const at::DeviceBf16& v,
                    const at::DeviceBf16& o, int rows) {
  if (rows <= 0) return 0.0;
  double worst = 0.0;
  const std::vector<std::pair<int, int>> heads = {{0, 0}, {s.batch - 1, s.heads - 1}};
  for (const auto& [b, h] : heads) {
    const std::size_t qhead = std::size_t(b * s.heads + h) * std::size_t(s.nq) * s.d;
    const std::size_t khead = std::size_t(b * s.heads + h) * std::size_t(s.nk) * s.d;
    std::vector<std::uint16_t> kb(std::size_t(s.nk) * s.d), vb(kb.size());
    k.download(kb.data(), kb.size(), khead);
    v.download(vb.data(), vb.size(), khead);
    const int n = std::min(rows, s.nq);
    std::vector<float> qf(std::size_t(n) * s.d), of(qf.size()), ref(qf.size());
    for (int r = 0; r < n; ++r) {
      // spread over the sequence, always including the first and the last row (tail tile)
      const std::size_t row = n == 1 ? 0 : std::size_t(double(r) * (s.nq - 1) / (n - 1));
      std::vector<std::uint16_t> buf(std::size_t(s.d));
      q.download(buf.data(), buf.size(), qhead + row * s.d);
      for (int i = 0; i < s.d; ++i) qf[std::size_t(r) * s.d + i] = at::bf16_to_float(buf[std::size_t(i)]);
      o.download(buf.data(), buf.size(), qhead + row * s.d);
      for (int i = 0; i < s.d; ++i) of[std::size_t(r) * s.d + i] = at::bf16_to_float(buf[std::size_t(i)]);
    }
    std::vector<float> kf(kb.size()), vf(vb.size());
    for (std::size_t i = 0; i < kb.size(); ++i) kf[i] = at::bf16_to_float(kb[i]), vf[i] = at::bf16_to_float(vb[i]);
    const at::Dims dims{1, 1, n, s.nk, s.d};
    at::attention_reference(dims, 1.0 / std::sqrt(double(s.d)), qf.data(), at::bhnd_strides(1, n, s.d), kf.data(),
                            at::bhnd_strides(1, s.nk, s.d), vf.data(), at::bhnd_strides(1, s.nk, s.d), ref.data(),
                            at::bhnd_strides(1, n, s.d));
    double e2 = 0, r2 = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      if (!std::isfinite(of[i])) return INFINITY;
      e2 += (double(of[i]) - ref[i]) * (double(of[i]) - ref[i]);
      r2 += double(ref[i]) * ref[i];
    }
    worst = std::max(worst, std::sqrt(e2 / std::max(r2, 1e-300)));
  }
  return worst;
}

int run_attention_bench(const AttentionBenchArgs& a) {
  if (cuda_device_count() == 0)
    throw BackendUnavailable("bench attention needs a CUDA device: " + cuda_device_summary());
  std::vector<Shape> shapes;
  if (!a.no_standard)
    for (int d : a.head_dims)
      for (std::size_t i = 0; i < a.tokens.size(); ++i) {
        const int nk = a.keys.empty() ? a.tokens[i] : a.keys[std::min(i, a.keys.size() - 1)];
        shapes.push_back({"standard", a.batch, a.heads, a.tokens[i], nk, d});
      }
  if (!a.no_model)
    for (int D : a.model_dims) {
      if (D % a.model_heads != 0)
        throw InputError("--model-dims " + std::to_string(D) + " is not divisible by --model-heads " +
                         std::to_string(a.model_heads));
      shapes.push_back({"model D=" + std::to_string(D) + " H=" + std::to_string(a.model_heads), 1, a.model_heads,
                        a.model_tokens, a.model_tokens, D / a.model_heads});
    }
  for (const Shape& s : shapes)
    if (s.d != 32 && s.d != 64 && s.d != 128)
      throw InputError("head dim " + std::to_string(s.d) + " (" + s.kind +
                       ") is not supported: expected 32, 64 or 128");

  std::printf("aerolbm bench attention: %s\n", cuda_device_summary().c_str());
  std::printf("bf16 in/out, fp32 softmax and accumulation; TFLOP/s = 4*B*H*Nq*Nk*d / median of %d repeats "
              "(each >= %.0f ms of back-to-back calls) after %d warm-up calls\n",
              a.repeats, a.min_ms, a.warmup);
  for (int v : a.variants)
    if (v < 0 || v >= at::kAttentionVariants)
      throw InputError("--variants " + std::to_string(v) + " does not exist (expected 0 to " +
                       std::to_string(at::kAttentionVariants - 1) + ")");
  std::printf("%-18s %3s %3s %7s %7s %4s %-13s %-11s %10s %9s %10s\n", "shape", "B", "H", "Nq", "Nk", "d", "tile",
              "splits", "median ms", "TFLOP/s", "check err");
  Json rows = Json::array();
  for (const Shape& s : shapes) {
    const std::size_t nq_el = std::size_t(s.batch) * s.heads * std::size_t(s.nq) * s.d;
    const std::size_t nk_el = std::size_t(s.batch) * s.heads * std::size_t(s.nk) * s.d;
    at::DeviceBf16 q(nq_el), k(nk_el), v(nk_el), o(nq_el);
    const float qk_amp = 1.7320508f;  // uniform(-a, a) with a = sqrt(3): logits of unit variance after scaling
    q.fill_random(1, qk_amp);
    k.fill_random(2, qk_amp);
    v.fill_random(3, 1.0f);
    at::Problem pr;
    pr.dims = {s.batch, s.heads, s.nq, s.nk, s.d};
    pr.scale = float(1.0 / std::sqrt(double(s.d)));
    pr.q = {q.data(), at::bhnd_strides(s.heads, s.nq, s.d)};
    pr.k = {k.data(), at::bhnd_strides(s.heads, s.nk, s.d)};
    pr.v = {v.data(), at::bhnd_strides(s.heads, s.nk, s.d)};
    pr.o = o.data();
    pr.o_strides = at::bhnd_strides(s.heads, s.nq, s.d);

    for (const int variant : a.variants) {
      // splits = 1, then the automatic plan if it splits, then a forced count if asked for
      at::Options auto_opt;
      auto_opt.variant = variant;
      const at::Plan auto_plan = at::attention_plan(pr, auto_opt);
      std::vector<std::pair<std::string, int>> split_rows = {{"1", 1}};
      if (auto_plan.splits > 1) split_rows.push_back({"auto=" + std::to_string(auto_plan.splits), 0});
      // The surrogate's shapes also show split-KV when the automatic plan does not split (about one wave of CTAs).
      const int forced = a.force_splits > 1 ? a.force_splits : (s.kind != "standard" && auto_plan.splits == 1 ? 2 : 0);
      if (forced > 1) split_rows.push_back({"forced=" + std::to_string(forced), forced});
      const std::string tile = "v" + std::to_string(variant) + " " + std::to_string(auto_plan.block_rows) + "x" +
                               std::to_string(auto_plan.block_keys) + "/" + std::to_string(auto_plan.warps) + "w";
      for (const auto& [label, splits] : split_rows) {
        at::Options opt;
        opt.splits = splits;
        opt.variant = variant;
        const at::Plan plan = at::attention_plan(pr, opt);
        const int used = plan.splits;
        o.fill(at::kBf16NaN);
        const double probe = at::time_attention_ms(pr, opt, 1, 1, 1).front();
        const int calls = std::max(1, int(std::ceil(a.min_ms / std::max(probe, 1e-3))));
        std::vector<double> t = at::time_attention_ms(pr, opt, a.warmup, a.repeats, calls);
        std::sort(t.begin(), t.end());
        const double med = t[t.size() / 2];
        const double tflops = at::attention_flops(pr.dims) / (med * 1e-3) * 1e-12;
        const double err = check_sample(s, q, k, v, o, a.check_rows);
        std::printf("%-18s %3d %3d %7d %7d %4d %-13s %-11s %10.4f %9.1f %10.2e%s\n", s.kind.c_str(), s.batch, s.heads,
                    s.nq, s.nk, s.d, tile.c_str(), label.c_str(), med, tflops, err,
                    err <= 1e-2 ? "" : "  <-- CHECK FAILED");
        std::fflush(stdout);
        Json row = Json::object();
        row.set("shape", s.kind);
        row.set("batch", s.batch);
        row.set("heads", s.heads);
        row.set("nq", s.nq);
        row.set("nk", s.nk);
        row.set("head_dim", s.d);
        row.set("splits_requested", splits);
        row.set("splits", used);
        row.set("variant", variant);
        row.set("block_rows", plan.block_rows);
        row.set("block_keys", plan.block_keys);
        row.set("warps", plan.warps);
        row.set("blocks_per_sm", plan.blocks_per_sm);
        row.set("calls_per_repeat", calls);
        row.set("repeats", a.repeats);
        row.set("median_ms", med);
        row.set("min_ms", t.front());
        row.set("max_ms", t.back());
        row.set("tflops", tflops);
        row.set("check_rel_err", std::isfinite(err) ? err : -1.0);
        rows.push_back(row);
        if (!(err <= 1e-2)) {
          std::cerr << "error: the fused attention output differs from the CPU reference (" << err << ")\n";
          return kRunFailure;
        }
      }
    }
  }
  if (!a.json.empty()) {
    Json doc = Json::object();
    doc.set("device", cuda_device_summary());
    doc.set("formula", "4*B*H*Nq*Nk*d / median time");
    doc.set("results", rows);
    write_json_atomically(a.json, doc);
  }
  return kOk;
}
#else
int run_attention_bench(const AttentionBenchArgs&) {
  throw BackendUnavailable("bench attention needs a CUDA build of aerolbm (configure with -DAEROLBM_CUDA=ON)");
}
#endif

}  // namespace

CLI::App* add_bench_attention_command(CLI::App& bench, int& status) {
  auto* cmd = bench.add_subcommand("attention", "TFLOP/s of the fused attention kernel (4*B*H*Nq*Nk*d / time)");
  auto a = std::make_shared<AttentionBenchArgs>();
  cmd->add_option("--batch", a->batch, "Batch of the standard shapes")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--heads", a->heads, "Heads of the standard shapes")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--tokens", a->tokens, "Sequence lengths N of the standard shapes")
      ->delimiter(',')->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--keys", a->keys, "Key lengths Nk, one per --tokens entry (default: Nk = N)")
      ->delimiter(',')->check(CLI::PositiveNumber);
  cmd->add_option("--head-dims", a->head_dims, "Head dims d of the standard shapes: 32, 64, 128")
      ->delimiter(',')->capture_default_str();
  cmd->add_option("--model-dims", a->model_dims, "Surrogate widths D (head dim D / --model-heads)")
      ->delimiter(',')->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--model-heads", a->model_heads, "Surrogate heads H")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--model-tokens", a->model_tokens, "Surrogate tokens (nx*ny of the sample grid)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_flag("--no-model", a->no_model, "Skip the surrogate's shapes");
  cmd->add_flag("--no-standard", a->no_standard, "Skip the B x H x N x d grid of standard shapes");
  cmd->add_option("--force-splits", a->force_splits, "Also time every shape with exactly this many key ranges")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--variants", a->variants, "Tile variants to time: 0 (default), 1, 2 (kernels/PERFORMANCE.md)")
      ->delimiter(',')->capture_default_str();
  cmd->add_option("--warmup", a->warmup, "Untimed calls first")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--repeats", a->repeats, "Timed repeats (the median is reported)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--min-ms", a->min_ms, "Minimum length of one timed repeat in milliseconds")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--check-rows", a->check_rows, "Output rows per checked head compared with the CPU reference")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--json", a->json, "Also write the results as JSON to this file");
  cmd->callback([&status, a]() {
    status = exit_status("bench attention", [&] {
      try {
        return run_attention_bench(*a);
      } catch (const std::invalid_argument& e) {
        throw InputError(e.what());  // kernels/attention refuses a shape or option it cannot run
      }
    });
  });
  return cmd;
}

}  // namespace aerolbm::app
