#!/usr/bin/env python3
"""Force history: Cd and Cl against time (convective times) from one or more run folders' forces.csv."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402


def plot_forces(runs, labels=None, from_time=None):
    """Returns the figure: two axes (Cd, Cl) sharing the time axis, limits from the data shown."""
    plt = ar.matplotlib_pyplot()
    fig, (ax_cd, ax_cl) = plt.subplots(2, 1, sharex=True, figsize=(7, 5.5))
    tmin, tmax = float("inf"), float("-inf")
    for k, run in enumerate(runs):
        f = ar.read_forces(run)
        keep = f["time"] >= from_time if from_time is not None else slice(None)
        t, cd, cl = f["time"][keep], f["Cd"][keep], f["Cl"][keep]
        if len(t) == 0:
            raise ar.RunError(f"{run}/forces.csv: no samples" + (f" after t = {from_time}" if from_time else ""))
        label = labels[k] if labels else os.path.basename(os.path.normpath(run))
        ax_cd.plot(t, cd, lw=1.2, label=label)
        ax_cl.plot(t, cl, lw=1.2, label=label)
        tmin, tmax = min(tmin, t.min()), max(tmax, t.max())
    ax_cd.set_xlim(tmin, tmax if tmax > tmin else tmin + 1)
    ax_cd.set_ylabel("$C_D$")
    ax_cl.set_ylabel("$C_L$")
    ax_cl.set_xlabel("time $tU/L$ (convective times)")
    for ax in (ax_cd, ax_cl):
        ax.grid(alpha=0.3)
    if len(runs) > 1:
        ax_cd.legend()
    ax_cd.set_title("Force coefficients")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("runs", nargs="+", help="run folders (written by aerolbm run)")
    p.add_argument("--labels", nargs="+", help="legend labels, one per run (default: folder names)")
    p.add_argument("--from-time", type=float, help="leave out samples before this time (the start-up transient)")
    ar.common_args(p)
    a = p.parse_args(argv)
    if a.labels and len(a.labels) != len(a.runs):
        ar.fail(f"--labels: expected {len(a.runs)} labels (one per run), got {len(a.labels)}")
    try:
        fig = plot_forces(a.runs, a.labels, a.from_time)
    except ar.RunError as e:
        ar.fail(e)
    ar.save(fig, ar.default_output(a.runs, a.output), "forces", a.svg)


if __name__ == "__main__":
    main()
