#!/usr/bin/env python3
"""Compares two run folders of the same case for the MPI tests: every field frame bit for bit (every dataset's
values, dtype and shape, every attribute of the file and of its datasets), the index (fields.h5 attributes and
links, fields.xdmf text), the VTK frames byte for byte where both runs wrote them, the same for the mean fields
(RUN/mean, output.averages) where the reference has them, the final state
(checkpoint populations) bit for bit, and the force history (checkpoint, double precision) within a tolerance
relative to the largest force coefficient (the wall-force sums are added up in another order over the ranks).

usage: compare_runs.py REFERENCE OTHER [--force-tol 1e-12]   exit 0 when they agree, 1 otherwise."""
import argparse
import glob
import os
import sys

import h5py
import numpy as np


def frames(run):
    return sorted(glob.glob(os.path.join(run, "fields", "frame_*.h5")))


def same_attrs(a, b):
    """Names of the attributes that differ between two HDF5 objects (missing on either side included)."""
    out = []
    for key in sorted(set(a.attrs) | set(b.attrs)):
        if key not in a.attrs or key not in b.attrs:
            out.append(key)
            continue
        x, y = a.attrs[key], b.attrs[key]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if np.asarray(x).dtype != np.asarray(y).dtype or not np.array_equal(x, y):
                out.append(key)
        elif type(x) is not type(y) or x != y:
            out.append(key)
    return out


def compare_index(ref, other, problems):
    ia, ib = os.path.join(ref, "fields.h5"), os.path.join(other, "fields.h5")
    if not os.path.exists(ia):
        return
    if not os.path.exists(ib):
        problems.append("fields.h5 missing")
        return
    with h5py.File(ia, "r") as ha, h5py.File(ib, "r") as hb:
        for key in same_attrs(ha, hb):
            problems.append(f"fields.h5: attribute {key} differs")
        la = {k: ha.get(k, getlink=True) for k in ha}
        lb = {k: hb.get(k, getlink=True) for k in hb}
        if sorted(la) != sorted(lb):
            problems.append(f"fields.h5: links differ: {sorted(la)} vs {sorted(lb)}")
        for k in la:
            if k in lb and (type(la[k]) is not h5py.ExternalLink or (la[k].filename, la[k].path) !=
                            (getattr(lb[k], "filename", None), getattr(lb[k], "path", None))):
                problems.append(f"fields.h5: link {k} differs")
    xa, xb = os.path.join(ref, "fields.xdmf"), os.path.join(other, "fields.xdmf")
    with open(xa, "rb") as fa, open(xb, "rb") as fb:
        if fa.read() != fb.read():
            problems.append("fields.xdmf differs")


def compare_vtk(ref, other, problems):
    va = sorted(glob.glob(os.path.join(ref, "vtk", "*.vti")))
    vb = sorted(glob.glob(os.path.join(other, "vtk", "*.vti")))
    if not va or not vb:
        return 0
    if [os.path.basename(f) for f in va] != [os.path.basename(f) for f in vb]:
        problems.append(f"VTK frames differ: {len(va)} vs {len(vb)}")
    for a, b in zip(va, vb):
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read():
                problems.append(f"{os.path.basename(b)}: VTK file not byte-identical")
    return len(va)


