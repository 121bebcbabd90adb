"""The module runs the command line's code paths: the same numbers, bit for bit, and the same run folder."""
import csv
import json
import os

import numpy as np
import pytest

import aerolbm
from conftest import DEFAULT_CASE, SMALL, cli, sets

h5py = pytest.importorskip("h5py")
STEPS = 300
OVER = dict(SMALL, **{"forces.every": 10, "checkpoint.every": STEPS, "flow.angle_of_attack_deg": 8})


def forces_rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, aerolbm_bin):
    out = tmp_path_factory.mktemp("cli") / "run"
    rc, _, err = cli(aerolbm_bin, "run", DEFAULT_CASE, "--backend", "cpu", "--threads", "2", "--steps", str(STEPS),
                     "-o", str(out), *sets(OVER))
    assert rc == 0, err
    return out


def test_step_gives_the_cli_forces_and_state_bit_for_bit(cli_run):
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=OVER), backend="cpu", threads=2, steps=STEPS)
    assert sim.step(120) == 120 and sim.step(STEPS - 120) == STEPS - 120  # in two calls: the same samples
    h = sim.force_history()
    with h5py.File(cli_run / "checkpoint.h5", "r") as f:
        assert np.array_equal(h["step"], f["force_steps"][:])
        assert np.array_equal(h["cd"], f["cd"][:]) and np.array_equal(h["cl"], f["cl"][:])
        assert np.array_equal(sim.populations().ravel(), f["populations"][:].astype(np.float64))
    rows = forces_rows(cli_run / "forces.csv")
    assert len(rows) == len(h["step"]) == STEPS // 10
    for r, step, cd, cl in zip(rows, h["step"], h["cd"], h["cl"]):
        assert int(r["step"]) == step and r["Cd"] == f"{cd:.9g}" and r["Cl"] == f"{cl:.9g}"
    now = sim.forces()
    assert now["step"] == STEPS and now["cd"] == h["cd"][-1] and now["cl"] == h["cl"][-1]


def test_run_writes_the_cli_run_folder(cli_run, tmp_path):
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=OVER), backend="cpu", threads=2, steps=STEPS)
    r = sim.run(tmp_path / "py")
    assert r["status"] == "complete" and r["steps"] == STEPS and r["checkpoint_step"] == STEPS
    py = tmp_path / "py"
    assert (py / "forces.csv").read_bytes() == (cli_run / "forces.csv").read_bytes()
    assert (py / "case.yaml").read_text() == (cli_run / "case.yaml").read_text()
    a, b = json.loads((py / "summary.json").read_text()), json.loads((cli_run / "summary.json").read_text())
    assert a["coefficients"] == b["coefficients"] and a["grid"] == b["grid"] and a["steps"] == b["steps"]
    assert r["cd_mean"] == a["coefficients"]["cd_mean"]
    with h5py.File(py / "checkpoint.h5", "r") as f, h5py.File(cli_run / "checkpoint.h5", "r") as g:
        assert np.array_equal(f["populations"][:], g["populations"][:])
    # The state after run() is the run's last state: its fields are the ones a frame holds.
    u = sim.fields(["velocity", "pressure", "mask"])
    assert u["velocity"].shape == (160, 320, 3) and u["mask"].dtype == np.uint8
    assert u["mask"].sum() > 0 and np.all(u["velocity"][u["mask"] == 1] == 0)


def test_frames_match_the_fields(tmp_path):
    over = dict(OVER, **{"output.every": 100, "output.fields": ["velocity", "pressure", "density", "mask"],
                         "output.formats": ["hdf5"], "checkpoint.every": 0})
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=over), backend="cpu", threads=2, steps=STEPS)
    sim.run(tmp_path / "run")
    f = sim.fields()  # the case's output.fields
    assert sorted(f) == ["density", "mask", "pressure", "velocity"]
    with h5py.File(tmp_path / "run" / "fields.h5", "r") as h:
        last = h[sorted(k for k in h.keys() if k.startswith("frame_"))[-1]]
        for name in ("velocity", "pressure", "density", "mask"):
            assert np.array_equal(np.asarray(last[name]).reshape(f[name].shape), f[name]), name


def test_run_folder_rules(tmp_path):
    case = aerolbm.load_case(DEFAULT_CASE, set=dict(SMALL, **{"checkpoint.every": 0}))
    out = tmp_path / "run"
    aerolbm.Simulation(case, backend="cpu", steps=20).run(out)
    with pytest.raises(aerolbm.InputError, match="already holds a run .*--overwrite"):
        aerolbm.Simulation(case, backend="cpu", steps=20).run(out)
    assert aerolbm.Simulation(case, backend="cpu", steps=20).run(out, overwrite=True)["status"] == "complete"
    sim = aerolbm.Simulation(case, backend="cpu", steps=20)
    sim.step(10)
    with pytest.raises(RuntimeError, match="advanced to step 10"):
        sim.run(tmp_path / "other")
    assert not (tmp_path / "other").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(aerolbm.InputError, match="exists and is not a directory"):
        aerolbm.Simulation(case, backend="cpu", steps=20).run(tmp_path / "file")
