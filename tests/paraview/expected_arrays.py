"""/usr/bin/python3 side of the ParaView test: what pvpython should find in a run folder, from fields.h5 (h5py):
frame times, grid dimensions, origin, and per point array of the last frame the range of each component."""
import json
import sys

import h5py
import numpy as np

run, out = sys.argv[1:3]
f = h5py.File(f"{run}/fields.h5", "r")
frames = sorted((g for g in f if g.startswith("frame_")), key=lambda g: int(g[6:]))
last = f[frames[-1]]
arrays = {}
for name, d in last.items():
    a = np.asarray(d, dtype=float)
    a = a.reshape(-1, a.shape[-1]) if a.ndim == 4 else a.reshape(-1, 1)
    arrays[name] = [[float(a[:, c].min()), float(a[:, c].max())] for c in range(a.shape[1])]
json.dump({"times": [float(f[g].attrs["time"]) for g in frames],
           "dims": [int(f.attrs["nx"]), int(f.attrs["ny"]), int(f.attrs["nz"])],
           "origin": [float(v) for v in f.attrs["origin"]],
           "arrays": arrays}, open(out, "w"), indent=1)