def compare_frames(ref, other, problems, label=""):
    """Every frame file of two runs' fields/ (or mean/fields/) bit for bit; returns (ref's frames, values compared)."""
    fa, fb = frames(ref), frames(other)
    if [os.path.basename(f) for f in fa] != [os.path.basename(f) for f in fb]:
        problems.append(f"{label}frames differ: {len(fa)} vs {len(fb)}")
    compared = 0
    for a, b in zip(fa, fb):
        with h5py.File(a, "r") as ha, h5py.File(b, "r") as hb:
            # Nothing in a frame file may differ: no attribute is per rank or per run (step, time, grid, units and
            # the case's parameters are the same in both runs).
            for key in same_attrs(ha, hb):
                problems.append(f"{label}{os.path.basename(b)}: attribute {key} differs")
            if sorted(ha.keys()) != sorted(hb.keys()):
                problems.append(f"{label}{os.path.basename(b)}: datasets {sorted(hb.keys())}, expected {sorted(ha.keys())}")
            for name, da in ha.items():
                if not isinstance(da, h5py.Dataset):
                    continue
                if name not in hb:
                    problems.append(f"{label}{os.path.basename(b)}: no dataset {name}")
                    continue
                x, y = da[()], hb[name][()]
                compared += x.size
                if x.dtype != y.dtype:
                    problems.append(f"{label}{os.path.basename(b)}/{name}: dtype {y.dtype}, expected {x.dtype}")
                for key in same_attrs(da, hb[name]):
                    problems.append(f"{label}{os.path.basename(b)}/{name}: attribute {key} differs")
                if x.shape != y.shape or not np.array_equal(x, y, equal_nan=True):
                    diff = np.nanmax(np.abs(x.astype(float) - y.astype(float))) if x.shape == y.shape else "shape"
                    problems.append(f"{label}{os.path.basename(b)}/{name}: not bit-identical (largest difference {diff})")
    return fa, compared


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("other")
    ap.add_argument("--force-tol", type=float, default=1e-12)
    args = ap.parse_args()
    problems = []
    fa, compared = compare_frames(args.ref, args.other, problems)
    compare_index(args.ref, args.other, problems)
    vtk = compare_vtk(args.ref, args.other, problems)
    # Mean fields (output.averages): the same checks on RUN/mean.
    mean = os.path.join(args.ref, "mean")
    means = 0
    if os.path.isdir(mean):
        other_mean = os.path.join(args.other, "mean")
        if not os.path.isdir(other_mean):
            problems.append("mean/ missing")
        else:
            fm, n = compare_frames(mean, other_mean, problems, "mean/")
            means = len(fm)
            compared += n
            if not n:
                problems.append("mean/: no values compared")
            compare_index(mean, other_mean, problems)
            vtk += compare_vtk(mean, other_mean, problems)
    ca, cb = os.path.join(args.ref, "checkpoint.h5"), os.path.join(args.other, "checkpoint.h5")
    worst = 0.0
    for c in (ca, cb):
        if not os.path.exists(c):
            print(f"DIFFER:\n  {c} is missing (the runs must write a checkpoint at their last step)")
            return 1
    with h5py.File(ca, "r") as ha, h5py.File(cb, "r") as hb:
        pa, pb = ha["populations"][()], hb["populations"][()]
        if pa.shape != pb.shape or not np.array_equal(pa, pb):
            problems.append("checkpoint populations: not bit-identical")
        for key in ("step",):
            if key in ha.attrs and ha.attrs[key] != hb.attrs[key]:
                problems.append(f"checkpoint {key}: {ha.attrs[key]} vs {hb.attrs[key]}")
        # Relative to the largest force coefficient of the run: a reordered sum errs in proportion to the size of its
        # terms, and a component that nearly cancels (the lift of a symmetric flow) would make a per-component
        # relative error meaningless.
        keys = [k for k in ("cd", "cl", "cs") if k in ha and ha[k].size]
        magnitude = max([float(np.max(np.abs(ha[k][()]))) for k in keys] + [1e-300])
        for key in keys:
            x, y = ha[key][()], hb[key][()]
            if x.shape != y.shape:
                problems.append(f"force history {key}: {x.shape} vs {y.shape} samples")
                continue
            if x.size == 0:
                continue
            rel = float(np.max(np.abs(x - y))) / magnitude
            worst = max(worst, rel)
            if rel > args.force_tol:
                problems.append(f"force history {key}: relative difference {rel:.3g} > {args.force_tol:g}")
    if compared == 0:
        problems.append("no field values compared (no frames?)")
    if problems:
        print("DIFFER:\n  " + "\n  ".join(problems))
        return 1
    print(f"AGREE: {len(fa)} HDF5 frames and {means} mean-field frames ({compared} values, every attribute), the "
          f"indexes, {vtk} VTK frames and the "
          f"final populations bit-identical, "
          f"forces within {worst:.2g} relative")
    return 0


if __name__ == "__main__":
    sys.exit(main())
