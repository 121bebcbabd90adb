"""DEV ONLY: writes a schema-conforming dataset.h5 with synthetic (not solver) fields, for developing the training
scripts before `aerolbm sweep` exists. No committed test uses it; real datasets come from `aerolbm sweep`.

    python3 dev_fake_dataset.py OUT.h5 [--cases 24] [--nx 32 --ny 16] [--seed 0]
    python3 dev_fake_dataset.py OUT.h5 --sweep SWEEP.yaml    cases, split and sample grid from a sweep file

Geometry (NACA 4-digit polygon, mask, signed distance) is real; the flow is a smooth made-up potential-flow-like
field (free stream + bound vortex + doublet, damped near the wall, a wake deficit) so that fields vary with the
parameters the way a network has to learn. Cl and Cd are those of coefficients.py applied to the fake fields."""
import argparse
import math
import os
import sys

import h5py
import numpy as np
from matplotlib.path import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coefficients import Grid, force_coefficients  # noqa: E402


def naca4(m, p, t, n=100):
    """Closed contour (x, y) of a NACA 4-digit section, chord 1, leading edge at 0, 2n points, no repeat."""
    beta = np.linspace(0.0, math.pi, n + 1)
    x = 0.5 * (1 - np.cos(beta))
    yt = 5 * t * (0.2969 * np.sqrt(x) - 0.1260 * x - 0.3516 * x ** 2 + 0.2843 * x ** 3 - 0.1036 * x ** 4)
    if m > 0:
        yc = np.where(x < p, m / p ** 2 * (2 * p * x - x ** 2), m / (1 - p) ** 2 * ((1 - 2 * p) + 2 * p * x - x ** 2))
        dyc = np.where(x < p, 2 * m / p ** 2 * (p - x), 2 * m / (1 - p) ** 2 * (p - x))
    else:
        yc = np.zeros_like(x)
        dyc = np.zeros_like(x)
    th = np.arctan(dyc)
    xu, yu = x - yt * np.sin(th), yc + yt * np.cos(th)
    xl, yl = x + yt * np.sin(th), yc - yt * np.cos(th)
    # upper from trailing edge to leading edge, then lower from leading edge to trailing edge (not repeating ends)
    cx = np.concatenate([xu[::-1], xl[1:-1]])
    cy = np.concatenate([yu[::-1], yl[1:-1]])
    return cx, cy


def place(cx, cy, aoa_deg):
    """Quarter chord to the origin, rotated so the free stream (+x) meets it at aoa."""
    a = math.radians(aoa_deg)
    x, y = cx - 0.25, cy
    return x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)


