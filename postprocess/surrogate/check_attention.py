"""Checks that the two attention paths of model.py agree: F.scaled_dot_product_attention (PyTorch 2) and explicit
softmax attention, on a random network at 8192 tokens in fp32, on the CPU and (when present) on CUDA. Prints the
relative differences; exit 1 if one exceeds 1e-5. On PyTorch 1.13 (no SDPA) it says so and exits 0.

    python3 check_attention.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import HAS_SDPA, Surrogate  # noqa: E402


def main():
    if not HAS_SDPA:
        print(f"torch {torch.__version__}: no F.scaled_dot_product_attention; the explicit path is the only one")
        return 0
    torch.manual_seed(0)
    model = Surrogate(128, 4, 2, 4).eval()
    p, c = torch.randn(1, 8192, 4), torch.randn(1, 5)
    worst = 0.0
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for dev in devices:
        if dev == "cuda":
            torch.backends.cuda.matmul.allow_tf32 = False
        m, pd, cd = model.to(dev), p.to(dev), c.to(dev)
        with torch.no_grad():
            a, b = m(pd, cd, use_sdpa=True)[0], m(pd, cd, use_sdpa=False)[0]
        rel = float((a - b).norm() / b.norm())
        worst = max(worst, rel)
        print(f"{dev}: SDPA vs explicit attention, fp32, 8192 tokens: relative difference {rel:.2e}")
    return 0 if worst <= 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
