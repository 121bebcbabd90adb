#!/usr/bin/env python3
"""Plot the Taylor-Green vortex's dissipation rate against the DNS (docs/validation.md).

The energy histories are those that `AEROLBM_TGV_DUMP=prefix validation_tests --gtest_filter='TaylorGreen1600*'`
writes (CSV: t, kinetic energy, no header); the dissipation rate is -dE/dt by central differences, as in the test.

Usage: plot_tgv.py [--dns cases/data/tgv_re1600_dns.csv] --out PNG LABEL=CSV [LABEL=CSV ...]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_columns(path, skip_header):
    t, e = [], []
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    for r in rows[1 if skip_header else 0:]:
        t.append(float(r[0]))
        e.append(float(r[1]))
    return t, e


def dissipation(t, e):
    return t[1:-1], [-(e[i + 1] - e[i - 1]) / (t[i + 1] - t[i - 1]) for i in range(1, len(t) - 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dns", default="cases/data/tgv_re1600_dns.csv")
    ap.add_argument("--title", default="Taylor-Green vortex, Re 1600")
    ap.add_argument("--out", required=True)
    ap.add_argument("runs", nargs="+", help="LABEL=CSV")
    a = ap.parse_args()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    t, e = read_columns(a.dns, True)
    ax.plot(*dissipation(t, e), "k-", lw=2, label="spectral DNS 256³")
    for run in a.runs:
        label, path = run.split("=", 1)
        ax.plot(*dissipation(*read_columns(path, False)), lw=1.2, label=label)
    ax.set_xlim(0, 20)
    ax.set_xlabel("t V₀ / L")
    ax.set_ylabel("ε = −dE/dt")
    ax.set_title(a.title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)


if __name__ == "__main__":
    main()
