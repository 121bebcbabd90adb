"""postprocess/recirculation_length.py on mean-field files with a known bubble: the zero crossing found between
cells, the span average taken, the centre line interpolated, no bubble reported as such (exit 1)."""
import json
import os

import h5py
import numpy as np

from conftest import run_script


def write_mean(run, ux_of_x, nz=4, wobble=0.0):
    """A mean frame on x in [-2, 10) D, y in [-3, 3) D with spacing 1/16 D, ū(x, y, z) = ux_of_x(x) + wobble(z)."""
    d = 1.0 / 16
    x = -2 + d * np.arange(192)
    y = -3 + d / 2 + d * np.arange(96)  # y = 0 between two rows
    u = np.zeros((nz, y.size, x.size, 3), dtype=np.float32)
    for k in range(nz):
        u[k, :, :, 0] = ux_of_x(x)[None, :] + wobble * (1 if k % 2 else -1)
    os.makedirs(os.path.join(run, "mean", "fields"))
    with h5py.File(os.path.join(run, "mean", "fields", "frame_000000.h5"), "w") as f:
        f["velocity"] = u
        f.attrs["origin"] = np.array([x[0], y[0], 0.0])
        f.attrs["spacing"] = np.array([d, d, d])


def test_crossing_between_cells(tmp_path):
    # Backflow from the rear surface to x = 0.5 + 1.37 D, then recovery: L_r = 1.37 D.
    write_mean(str(tmp_path), lambda x: np.where(x > 0.5, np.tanh((x - 1.87) * 2.0), 0.0), wobble=0.3)
    r = run_script("recirculation_length.py", tmp_path, "--json", tmp_path / "lr.json")
    assert r.returncode == 0, r.stderr
    out = json.load(open(tmp_path / "lr.json"))
    assert abs(out["recirculation_length_d"] - 1.37) < 2e-3  # linear interpolation of a tanh over 1/16 D
    assert out["min_mean_u"] < -0.9 and 0.5 < out["min_mean_u_at_x_d"] < 0.6


def test_no_bubble(tmp_path):
    write_mean(str(tmp_path), lambda x: 0.5 + 0 * x)
    r = run_script("recirculation_length.py", tmp_path)
    assert r.returncode == 1 and "no closed recirculation bubble" in r.stdout
