"""Reading an aerolbm run folder (summary.json, forces.csv, fields.h5) for the plotting scripts.

The layout is the contract in docs/run_folder.md and src/io/hdf5_writer.cpp: fields.h5 holds one group
per frame (frame_000000, ...) with velocity (nz, ny, nx, 3), pressure (Cp), vorticity, mask (1 = solid) and the
root attributes nx, ny, nz, origin, spacing (x y z, reference lengths, body pivot at 0), angle_of_attack_deg.
"""
import json
import os
import sys

import numpy as np


class RunError(Exception):
    """A run folder that cannot be read; the message says which file and what to do."""


def fail(msg):
    """Print a message for people and exit with status 2 (bad input), as the C++ tools do."""
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


def read_summary(run):
    path = os.path.join(run, "summary.json")
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        raise RunError(f"{path}: missing (the run did not finish, or {run} is not a run folder)")
    except json.JSONDecodeError as e:
        raise RunError(f"{path}: not valid JSON ({e}); rerun the case")


def read_forces(run):
    """forces.csv as a dict of numpy columns (step, time, Cd, Cl, ...) plus 'header' (the '# key: value' lines)."""
    path = os.path.join(run, "forces.csv")
    header, rows, names = {}, [], None
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("#"):
                    key, _, value = line[1:].partition(":")
                    header[key.strip()] = value.strip()
                elif names is None:
                    names = line.strip().split(",")
                elif line.strip():
                    rows.append(line)
    except FileNotFoundError:
        raise RunError(f"{path}: missing; is {run} a run folder written by aerolbm run?")
    if names is None or "time" not in names or "Cd" not in names:
        raise RunError(f"{path}: no column line with time and Cd (empty or truncated file)")
    try:
        data = np.array([[float(v) for v in r.split(",")] for r in rows], dtype=float)
    except ValueError as e:
        raise RunError(f"{path}: a data line is not numbers ({e}); the file is truncated or damaged")
    data = data.reshape(-1, len(names))
    out = {n: data[:, k] for k, n in enumerate(names)}
    out["header"] = header
    return out


class Fields:
    """fields.h5 of a run: grid, coordinates and the frames."""

    def __init__(self, run):
        import h5py

        self.path = os.path.join(run, "fields.h5")
        if not os.path.exists(self.path):
            raise RunError(f"{self.path}: missing (the run wrote no HDF5 fields: output.every 0 or no hdf5 format)")
        try:
            self.file = h5py.File(self.path, "r")
        except OSError as e:
            raise RunError(f"{self.path}: not a readable HDF5 file ({e}); rerun the case")
        a = self.file.attrs
        self.nx, self.ny, self.nz = int(a["nx"]), int(a["ny"]), int(a["nz"])
        self.origin = np.asarray(a["origin"], dtype=float)
        self.spacing = np.asarray(a["spacing"], dtype=float)
        self.angle_deg = float(a.get("angle_of_attack_deg", 0.0))
        self.frames = sorted((g for g in self.file if g.startswith("frame_")), key=lambda g: int(g[6:]))
        if not self.frames:
            raise RunError(f"{self.path}: holds no frames")

    def x(self):
        return self.origin[0] + self.spacing[0] * np.arange(self.nx)

    def y(self):
        return self.origin[1] + self.spacing[1] * np.arange(self.ny)

    def frame(self, index=-1):
        """Group of frame `index` (python indexing over the sorted frames: -1 is the last)."""
        try:
            return self.file[self.frames[index]]
        except IndexError:
            raise RunError(f"{self.path}: no frame {index} (it holds {len(self.frames)})")

    def slice2d(self, group, name):
        """The z = middle slice of a dataset as (ny, nx[, 3]) float array."""
        if name not in group:
            raise RunError(f"{self.path}: frame {group.name} has no '{name}' (add it to output.fields)")
        return np.asarray(group[name][self.nz // 2], dtype=float)

    def extent(self):
        """imshow extent: cell faces, half a spacing outside the first and last cell centres."""
        h = self.spacing
        return [self.origin[0] - h[0] / 2, self.origin[0] + (self.nx - 0.5) * h[0],
                self.origin[1] - h[1] / 2, self.origin[1] + (self.ny - 0.5) * h[1]]


def save(fig, out_dir, name, svg):
    """Writes name.png (and name.svg) into out_dir; returns the paths written."""
    os.makedirs(out_dir, exist_ok=True)
    paths = [os.path.join(out_dir, name + ".png")]
    fig.savefig(paths[0], dpi=110, bbox_inches="tight")
    if svg:
        paths.append(os.path.join(out_dir, name + ".svg"))
        fig.savefig(paths[1], bbox_inches="tight")
    for p in paths:
        print(f"wrote {p}")
    return paths


def default_output(runs, given):
    return given if given else os.path.join(runs[0], "plots")


def common_args(parser):
    """--output and --svg, shared by every script."""
    parser.add_argument("--output", "-o", help="folder for the images (default: RUN/plots)")
    parser.add_argument("--svg", action="store_true", help="also write SVG next to each PNG")
    return parser


def matplotlib_pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt

    return plt
