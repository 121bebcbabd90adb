"""compare and predict from Python: the command line's functions, results and errors."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import aerolbm
from conftest import DEFAULT_CASE, ROOT, SMALL

h5py = pytest.importorskip("h5py")
CASE = dict(SMALL, **{"output.every": 50, "checkpoint.every": 0, "output.formats": ["hdf5"]})


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("cmp")
    case = aerolbm.load_case(DEFAULT_CASE, set=CASE)
    for name, threads in (("a", 1), ("b", 2)):
        aerolbm.Simulation(case, backend="cpu", threads=threads, steps=100).run(base / name)
    return base


def test_compare_two_runs(two_runs):
    r = aerolbm.compare(two_runs / "a", two_runs / "b", output=two_runs / "report", plots=False)
    assert r["verdict"]["agree"] is True
    assert all(e["rel_l2"] == 0 for fr in r["frames"] for e in fr["fields"].values())  # the same run
    assert (two_runs / "report" / "report.md").exists()
    other = aerolbm.load_case(DEFAULT_CASE, set=dict(CASE, **{"flow.angle_of_attack_deg": 7}))
    aerolbm.Simulation(other, backend="cpu", steps=100).run(two_runs / "c")
    with pytest.raises(aerolbm.RunError, match="exceeds fail_above"):
        aerolbm.compare(two_runs / "a", two_runs / "c", output=two_runs / "report2", plots=False, fail_above=1e-9)
    assert json.loads((two_runs / "report2" / "report.json").read_text())["verdict"]["agree"] is False


def test_compare_bad_input(tmp_path, two_runs):
    with pytest.raises(aerolbm.InputError, match="summary.json"):
        aerolbm.compare(tmp_path, two_runs / "a", output=tmp_path / "r", plots=False)
    assert not (tmp_path / "r").exists()
    if aerolbm.build_info()["cuda_devices"] == 0:
        with pytest.raises(aerolbm.InputError, match="needs a CUDA device"):
            aerolbm.compare(DEFAULT_CASE, output=tmp_path / "r", set=CASE)


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "model.h5"
    rc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "surrogate", "write_random_model.py"),
                         str(path)]).returncode
    if rc == 77:
        pytest.skip("write_random_model.py needs numpy and h5py")
    assert rc == 0
    return path


def test_predict(random_model, tmp_path):
    p = aerolbm.predict(DEFAULT_CASE, random_model, backend="cpu", output=tmp_path / "pred")
    s = json.loads((tmp_path / "pred" / "summary.json").read_text())
    assert s["kind"] == "prediction" and p["backend"] == "cpu"
    assert p["cl"] == s["coefficients"]["cl_mean"] and p["cd"] == s["coefficients"]["cd_mean"]
    assert p["cl_field"] == s["coefficients"]["cl_field"] and p["cd_field"] == s["coefficients"]["cd_field"]
    assert p["coefficients_source"] == s["coefficients"]["source"] == "network"  # write_random_model: version 2
    nx, ny, _ = p["grid"]
    assert p["fields"]["velocity"].shape == (ny, nx, 3) and p["fields"]["mask"].shape == (ny, nx)
    with h5py.File(tmp_path / "pred" / "fields.h5", "r") as f:
        frame = f[sorted(k for k in f.keys() if k.startswith("frame_"))[-1]]
        assert np.array_equal(np.asarray(frame["pressure"]).reshape(ny, nx), p["fields"]["pressure"])
    with pytest.raises(aerolbm.InputError, match="already holds a run"):
        aerolbm.predict(DEFAULT_CASE, random_model, backend="cpu", output=tmp_path / "pred")
    with pytest.raises(aerolbm.InputError, match="not an HDF5 file"):
        (tmp_path / "junk.h5").write_text("junk")
        aerolbm.predict(DEFAULT_CASE, tmp_path / "junk.h5", backend="cpu", output=tmp_path / "p2")


def test_device_fields_need_the_cuda_backend():
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=SMALL), backend="cpu")
    with pytest.raises(aerolbm.InputError, match="device fields need the cuda backend"):
        sim.device_fields()
    with pytest.raises(aerolbm.InputError, match="unknown field 'presure'"):
        sim.fields(["presure"])
