"""Writes a small model.h5 (SCHEMA.md, version 2 with the C_L, C_D head, or --version 1 without) with random
weights for the CLI tests of aerolbm predict.
The reference pair is a placeholder (zero points/outputs): these tests check files and exit codes, while
tests/unit/test_surrogate_inference.cpp checks the numbers against numpy_forward.py.

    write_random_model.py OUT.h5 [--nx 24 --ny 12] [--version 2] [--coefficients 2|3]   exit 77 without numpy/h5py
(--coefficients 3: the head also predicts C_M)
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--nx", type=int, default=24)
    ap.add_argument("--ny", type=int, default=12)
    ap.add_argument("--d", type=int, default=32)
    ap.add_argument("--version", type=int, choices=(1, 2), default=2)
    ap.add_argument("--pool-heads", type=int, default=2)
    ap.add_argument("--coefficients", type=int, choices=(2, 3), default=2)
    a = ap.parse_args()
    try:
        import h5py
        import numpy as np
    except ImportError as e:
        print(f"SKIPPED: {e}")
        return 77
    rng = np.random.default_rng(0)
    d, heads, layers, mlp = a.d, 4, 2, 2
    t = a.nx * a.ny
    with h5py.File(a.out, "w") as f:
        f.attrs["format"] = "aerolbm-surrogate"
        f.attrs["version"] = np.int64(a.version)
        for k, v in (("d_model", d), ("heads", heads), ("layers", layers), ("mlp_ratio", mlp),
                     ("point_features", 4), ("param_features", 5), ("outputs", 3), ("nx", a.nx), ("ny", a.ny)):
            f.attrs[k] = np.int64(v)
        for k, v in (("x0", -1.0), ("x1", 3.0), ("y0", -1.0), ("y1", 1.0)):
            f.attrs[k] = float(v)
        f["norm/point_mean"] = np.array([1.0, 0.0, 0.5, 0.05], np.float32)
        f["norm/point_std"] = np.array([1.2, 0.6, 0.4, 0.2], np.float32)
        f["norm/param_mean"] = np.array([0.02, 0.3, 0.12, 4.0, 2.7], np.float32)
        f["norm/param_std"] = np.array([0.015, 0.2, 0.03, 4.0, 0.2], np.float32)
        f["norm/out_mean"] = np.array([0.8, 0.0, -0.1], np.float32)
        f["norm/out_std"] = np.array([0.3, 0.1, 0.5], np.float32)
        if a.version >= 2:
            f.attrs["coefficients"] = np.int64(a.coefficients)
            f.attrs["pool_heads"] = np.int64(a.pool_heads)
            f["norm/coef_mean"] = np.array([0.4, 0.12, 0.01][:a.coefficients], np.float32)
            f["norm/coef_std"] = np.array([0.3, 0.05, 0.02][:a.coefficients], np.float32)

        def lin(name, o, i):
            f[f"weights/{name}.W"] = (rng.standard_normal((o, i)) / np.sqrt(i)).astype(np.float32)
            f[f"weights/{name}.b"] = (0.1 * rng.standard_normal(o)).astype(np.float32)

        def ln(name):
            f[f"weights/{name}.gamma"] = np.ones(d, np.float32)
            f[f"weights/{name}.beta"] = np.zeros(d, np.float32)

        lin("embed.0", d, 4)
        lin("embed.2", d, d)
        lin("cond.0", d, 5)
        lin("cond.2", d, d)
        for l in range(layers):
            b = f"blocks.{l}."
            ln(b + "ln1")
            for n in ("q", "k", "v", "o"):
                lin(b + n, d, d)
            ln(b + "ln2")
            lin(b + "mlp.0", mlp * d, d)
            lin(b + "mlp.2", d, mlp * d)
        ln("ln_f")
        lin("head", 3, d)
        if a.version >= 2:
            lin("coef.score", a.pool_heads, d)
            lin("coef.mlp.0", d, (a.pool_heads + 1) * d)
            lin("coef.mlp.2", a.coefficients, d)
            f["reference/coefficients"] = np.zeros(a.coefficients, np.float32)
        f["reference/points"] = np.zeros((t, 4), np.float32)
        f["reference/params"] = np.array([0.0, 0.0, 0.12, 0.0, 500.0], np.float32)
        f["reference/output"] = np.zeros((t, 3), np.float32)
    return 0


if __name__ == "__main__":
    sys.exit(main())