def signed_distance(px, py, cx, cy, inside):
    x0, y0 = cx, cy
    x1, y1 = np.roll(cx, -1), np.roll(cy, -1)
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    t = np.clip(((px[:, None] - x0) * dx + (py[:, None] - y0) * dy) / ll, 0, 1)
    d = np.hypot(px[:, None] - (x0 + t * dx), py[:, None] - (y0 + t * dy)).min(1)
    return np.where(inside, -d, d)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--cases", type=int, default=24)
    ap.add_argument("--nx", type=int, default=32)
    ap.add_argument("--ny", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sweep", help="take cases, split, sample grid and surface_points from this sweep.yaml")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    nx, ny, x0, x1, y0, y1 = a.nx, a.ny, -1.0, 3.0, -1.0, 1.0
    grid = Grid(nx, ny, x0, x1, y0, y1)
    gx, gy = np.meshgrid(np.linspace(x0, x1, nx), np.linspace(y0, y1, ny))
    px, py = gx.reshape(-1), gy.reshape(-1)
    n = a.cases
    n_extra = max(1, n // 6)
    params = np.zeros((n + n_extra, 5))
    split = np.zeros(n + n_extra, np.int8)
    for k in range(n + n_extra):
        m = rng.integers(0, 5) / 100
        p = rng.integers(3, 6) / 10 if m > 0 else 0.0
        t = rng.integers(8, 19) / 100
        aoa = rng.uniform(-4, 10) if k < n else rng.uniform(10, 13)
        re = 10 ** rng.uniform(math.log10(200), 3)
        params[k] = (m, p, t, aoa, re)
        split[k] = 2 if k >= n else (1 if rng.uniform() < 0.2 else 0)
    if not np.any(split == 1):
        split[0] = 1
    S = 200
    if a.sweep:
        from sweep_spec import expand, load
        sw = load(a.sweep)
        params, split = expand(sw)
        g = sw.get("sample_grid", {})
        nx, ny = g.get("nx", 128), g.get("ny", 64)
        (x0, x1), (y0, y1) = g.get("x", [-1.0, 3.0]), g.get("y", [-1.0, 1.0])
        grid = Grid(nx, ny, x0, x1, y0, y1)
        gx, gy = np.meshgrid(np.linspace(x0, x1, nx), np.linspace(y0, y1, ny))
        px, py = gx.reshape(-1), gy.reshape(-1)
        S = 2 * (int(sw.get("surface_points", 200)) // 2)
    N = len(params)
    f = {k: np.zeros((N, ny, nx), np.float32) for k in ("u", "v", "p", "sdf")}
    mask = np.zeros((N, ny, nx), np.uint8)
    sxs, sys_, scp = (np.zeros((N, S), np.float32) for _ in range(3))
    cl, cd = np.zeros(N), np.zeros(N)
    for k, (m, p, t, aoa, re) in enumerate(params):
        cx, cy = place(*naca4(m, p, t, S // 2), aoa)
        inside = Path(np.stack([cx, cy], 1)).contains_points(np.stack([px, py], 1))
        sdf = signed_distance(px, py, cx, cy, inside)
        gam = math.pi * (math.radians(aoa) + 2.5 * m)  # circulation ~ thin-airfoil lift / 2
        r2 = px ** 2 + py ** 2 + 0.05
        damp = 1 - np.exp(-np.maximum(sdf, 0) * (8 + re / 200))
        u = 1 + gam / (2 * math.pi) * py / r2 - 0.3 * t * (px ** 2 - py ** 2) / r2 ** 2
        v = -gam / (2 * math.pi) * px / r2 - 0.3 * t * 2 * px * py / r2 ** 2
        wake = 0.3 * np.exp(-(py + px * math.radians(aoa) * 0.5) ** 2 / (0.02 + 0.02 * px.clip(0))) * (px > 0)
        u = (u - wake * (600 / re) ** 0.5) * damp
        v = v * damp
        cp = 1 - (u ** 2 + v ** 2) / np.maximum(damp, 0.2) ** 2
        u[inside], v[inside] = 0, 0
        f["u"][k] = u.reshape(ny, nx)
        f["v"][k] = v.reshape(ny, nx)
        f["p"][k] = cp.reshape(ny, nx)
        f["sdf"][k] = sdf.reshape(ny, nx)
        mask[k] = inside.reshape(ny, nx)
        sxs[k], sys_[k] = cx, cy
        for s in range(S):
            from coefficients import fluid_sample
            scp[k, s] = fluid_sample(f["p"][k], mask[k], grid, cx[s], cy[s])
        c = force_coefficients(f["u"][k], f["v"][k], f["p"][k], mask[k], grid, cx, cy, re)
        cl[k], cd[k] = c["cl"], c["cd"]
    tmp = a.out + ".tmp"
    with h5py.File(tmp, "w") as h:
        h.attrs["format"] = "aerolbm-dataset"
        h.attrs["version"] = 1
        for key, val in (("nx", nx), ("ny", ny)):
            h.attrs[key] = np.int64(val)
        for key, val in (("x0", x0), ("x1", x1), ("y0", y0), ("y1", y1)):
            h.attrs[key] = float(val)
        h.attrs["sweep_yaml"] = "# dev_fake_dataset.py: synthetic fields, not from the solver\n"
        d = h.create_dataset("params", data=params)
        d.attrs["columns"] = ["camber", "camber_position", "thickness", "aoa_deg", "reynolds"]
        h.create_dataset("split", data=split)
        for key in ("u", "v", "p", "sdf"):
            h.create_dataset("fields/" + key, data=f[key])
        h.create_dataset("fields/mask", data=mask)
        h.create_dataset("surface/x", data=sxs)
        h.create_dataset("surface/y", data=sys_)
        h.create_dataset("surface/cp", data=scp)
        h.create_dataset("coefficients/cl", data=cl)
        h.create_dataset("coefficients/cd", data=cd)
        h.create_dataset("timing/seconds", data=np.zeros(N))
    os.replace(tmp, a.out)
    print(f"wrote {a.out}: {N} synthetic cases ({np.sum(split == 0)} train, {np.sum(split == 1)} test, "
          f"{np.sum(split == 2)} extrapolation), grid {nx}x{ny}")


if __name__ == "__main__":
    main()
