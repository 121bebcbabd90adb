#!/usr/bin/env python3
"""Mean recirculation length behind a cylinder, from a run's mean fields (output.averages.enabled: true).

    recirculation_length.py RUN_FOLDER [--json OUT.json]

The mean streamwise velocity, averaged over the span (3D), is read along the wake's centre line y = 0 (the
coordinates of the field files put the cylinder's axis at the origin, lengths in diameters). The recirculation
length L_r is the distance from the cylinder's rear surface (x = 0.5 D) to the first point downstream where the
mean velocity turns from negative (backflow) to positive, interpolated linearly between cells. Also printed: the
largest backflow speed on the line and where it is.
"""
import argparse
import json
import os
import sys

import h5py
import numpy as np


def mean_velocity(run):
    single = os.path.join(run, "mean", "fields", "frame_000000.h5")
    if os.path.exists(single):
        f = h5py.File(single, "r")
        g = f
    else:
        f = h5py.File(os.path.join(run, "mean", "fields.h5"), "r")
        g = f["frame_000000"]
    u = np.asarray(g["velocity"][...], dtype=np.float64)  # (nz, ny, nx, 3), u/U
    origin = np.asarray(g.attrs["origin"], dtype=np.float64)
    spacing = np.asarray(g.attrs["spacing"], dtype=np.float64)
    f.close()
    return u, origin, spacing


def recirculation(u, origin, spacing):
    ux = u[..., 0].mean(axis=0)  # span average: (ny, nx)
    ny, nx = ux.shape
    y = origin[1] + spacing[1] * np.arange(ny)
    x = origin[0] + spacing[0] * np.arange(nx)
    j = int(np.searchsorted(y, 0.0))
    if j <= 0 or j >= ny:
        sys.exit("the centre line y = 0 is not inside the field")
    w = (0.0 - y[j - 1]) / (y[j] - y[j - 1])
    line = (1 - w) * ux[j - 1] + w * ux[j]
    behind = np.nonzero(x > 0.5)[0]
    xs, us = x[behind], line[behind]
    back = np.nonzero(us < 0)[0]
    if back.size == 0:
        return None, xs, us
    first = back[0]
    for i in range(first, us.size - 1):
        if us[i] < 0 <= us[i + 1]:
            x0 = xs[i] + (xs[i + 1] - xs[i]) * (-us[i]) / (us[i + 1] - us[i])
            return x0 - 0.5, xs, us
    return None, xs, us


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="the run folder (with mean/)")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    u, origin, spacing = mean_velocity(a.run)
    lr, xs, us = recirculation(u, origin, spacing)
    k = int(np.argmin(us))
    out = {"recirculation_length_d": lr, "min_mean_u": float(us[k]), "min_mean_u_at_x_d": float(xs[k])}
    if lr is None:
        print("no closed recirculation bubble on the centre line")
    else:
        print(f"recirculation length L_r/D = {lr:.3f} (from the rear surface); largest backflow {us[k]:.3f} U at "
              f"x = {xs[k]:.2f} D")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0 if lr is not None else 1


if __name__ == "__main__":
    sys.exit(main())
