#!/usr/bin/env python3
"""Polar from several runs (or a sweep folder holding run folders): Cl against the angle of attack and Cl
against Cd, from the mean coefficients in each run's summary.json; or from a polar.csv (`aerolbm predict
--polar`) in a folder given."""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402


def collect(paths):
    """Run folders from the arguments: a folder with summary.json is a run, other folders are searched one level."""
    runs = []
    for p in paths:
        if os.path.exists(os.path.join(p, "polar.csv")) or os.path.exists(os.path.join(p, "summary.json")):
            runs.append(p)
        elif os.path.isdir(p):
            subs = sorted(os.path.join(p, d) for d in os.listdir(p)
                          if os.path.exists(os.path.join(p, d, "summary.json")))
            if not subs:
                raise ar.RunError(f"{p}: neither a run folder nor a folder of run folders (no summary.json)")
            runs += subs
        else:
            raise ar.RunError(f"{p}: no such folder")
    return runs


def polar_points(runs):
    """Sorted by angle: arrays alpha (degrees), cd, cl, cm (the pitching moment about the quarter chord; NaN where
    a run or table has none)."""
    pts = []
    for r in runs:
        csv = os.path.join(r, "polar.csv")
        if os.path.exists(csv):  # a predicted polar: one row per angle
            try:
                t = np.genfromtxt(csv, delimiter=",", names=True, ndmin=1)
                cm = t["cm"] if "cm" in t.dtype.names else np.full(len(t["cl"]), np.nan)
                pts += [(float(a), float(d), float(l), float(m))
                        for a, d, l, m in zip(t["alpha_deg"], t["cd"], t["cl"], cm)]
            except (ValueError, KeyError, IndexError) as e:
                raise ar.RunError(f"{csv}: not a polar table (alpha_deg, cl, cd columns): {e}")
            continue
        s = ar.read_summary(r)
        c = s.get("coefficients", {})
        if c.get("cd_mean") is None or c.get("cl_mean") is None:
            raise ar.RunError(f"{r}/summary.json: no mean Cd/Cl")
        cm = c.get("cpitch_mean")
        pts.append((float(s["angle_of_attack_deg"]), float(c["cd_mean"]), float(c["cl_mean"]),
                    float(cm) if cm is not None else float("nan")))
    pts.sort()
    a = np.array(pts)
    return a[:, 0], a[:, 1], a[:, 2], a[:, 3]


def plot_polar(paths):
    """Returns the figure: Cl(alpha), Cl(Cd) and, where every point has one, Cm(alpha); limits from the points."""
    plt = ar.matplotlib_pyplot()
    alpha, cd, cl, cm = polar_points(collect(paths))
    with_cm = bool(np.all(np.isfinite(cm)))
    fig, axes = plt.subplots(1, 3 if with_cm else 2, figsize=(15 if with_cm else 10, 4.2))
    ax1, ax2 = axes[0], axes[1]
    if with_cm:
        axes[2].plot(alpha, cm, "o-")
        axes[2].set_xlabel("angle of attack (degrees)")
        axes[2].set_ylabel("$C_m$ about the quarter chord (mean)")
    ax1.plot(alpha, cl, "o-")
    ax1.set_xlabel("angle of attack (degrees)")
    ax1.set_ylabel("$C_L$ (mean)")
    ax2.plot(cd, cl, "o-")
    for a, x, y in zip(alpha, cd, cl):
        ax2.annotate(f"{a:g}°", (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax2.set_xlabel("$C_D$ (mean)")
    ax2.set_ylabel("$C_L$ (mean)")
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.suptitle(f"Polar, {len(alpha)} angles")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("runs", nargs="+", help="run folders, or folders holding run folders (a sweep)")
    ar.common_args(p)
    a = p.parse_args(argv)
    try:
        fig = plot_polar(a.runs)
    except ar.RunError as e:
        ar.fail(e)
    ar.save(fig, a.output or ".", "polar", a.svg)


if __name__ == "__main__":
    main()
