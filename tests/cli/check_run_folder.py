"""Checks that a run folder is consistent and readable, whatever moment the run was stopped or killed at.

Usage: check_run_folder.py RUN_DIR
Every file with a final name must be complete (an index may lag one frame behind another, the frame that was
being written): fields.h5 and every frame it links to open and read in full;
fields.xdmf and fields.pvd parse and name only existing, complete files; each .vti ends with its closing tag;
forces.csv holds only complete lines; checkpoint.h5 (if present) reads in full and counts only frames that exist.
Prints a one-line summary; exits non-zero with the reason on any problem. Unfinished *.tmp files are allowed.
"""
import csv
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

run = sys.argv[1]


def fail(msg):
    print("INCONSISTENT:", msg)
    sys.exit(1)


frames = 0
if os.path.exists(f"{run}/fields.h5"):
    with h5py.File(f"{run}/fields.h5", "r") as f:
        names = sorted(f.keys())
        if names != [f"frame_{i:06d}" for i in range(len(names))]:
            fail(f"fields.h5 frames not dense: {names}")
        for n in names:
            g = f[n]
            for d in g.keys():
                if not np.all(np.isfinite(g[d][...].astype(np.float64))):
                    fail(f"{n}/{d} not finite")
            _ = g.attrs["step"], g.attrs["time"]
        frames = len(names)
    xdmf = ET.parse(f"{run}/fields.xdmf").getroot()
    grids = [g for g in xdmf.iter("Grid") if g.get("GridType") == "Uniform"]
    # The two indexes are replaced one after the other; a kill between them leaves the .xdmf one frame behind.
    if not frames - 1 <= len(grids) <= frames:
        fail(f"fields.xdmf lists {len(grids)} frames, fields.h5 {frames}")
    for item in xdmf.iter("DataItem"):
        if item.get("Format") == "HDF":
            path, ds = item.text.strip().split(":")
            with h5py.File(os.path.join(run, path), "r") as h:
                h[ds][...]

vti = 0
if os.path.exists(f"{run}/fields.pvd"):
    pvd = ET.parse(f"{run}/fields.pvd").getroot()
    for ds in pvd.iter("DataSet"):
        p = os.path.join(run, ds.get("file"))
        with open(p, "rb") as fh:
            data = fh.read()
        if not data.rstrip().endswith(b"</VTKFile>") or b"<AppendedData" not in data:
            fail(f"{p} is not a complete VTK file")
        vti += 1

lines = 0
if os.path.exists(f"{run}/forces.csv"):
    with open(f"{run}/forces.csv", "rb") as fh:
        text = fh.read()
    if text and not text.endswith(b"\n"):
        fail("forces.csv ends in a torn line")
    rows = [r for r in text.decode().splitlines() if not r.startswith("#")]
    header = rows[0].split(",")
    for r in csv.reader(rows[1:]):
        if len(r) != len(header):
            fail(f"forces.csv line with {len(r)} fields: {r}")
        [float(x) for x in r]
    lines = len(rows) - 1

ckpt = None
if os.path.exists(f"{run}/checkpoint.h5"):
    with h5py.File(f"{run}/checkpoint.h5", "r") as c:
        ckpt = int(c.attrs["step"])
        pops = c["populations"][...]
        if not np.all(np.isfinite(pops)):
            fail("checkpoint populations not finite")
        counted = len(c["frame_times"][...])
        if frames and counted > frames:
            fail(f"checkpoint counts {counted} frames, only {frames} exist")
        if vti and counted > vti:
            fail(f"checkpoint counts {counted} frames, only {vti} .vti exist")

print(f"consistent: {frames} hdf5 frames, {vti} vtk frames, {lines} force lines, checkpoint step {ckpt}")
