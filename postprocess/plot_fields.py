#!/usr/bin/env python3
"""Velocity-magnitude and vorticity images of one frame of fields.h5, with the body drawn (from the mask)."""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402

FIELDS = ("velocity", "vorticity", "pressure")


def draw_body(ax, f, mask):
    """The solid cells as a dark grey patch with its outline."""
    x, y = f.x(), f.y()
    solid = np.ma.masked_where(~mask, np.ones_like(mask, dtype=float))
    ax.imshow(solid, origin="lower", extent=f.extent(), cmap="Greys", vmin=0, vmax=1.4, interpolation="nearest")
    ax.contour(x, y, mask.astype(float), levels=[0.5], colors="k", linewidths=0.8)


def field_image(f, g, name):
    """(values, colour map, vmin, vmax, label) of one field in the z-middle slice; solid cells are NaN."""
    mask = f.slice2d(g, "mask") > 0.5 if "mask" in g else None
    if name == "velocity":
        v = f.slice2d(g, "velocity")
        data, cmap, label = np.linalg.norm(v, axis=-1), "viridis", "$|u|/U$"
        lo, hi = 0.0, float(np.nanmax(data)) if data.size else 1.0
    elif name == "vorticity":
        w = f.slice2d(g, "vorticity")
        data = w[..., 2] if w.ndim == 3 else w
        # Symmetric about 0; the 99.5th percentile keeps a few wall cells from washing out the wake.
        hi = float(np.nanpercentile(np.abs(data), 99.5)) or 1.0
        lo, cmap, label = -hi, "RdBu_r", "vorticity $\\omega L/U$"
    elif name == "pressure":
        data, cmap, label = f.slice2d(g, "pressure"), "coolwarm", "$C_p$"
        lo, hi = float(np.nanmin(data)), float(np.nanmax(data))
    else:
        raise ar.RunError(f"unknown field '{name}' (expected one of {', '.join(FIELDS)})")
    data = np.array(data, dtype=float)
    if mask is not None:
        data[mask] = np.nan
    return data, mask, cmap, lo, hi, label


def plot_field(run, name, frame=-1, window=None):
    """Returns the figure: the image spans the domain (or `window` = x0 x1 y0 y1), colour limits from the data."""
    plt = ar.matplotlib_pyplot()
    f = ar.Fields(run)
    g = f.frame(frame)
    data, mask, cmap, lo, hi, label = field_image(f, g, name)
    ext = f.extent()
    aspect = (ext[3] - ext[2]) / (ext[1] - ext[0])
    fig, ax = plt.subplots(figsize=(9, max(2.5, 9 * aspect * (1 if window is None else 1))))
    im = ax.imshow(data, origin="lower", extent=ext, cmap=cmap, vmin=lo, vmax=hi, interpolation="bilinear")
    if mask is not None and mask.any():
        draw_body(ax, f, mask)
    if window:
        ax.set_xlim(window[0], window[1])
        ax.set_ylim(window[2], window[3])
    else:
        ax.set_xlim(ext[0], ext[1])
        ax.set_ylim(ext[2], ext[3])
    ax.set_aspect("equal")
    ax.set_xlabel("x / L")
    ax.set_ylabel("y / L")
    ax.set_title(f"{label}, t = {float(g.attrs['time']):.3g} (step {int(g.attrs['step'])})")
    fig.colorbar(im, ax=ax, label=label, shrink=0.85)
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("run", help="run folder (written by aerolbm run)")
    p.add_argument("--fields", default="velocity,vorticity",
                   help=f"comma-separated, of {', '.join(FIELDS)} (default: velocity,vorticity)")
    p.add_argument("--frame", type=int, default=-1, help="frame index (default -1: the last)")
    p.add_argument("--window", type=float, nargs=4, metavar=("X0", "X1", "Y0", "Y1"),
                   help="zoom to this window, in reference lengths from the body pivot")
    ar.common_args(p)
    a = p.parse_args(argv)
    out = ar.default_output([a.run], a.output)
    try:
        for name in [s.strip() for s in a.fields.split(",") if s.strip()]:
            if name not in FIELDS:
                ar.fail(f"--fields: unknown field '{name}' (expected some of {', '.join(FIELDS)})")
            fig = plot_field(a.run, name, a.frame, a.window)
            ar.save(fig, out, name, a.svg)
    except ar.RunError as e:
        ar.fail(e)


if __name__ == "__main__":
    main()
