#!/usr/bin/env python3
"""Polar from several runs (or a sweep folder holding run folders): Cl against the angle of attack and Cl
against Cd, from the mean coefficients in each run's summary.json; or from a polar.csv (`aerolbm predict
--polar`) in a folder given. With --reference FILE (measured data: alpha, cl, cd rows, e.g.
cases/data/ladson_naca0012_re6e6.dat) the plot adds Cd against the angle and draws the data beside the runs, and
prints each run's Cl and Cd against the data interpolated to its angle."""
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


def read_reference(path):
    """Measured polar: rows of alpha (degrees), cl, cd; '#' comments, Tecplot 'variables=' and 'zone' lines skipped
    (the first zone only). Returns (label, alpha, cl, cd) sorted by angle."""
    rows, label, zones = [], os.path.basename(path), 0
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                t = line.strip()
                if not t or t.startswith("#") or t.lower().startswith("variables"):
                    continue
                if t.lower().startswith("zone"):
                    zones += 1
                    if zones > 1:
                        break
                    if 't="' in t:
                        label += " (" + t.split('t="', 1)[1].split('"', 1)[0] + ")"
                    continue
                v = t.split()
                try:
                    rows.append((float(v[0]), float(v[1]), float(v[2])))
                except (ValueError, IndexError):
                    raise ar.RunError(f"{path}:{n}: expected three numbers (alpha, cl, cd), got {t!r}")
    except OSError as e:
        raise ar.RunError(f"{path}: {e.strerror}")
    if len(rows) < 2:
        raise ar.RunError(f"{path}: fewer than two rows of alpha, cl, cd")
    rows.sort()
    a = np.array(rows)
    return label, a[:, 0], a[:, 1], a[:, 2]


def against_reference(alpha, cd, cl, ref):
    """Lines comparing each run with the data interpolated to its angle (inside the data's range only)."""
    _, ra, rcl, rcd = ref
    out = ["alpha   Cl run   Cl data  dCl      Cd run    Cd data   dCd"]
    for a, d, l in zip(alpha, cd, cl):
        if a < ra[0] or a > ra[-1]:
            out.append(f"{a:5.1f}   {l:7.4f}  (outside the data's angles)")
            continue
        dl, dd = np.interp(a, ra, rcl), np.interp(a, ra, rcd)
        rel = f"{100 * (l - dl) / dl:+6.1f} %" if abs(dl) > 0.05 else f"{l - dl:+.4f} "
        out.append(f"{a:5.1f}   {l:7.4f}  {dl:7.4f}  {rel}  {d:8.5f}  {dd:8.5f}  {100 * (d - dd) / dd:+6.1f} %")
    return "\n".join(out)


def plot_polar(paths, reference=None):
    """Returns the figure: Cl(alpha), Cl(Cd) and, where every point has one, Cm(alpha); with a reference (from
    read_reference) also Cd(alpha), the data drawn beside the runs. Limits from the points."""
    plt = ar.matplotlib_pyplot()
    alpha, cd, cl, cm = polar_points(collect(paths))
    with_cm = bool(np.all(np.isfinite(cm)))
    n = 2 + int(with_cm) + int(reference is not None)
    fig, axes = plt.subplots(1, n, figsize=(5 * n, 4.2))
    ax1, ax2 = axes[0], axes[1]
    if with_cm:
        axes[2].plot(alpha, cm, "o-")
        axes[2].set_xlabel("angle of attack (degrees)")
        axes[2].set_ylabel("$C_m$ about the quarter chord (mean)")
    if reference is not None:
        label, ra, rcl, rcd = reference
        # the data within 5 degrees of the runs' angles (a polar's post-stall drag would squash the rest)
        near = (ra >= alpha.min() - 5) & (ra <= alpha.max() + 5)
        ra, rcl, rcd = ra[near], rcl[near], rcd[near]
        axd = axes[-1]
        axd.plot(alpha, cd, "o-", color="C0", label="aerolbm")
        axd.plot(ra, rcd, "s", color="C1", mfc="none", label=label)
        axd.set_xlabel("angle of attack (degrees)")
        axd.set_ylabel("$C_D$ (mean)")
        axd.legend(fontsize=8)
        ax1.plot(ra, rcl, "s", color="C1", mfc="none", label=label)
        ax2.plot(rcd, rcl, "s", color="C1", mfc="none", label=label)
    ax1.plot(alpha, cl, "o-", color="C0", label="aerolbm")
    ax1.set_xlabel("angle of attack (degrees)")
    ax1.set_ylabel("$C_L$ (mean)")
    ax2.plot(cd, cl, "o-", color="C0")
    for a, x, y in zip(alpha, cd, cl):
        ax2.annotate(f"{a:g}°", (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax2.set_xlabel("$C_D$ (mean)")
    ax2.set_ylabel("$C_L$ (mean)")
    for ax in axes:
        ax.grid(alpha=0.3)
    if reference is not None:
        ax1.legend(fontsize=8)
    fig.suptitle(f"Polar, {len(alpha)} angles")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("runs", nargs="+", help="run folders, or folders holding run folders (a sweep)")
    p.add_argument("--reference", help="measured polar to draw beside the runs (alpha, cl, cd rows)")
    ar.common_args(p)
    a = p.parse_args(argv)
    try:
        ref = read_reference(a.reference) if a.reference else None
        fig = plot_polar(a.runs, ref)
        if ref is not None:
            alpha, cd, cl, _ = polar_points(collect(a.runs))
            print(against_reference(alpha, cd, cl, ref))
    except ar.RunError as e:
        ar.fail(e)
    ar.save(fig, a.output or ".", "polar", a.svg)


if __name__ == "__main__":
    main()
