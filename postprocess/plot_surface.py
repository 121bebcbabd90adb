#!/usr/bin/env python3
"""Surface Cp and skin friction C_f of a 2D run, from its surface table (RUN/surface/surface_NNNNNN.csv).

The table is what the run writes beside each frame (docs/forces.md): one line per outline point with the outward
normal, Cp and the signed C_f (negative where the flow next to the wall runs upstream). An airfoil is plotted
against x/c in the chord frame (the angle of attack undone, pivot at the quarter chord), upper and lower side told
apart by the normal; a cylinder against the angle from the front stagnation point. The Cp axis points down.
"""
import argparse
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402
from plot_cp import chord_frame, geometry_type  # noqa: E402

COLUMNS = ["x", "y", "nx", "ny", "Cp", "Cf", "Cf_x", "Cf_y"]


def read_surface(run, frame=-1):
    """The surface table of frame `frame` (index into the run's tables, -1: the last) as a dict of columns."""
    files = sorted(glob.glob(os.path.join(run, "surface", "surface_*.csv")))
    if not files:
        raise ar.RunError(f"{run}/surface: no surface table (a 2D run with output.every > 0 and hdf5 or vtk writes "
                          "one beside every frame)")
    try:
        path = files[frame]
    except IndexError:
        raise ar.RunError(f"{run}/surface: frame {frame} out of range ({len(files)} tables)")
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if not lines or lines[0].split(",") != COLUMNS:
        raise ar.RunError(f"{path}: expected the column line {','.join(COLUMNS)}")
    data = np.array([[float(v) for v in l.split(",")] for l in lines[1:]])
    if data.ndim != 2 or data.shape[1] != len(COLUMNS):
        raise ar.RunError(f"{path}: no complete data lines")
    return {c: data[:, k] for k, c in enumerate(COLUMNS)}


def plot_surface(run, frame=-1):
    """Returns the figure: Cp above (inverted), C_f below, against x/c (airfoil) or the angle (cylinder)."""
    plt = ar.matplotlib_pyplot()
    s = read_surface(run, frame)
    fig, (ax_cp, ax_cf) = plt.subplots(2, 1, figsize=(7, 7), sharex=True)
    if geometry_type(run) == "cylinder":
        theta = np.degrees(np.arctan2(s["y"], -s["x"])) % 360.0
        order = np.argsort(theta)
        ax_cp.plot(theta[order], s["Cp"][order], ".-", ms=3, lw=0.8)
        ax_cf.plot(theta[order], s["Cf"][order], ".-", ms=3, lw=0.8)
        ax_cf.set_xlabel("angle from the front stagnation point (degrees)")
    else:
        angle = float(ar.read_summary(run).get("angle_of_attack_deg", 0.0))
        xc, _ = chord_frame(s["x"], s["y"], angle)
        _, nyc = chord_frame(s["nx"], s["ny"], angle)
        xc = xc + 0.25
        for side, sel, mk in (("upper", nyc > 0, "o"), ("lower", nyc <= 0, "s")):
            order = np.argsort(xc[sel])
            ax_cp.plot(xc[sel][order], s["Cp"][sel][order], mk + "-", ms=2.5, lw=0.8, label=side)
            ax_cf.plot(xc[sel][order], s["Cf"][sel][order], mk + "-", ms=2.5, lw=0.8, label=side)
        ax_cf.set_xlabel("$x/c$")
        ax_cp.legend(fontsize=8)
    ax_cp.set_ylabel("$C_p$")
    ax_cp.invert_yaxis()
    ax_cf.set_ylabel("$C_f$ (sign of the wall shear's x component)")
    ax_cf.axhline(0.0, color="0.5", lw=0.6)
    for ax in (ax_cp, ax_cf):
        ax.grid(alpha=0.3)
    ax_cp.set_title("Surface pressure and skin friction (surface output, one cell out)")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", help="a 2D run folder with surface tables")
    p.add_argument("--frame", type=int, default=-1, help="table index (default -1: the last)")
    ar.common_args(p)
    a = p.parse_args(argv)
    try:
        fig = plot_surface(a.run, a.frame)
    except ar.RunError as e:
        ar.fail(e)
    ar.save(fig, ar.default_output([a.run], a.output), "surface", a.svg)


if __name__ == "__main__":
    main()
