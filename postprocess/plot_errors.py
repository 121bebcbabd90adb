#!/usr/bin/env python3
"""Error maps of a comparison: |B − A| of each field at the last common frame, from errors.h5 as written by
`aerolbm compare` (on the comparison grid: the coarser run's cell centres). Points left out of the comparison
(the body, and cells whose interpolation touched it) are grey."""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402


def read_errors(path):
    import h5py

    if os.path.isdir(path):
        path = os.path.join(path, "errors.h5")
    if not os.path.exists(path):
        raise ar.RunError(f"{path}: missing (aerolbm compare writes it when both runs have common frames)")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ar.RunError(f"{path}: not a readable HDF5 file ({e})")
    a = f.attrs
    nz = int(a["nz"])
    grid = dict(nx=int(a["nx"]), ny=int(a["ny"]), nz=nz, origin=np.asarray(a["origin"]),
                spacing=np.asarray(a["spacing"]), time=float(a["time"]))
    valid = np.asarray(f["valid"][nz // 2]) > 0.5
    fields = {}
    for name in f:
        if name == "valid":
            continue
        d = np.asarray(f[name][nz // 2], dtype=float)
        fields[name] = np.linalg.norm(d, axis=-1) if d.ndim == 3 else np.abs(d)
    return grid, valid, fields


def plot_errors(path):
    """Returns the figure: one panel per field, colour range 0 .. max |B − A| over the compared points."""
    plt = ar.matplotlib_pyplot()
    grid, valid, fields = read_errors(path)
    if not fields:
        raise ar.RunError(f"{path}: no difference fields")
    h, o = grid["spacing"], grid["origin"]
    ext = [o[0] - h[0] / 2, o[0] + (grid["nx"] - 0.5) * h[0], o[1] - h[1] / 2, o[1] + (grid["ny"] - 0.5) * h[1]]
    n = len(fields)
    aspect = (ext[3] - ext[2]) / (ext[1] - ext[0])
    fig, axes = plt.subplots(n, 1, figsize=(8, 1.0 + n * (0.6 + 7.0 * aspect)), squeeze=False)
    cmap = plt.get_cmap("magma").copy()
    cmap.set_bad("0.6")
    for ax, (name, err) in zip(axes[:, 0], sorted(fields.items())):
        shown = np.where(valid, err, np.nan)
        hi = float(np.nanmax(shown)) if np.isfinite(shown).any() else 0.0
        im = ax.imshow(shown, origin="lower", extent=ext, cmap=cmap, vmin=0, vmax=hi if hi > 0 else 1.0,
                       interpolation="nearest")
        ax.set_title(f"|B − A| of {name} (max {hi:.3e})" if hi > 0 else f"{name}: identical", fontsize=10)
        ax.set_aspect("equal")
        ax.set_ylabel("y / L")
        fig.colorbar(im, ax=ax, shrink=0.85)
    axes[-1, 0].set_xlabel("x / L")
    fig.suptitle(f"Differences at t = {grid['time']:.4g} (grey: not compared)")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("errors", help="errors.h5, or the compare folder that holds it")
    p.add_argument("--output", "-o", help="folder for the image (default: beside errors.h5)")
    p.add_argument("--svg", action="store_true", help="also write SVG")
    a = p.parse_args(argv)
    try:
        fig = plot_errors(a.errors)
    except ar.RunError as e:
        ar.fail(e)
    base = a.errors if os.path.isdir(a.errors) else os.path.dirname(os.path.abspath(a.errors))
    ar.save(fig, a.output or base, "errors", a.svg)


if __name__ == "__main__":
    main()
