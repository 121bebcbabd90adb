#!/usr/bin/env python3
"""Surface pressure coefficient Cp around the body, from the fluid cells next to it in fields.h5.

The samples are the fluid cells that touch a solid cell (mask), at their cell centres, i.e. half a cell off the
wall. For an airfoil they are plotted against x/c in the chord frame (the angle of attack undone, pivot at the
quarter chord), upper and lower side told apart by the direction of the wall normal; for a cylinder against
the angle from the front stagnation point. The Cp axis points down, as usual for airfoils.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402

NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def surface_samples(fields, frame=-1):
    """(x, y, cp, nx, ny): world coordinates of the fluid cells next to the body, their Cp and outward normal."""
    g = fields.frame(frame)
    mask = fields.slice2d(g, "mask") > 0.5
    cp = fields.slice2d(g, "pressure")
    if not mask.any():
        raise ar.RunError(f"{fields.path}: the mask holds no solid cell: there is no body to sample")
    solid = np.pad(mask, 1, constant_values=False)
    near = np.zeros_like(mask)
    normal = np.zeros(mask.shape + (2,))
    for dx, dy in NEIGHBOURS:
        s = solid[1 + dy:1 + dy + mask.shape[0], 1 + dx:1 + dx + mask.shape[1]]
        near |= s
        normal[..., 0] -= dx * s
        normal[..., 1] -= dy * s
    surf = near & ~mask
    # The domain faces are not walls of the body: only cells next to the body are kept (the mask is the body).
    j, i = np.nonzero(surf)
    x = fields.origin[0] + fields.spacing[0] * i
    y = fields.origin[1] + fields.spacing[1] * j
    return x, y, cp[j, i], normal[j, i, 0], normal[j, i, 1]


def chord_frame(x, y, angle_deg):
    """World coordinates (pivot at 0) to the airfoil's chord frame: rotate by +alpha (the body was turned by −alpha)."""
    a = np.radians(angle_deg)
    return np.cos(a) * x - np.sin(a) * y, np.sin(a) * x + np.cos(a) * y


def geometry_type(run):
    """geometry.type from the run's case.yaml (a line scan: PyYAML is not among the dependencies)."""
    path = os.path.join(run, "case.yaml")
    section = None
    if os.path.exists(path):
        for line in open(path):
            if line and not line[0].isspace() and line.rstrip().endswith(":"):
                section = line.strip()[:-1]
            s = line.strip()
            if s.startswith("geometry:") and "type:" in s:  # flow style: geometry: {type: cylinder, ...}
                return s.split("type:")[1].split(",")[0].strip(" }\"'")
            if section == "geometry" and s.startswith("type:"):
                return s.split(":", 1)[1].strip().strip("\"'")
    return "naca4"


def plot_cp(runs, labels=None, frame=-1):
    """Returns the figure; for airfoils the x axis is x/c and spans the samples, the Cp axis is inverted."""
    plt = ar.matplotlib_pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.8))
    kind = None
    for k, run in enumerate(runs):
        f = ar.Fields(run)
        x, y, cp, nx, ny = surface_samples(f, frame)
        label = labels[k] if labels else os.path.basename(os.path.normpath(run))
        this = "cylinder" if geometry_type(run) == "cylinder" else "airfoil"
        if kind and this != kind:
            raise ar.RunError("the runs have different kinds of body (airfoil and cylinder)")
        kind = this
        if kind == "cylinder":
            theta = np.degrees(np.arctan2(y, -x)) % 360.0  # 0 at the front (upstream) point
            order = np.argsort(theta)
            ax.plot(theta[order], cp[order], ".-", ms=3, lw=0.8, label=label)
        else:
            xc, _ = chord_frame(x, y, f.angle_deg)
            _, nyc = chord_frame(nx, ny, f.angle_deg)
            xc = xc + 0.25  # pivot at the quarter chord, chord = 1 reference length
            for side, sel, mk in (("upper", nyc > 0, "o"), ("lower", nyc <= 0, "s")):
                order = np.argsort(xc[sel])
                ax.plot(xc[sel][order], cp[sel][order], mk + "-", ms=2.5, lw=0.8, label=f"{label} {side}")
    if kind == "cylinder":
        ax.set_xlabel("angle from the front stagnation point (degrees)")
        ax.set_xlim(0, 360)
    else:
        ax.set_xlabel("$x/c$")
    ax.set_ylabel("$C_p$")
    ax.invert_yaxis()
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Surface pressure coefficient (fluid cells next to the wall)")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", help="run folders (written by aerolbm run, with mask and pressure fields)")
    p.add_argument("--labels", nargs="+", help="legend labels, one per run")
    p.add_argument("--frame", type=int, default=-1, help="frame index (default -1: the last)")
    ar.common_args(p)
    a = p.parse_args(argv)
    if a.labels and len(a.labels) != len(a.runs):
        ar.fail(f"--labels: expected {len(a.runs)} labels (one per run), got {len(a.labels)}")
    try:
        fig = plot_cp(a.runs, a.labels, a.frame)
    except ar.RunError as e:
        ar.fail(e)
    ar.save(fig, ar.default_output(a.runs, a.output), "cp", a.svg)


if __name__ == "__main__":
    main()
