#!/usr/bin/env python3
"""The stability and accuracy map of the default 2D airfoil (docs/high_reynolds.md).

Runs `aerolbm run` on a case (default: cases/naca0012_re1000_aoa5.yaml) for every combination of resolution
(geometry.chord_cells), Reynolds number, collision operator and LES model given, without field output, and writes
one row per run: how it ended (ran, diverged, refused) and the mean C_L and C_D over the case's averaging window.

Usage: stability_map.py [--aerolbm PATH] [--case FILE] [--chords 64,128,256] [--reynolds 1e3,1e4,1e5,1e6,1e7]
                        [--collisions bgk,trt,kbc] [--les none,smagorinsky] [--set KEY=VALUE ...]
                        [--timeout S] --out DIR
Writes DIR/map.csv and DIR/map.md (a Markdown table per resolution); each run's folder is DIR/runs/NAME.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time


def run_one(args, chord, re, coll, les):
    name = f"c{chord}_re{re:g}_{coll}_{les}"
    folder = os.path.join(args.out, "runs", name)
    cmd = [args.aerolbm, "run", args.case, "--output", folder, "--overwrite",
           "--set", f"geometry.chord_cells={chord}", "--set", f"physics.reynolds={re:g}",
           "--set", f"lattice.collision={coll}", "--set", f"lattice.les.model={les}",
           "--set", "output.every=0"]
    for s in args.set:
        cmd += ["--set", s]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        code, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        code, text = None, "timeout"
    row = {"chord_cells": chord, "reynolds": f"{re:g}", "collision": coll, "les": les,
           "exit": "timeout" if code is None else code, "seconds": round(time.time() - t0, 1),
           "outcome": "", "cl": "", "cd": "", "converged": "", "mlups": "", "note": ""}
    if code == 0:
        with open(os.path.join(folder, "summary.json")) as f:
            s = json.load(f)
        c = s.get("coefficients") or {}
        row["outcome"] = "ran"
        row["cl"] = f"{c.get('cl_mean', float('nan')):.4f}"
        row["cd"] = f"{c.get('cd_mean', float('nan')):.4f}"
        row["mlups"] = f"{s.get('mlups', 0):.0f}"
        conv = c.get("convergence") or {}
        row["converged"] = conv.get("converged", "")
    elif code == 2:
        row["outcome"] = "refused"
        row["note"] = next((ln.strip() for ln in text.splitlines() if "tau" in ln.lower()), text.strip()[:160])
    else:
        row["outcome"] = "diverged" if "diverg" in text.lower() else "failed"
        row["note"] = next((ln.strip() for ln in text.splitlines() if "step" in ln.lower() and "diverg" in ln.lower()),
                           text.strip().splitlines()[-1][:160] if text.strip() else "")
    # Keep the small files only: the summary and the force history.
    shutil.rmtree(os.path.join(folder, "fields"), ignore_errors=True)
    return row


def markdown(rows):
    out = []
    chords = sorted({r["chord_cells"] for r in rows})
    res = sorted({float(r["reynolds"]) for r in rows})
    combos = []
    for r in rows:
        k = (r["collision"], r["les"])
        if k not in combos:
            combos.append(k)
    for chord in chords:
        out.append(f"\n**{chord} cells per chord** (C_L / C_D, mean over the averaging window)\n")
        out.append("| collision | LES | " + " | ".join(f"Re {re:.0e}".replace("e+0", "e") for re in res) + " |")
        out.append("| --- | --- | " + " | ".join("---" for _ in res) + " |")
        for coll, les in combos:
            cells = []
            for re in res:
                r = next((r for r in rows if r["chord_cells"] == chord and float(r["reynolds"]) == re
                          and r["collision"] == coll and r["les"] == les), None)
                if r is None:
                    cells.append("")
                elif r["outcome"] == "ran":
                    cells.append(f"{r['cl']} / {r['cd']}" + ("" if r["converged"] in (True, "") else " (not converged)"))
                else:
                    cells.append(r["outcome"])
            out.append(f"| {coll} | {les} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--aerolbm", default="aerolbm")
    ap.add_argument("--case", default="cases/naca0012_re1000_aoa5.yaml")
    ap.add_argument("--chords", default="64,128,256")
    ap.add_argument("--reynolds", default="1e3,1e4,1e5,1e6,1e7")
    ap.add_argument("--collisions", default="bgk,trt,kbc")
    ap.add_argument("--les", default="none,smagorinsky")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    fields = ["chord_cells", "reynolds", "collision", "les", "outcome", "cl", "cd", "converged", "mlups", "seconds", "exit", "note"]
    with open(os.path.join(args.out, "map.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for chord in (int(c) for c in args.chords.split(",")):
            for re in (float(r) for r in args.reynolds.split(",")):
                for coll in args.collisions.split(","):
                    for les in args.les.split(","):
                        r = run_one(args, chord, re, coll, les)
                        rows.append(r)
                        w.writerow(r)
                        f.flush()
                        print(f"chord {chord} Re {re:g} {coll} {les}: {r['outcome']} {r['cl']} {r['cd']} "
                              f"({r['seconds']} s) {r['note'][:100]}", flush=True)
    with open(os.path.join(args.out, "map.md"), "w") as f:
        f.write(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
