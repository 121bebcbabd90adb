#!/usr/bin/env python3
"""PyTorch scaled_dot_product_attention TFLOP/s for the shapes of `aerolbm bench attention`.

The figures the fused kernel is compared with (issue 5): the FLASH_ATTENTION and CUDNN_ATTENTION backends of
torch.nn.functional.scaled_dot_product_attention, bf16, non-causal, [B, H, N, d] inputs, on the same GPU, with the
same formula (TFLOP/s = 4*B*H*Nq*Nk*d / median time), CUDA-event timing, warm-up and medians of repeats that each
run back-to-back calls for at least --min-ms.

    python3 postprocess/surrogate/bench_sdpa.py [--backends flash,cudnn] [--json sdpa.json]
"""
import argparse
import json
import math
import statistics
import sys


def parse_ints(text):
    return [int(x) for x in text.split(",") if x]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--tokens", type=parse_ints, default=[4096, 16384, 65536])
    ap.add_argument("--head-dims", type=parse_ints, default=[32, 64, 128])
    ap.add_argument("--model-dims", type=parse_ints, default=[128, 256], help="surrogate widths D (d = D / heads)")
    ap.add_argument("--model-heads", type=int, default=4)
    ap.add_argument("--model-tokens", type=int, default=8192)
    ap.add_argument("--no-model", action="store_true")
    ap.add_argument("--no-standard", action="store_true")
    ap.add_argument("--backends", default="flash,cudnn", help="comma list of flash, cudnn, efficient, math")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--min-ms", type=float, default=50.0)
    ap.add_argument("--json", help="also write the results as JSON here")
    ap.add_argument("--compare", help="JSON of `aerolbm bench attention --json`: print a markdown table of both")
    a = ap.parse_args(argv)

    try:
        import torch
        from torch.nn.attention import SDPBackend, sdpa_kernel
        import torch.nn.functional as F
    except ImportError as e:
        print(f"error: PyTorch is needed ({e})", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: no CUDA device visible to PyTorch", file=sys.stderr)
        return 2
    names = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
             "efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}
    backends = [b for b in a.backends.split(",") if b]
    for b in backends:
        if b not in names:
            print(f"error: unknown backend '{b}' (expected {', '.join(names)})", file=sys.stderr)
            return 2

    shapes = []
    if not a.no_standard:
        for d in a.head_dims:
            for n in a.tokens:
                shapes.append(("standard", a.batch, a.heads, n, n, d))
    if not a.no_model:
        for D in a.model_dims:
            if D % a.model_heads:
                print(f"error: --model-dims {D} is not divisible by --model-heads {a.model_heads}", file=sys.stderr)
                return 2
            shapes.append((f"model D={D} H={a.model_heads}", 1, a.model_heads, a.model_tokens, a.model_tokens,
                           D // a.model_heads))

    dev = torch.cuda.get_device_name()
    print(f"PyTorch {torch.__version__} scaled_dot_product_attention on {dev}, bf16, non-causal")
    print(f"TFLOP/s = 4*B*H*Nq*Nk*d / median of {a.repeats} repeats (each >= {a.min_ms:.0f} ms) after "
          f"{a.warmup} warm-up calls")
    print(f"{'shape':18s} {'B':>3s} {'H':>3s} {'Nq':>7s} {'Nk':>7s} {'d':>4s} {'backend':9s} {'median ms':>10s} "
          f"{'TFLOP/s':>9s}")
    rows = []
    gen = torch.Generator(device="cuda").manual_seed(0)
    for kind, B, H, nq, nk, d in shapes:
        amp = math.sqrt(3.0)  # uniform(-a, a): logits of unit variance after the 1/sqrt(d) scale, as aerolbm's bench
        q = (torch.rand(B, H, nq, d, device="cuda", generator=gen) * 2 - 1).mul_(amp).to(torch.bfloat16)
        k = (torch.rand(B, H, nk, d, device="cuda", generator=gen) * 2 - 1).mul_(amp).to(torch.bfloat16)
        v = (torch.rand(B, H, nk, d, device="cuda", generator=gen) * 2 - 1).to(torch.bfloat16)
        flops = 4.0 * B * H * nq * nk * d
        for b in backends:
            row = {"shape": kind, "batch": B, "heads": H, "nq": nq, "nk": nk, "head_dim": d, "backend": b}
            try:
                with sdpa_kernel(names[b]):
                    def call():
                        return F.scaled_dot_product_attention(q, k, v)
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    call()
                    torch.cuda.synchronize()
                    start.record()
                    call()
                    end.record()
                    end.synchronize()
                    probe = max(start.elapsed_time(end), 1e-3)
                    calls = max(1, math.ceil(a.min_ms / probe))
                    for _ in range(a.warmup):
                        call()
                    torch.cuda.synchronize()
                    times = []
                    for _ in range(a.repeats):
                        start.record()
                        for _ in range(calls):
                            call()
                        end.record()
                        end.synchronize()
                        times.append(start.elapsed_time(end) / calls)
                med = statistics.median(times)
                row.update(median_ms=med, min_ms=min(times), max_ms=max(times), calls_per_repeat=calls,
                           tflops=flops / (med * 1e-3) * 1e-12)
                print(f"{kind:18s} {B:3d} {H:3d} {nq:7d} {nk:7d} {d:4d} {b:9s} {med:10.4f} {row['tflops']:9.1f}")
            except (RuntimeError, torch.OutOfMemoryError) as e:
                msg = str(e).splitlines()[0][:100] if str(e) else type(e).__name__
                row.update(error=msg)
                print(f"{kind:18s} {B:3d} {H:3d} {nq:7d} {nk:7d} {d:4d} {b:9s} {'n/a':>10s} {'':9s} ({msg})")
            sys.stdout.flush()
            rows.append(row)
        del q, k, v
        torch.cuda.empty_cache()
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": dev, "torch": torch.__version__, "formula": "4*B*H*Nq*Nk*d / median time",
                       "results": rows}, f, indent=1)
    if a.compare:
        with open(a.compare) as f:
            print()
            print(compare_table(json.load(f)["results"], rows))
    return 0


def compare_table(ours, theirs):
    """Markdown: per shape the fused kernel (splits = 1 and the best split-KV row) beside the SDPA backends."""
    def key(r):
        return (r["shape"], r["batch"], r["heads"], r["nq"], r["nk"], r["head_dim"])
    sdpa = {}
    for r in theirs:
        if "tflops" in r:
            sdpa[key(r) + (r["backend"],)] = r["tflops"]
    shapes = []
    for r in ours:
        if key(r) not in shapes:
            shapes.append(key(r))
    lines = ["| shape | B | H | N (q / k) | d | aerolbm, no split | aerolbm, split-KV (splits) | FlashAttention-2 "
             "| cuDNN | aerolbm / FA2 | aerolbm / cuDNN |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for k in shapes:
        mine = [r for r in ours if key(r) == k]
        # the best tile variant of each kind of row (`--variants` may have timed several)
        plain = max((r["tflops"] for r in mine if r["splits"] == 1), default=None)
        split = max(((r["tflops"], r["splits"]) for r in mine if r["splits"] > 1), default=None)
        best = max([x for x in [plain, split[0] if split else None] if x is not None], default=None)
        fa, cu = sdpa.get(k + ("flash",)), sdpa.get(k + ("cudnn",))
        fmt = lambda x: f"{x:.0f}" if x is not None else "—"
        ratio = lambda x, y: f"{x / y:.2f}×" if x is not None and y else "—"
        n = f"{k[3]}" if k[3] == k[4] else f"{k[3]} / {k[4]}"
        lines.append(f"| {k[0]} | {k[1]} | {k[2]} | {n} | {k[5]} | {fmt(plain)} | "
                     f"{fmt(split[0]) + f' ({split[1]})' if split else '—'} | {fmt(fa)} | {fmt(cu)} | "
                     f"{ratio(best, fa)} | {ratio(best, cu)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
