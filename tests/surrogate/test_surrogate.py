"""Surrogate training side: numpy forward (the executable spec of model.h5) against PyTorch, model-file and
input checks, the sweep-file case list, and train -> evaluate -> export end to end on the solver's own tiny
dataset (`aerolbm sweep tiny_sweep.yaml`; skipped with the reason where the binary has no `sweep`)."""
import csv
import json
import os
import shutil
import subprocess
import sys
import time

import h5py
import numpy as np
import pytest
import torch

from conftest import HERE, SURR

import data  # noqa: E402
import export  # noqa: E402
import numpy_forward  # noqa: E402
import sweep_spec  # noqa: E402
from model import HAS_SDPA, Surrogate  # noqa: E402

PY = sys.executable


def script(name, *args, timeout=300):
    r = subprocess.run([PY, os.path.join(SURR, name), *args], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def random_model(seed=0, d=32, heads=4, layers=2, mlp=2, pool_heads=3):
    """A small network with every parameter random (LayerNorm gammas/betas too, so ordering mistakes show)."""
    torch.manual_seed(seed)
    m = Surrogate(d, heads, layers, mlp, pool_heads)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn_like(p) * (0.3 if p.dim() > 1 else 0.2))
    return m.eval()


def random_norm(rng):
    return {"point_mean": rng.normal(size=4).astype(np.float32),
            "point_std": rng.uniform(0.5, 2, 4).astype(np.float32),
            "param_mean": rng.normal(size=5).astype(np.float32),
            "param_std": rng.uniform(0.5, 2, 5).astype(np.float32),
            "out_mean": rng.normal(size=3).astype(np.float32),
            "out_std": rng.uniform(0.5, 2, 3).astype(np.float32),
            "coef_mean": np.array([0.3, 0.15], np.float32),
            "coef_std": rng.uniform(0.05, 0.5, 2).astype(np.float32)}


def write_random_model_file(path, tokens_x=23, tokens_y=13, seed=0):
    """model.h5 (version 2) of a random network; reference outputs from PyTorch fp32 (explicit attention)."""
    rng = np.random.default_rng(seed)
    model = random_model(seed)
    cfg = {"d_model": 32, "heads": 4, "layers": 2, "mlp_ratio": 2, "coef_pool_heads": 3}
    norm = random_norm(rng)
    grid = {"nx": tokens_x, "ny": tokens_y, "x0": -1.0, "x1": 3.0, "y0": -1.0, "y1": 1.0}
    t = tokens_x * tokens_y
    pts = rng.normal(size=(t, 4)).astype(np.float32)
    prm = np.array([0.02, 0.4, 0.12, 5.0, 500.0], np.float32)
    p = torch.from_numpy(((pts - norm["point_mean"]) / norm["point_std"]).astype(np.float32))[None]
    c = data.param_features(prm.astype(np.float64))
    c = torch.from_numpy(((c - norm["param_mean"]) / norm["param_std"]).astype(np.float32))[None]
    with torch.no_grad():
        y, k = model(p, c, use_sdpa=False)
    y = y[0].numpy() * norm["out_std"] + norm["out_mean"]
    k = k[0].numpy() * norm["coef_std"] + norm["coef_mean"]
    export.write_model_h5(path, model, cfg, norm, grid, pts, prm, y, k)
    return model, p, c


def test_splitmix64_check_values():
    """The generator of SCHEMA.md (sweep.yaml), with the check values printed there."""
    r = sweep_spec.SplitMix64(1)
    assert [r.next() for _ in range(3)] == [0x910a2dec89025cc1, 0xbeeb8da1658eec67, 0xf893a2eefb32555e]
    r = sweep_spec.SplitMix64(1)
    assert r.u() == 0.5665615751722809 and r.u() == 0.7457817572627011


def test_sweep_spec_committed_sweep():
    """The committed sweep expands to 320 + 40 cases with a 15 % test split, codes within the NACA 4-digit ranges
    and the extrapolation cases (only they) at 10-13 degrees."""
    params, split = sweep_spec.expand(sweep_spec.load(os.path.join(SURR, "sweep.yaml")))
    assert params.shape == (360, 5)
    assert (split == 0).sum() == 272 and (split == 1).sum() == 48 and (split == 2).sum() == 40
    main, ext = params[split != 2], params[split == 2]
    assert main[:, 3].min() >= -4 and main[:, 3].max() < 10 and ext[:, 3].min() >= 10 and ext[:, 3].max() < 13
    assert np.all((params[:, 0] == 0) == (params[:, 1] == 0))
    assert 200 <= params[:, 4].min() and params[:, 4].max() <= 1000
    assert len({sweep_spec.naca_code(*r[:3]) for r in params}) > 50


def test_numpy_forward_matches_pytorch(tmp_path):
    """The torch-free forward of numpy_forward.py reproduces PyTorch's fp32 output from the file alone, fields and
    coefficient head, on a token count that is a multiple of nothing (299)."""
    path = str(tmp_path / "m.h5")
    write_random_model_file(path)
    m = numpy_forward.load(path)
    assert m["attrs"]["version"] == 2 and m["attrs"]["pool_heads"] == 3
    fields, coef = numpy_forward.forward(m, m["reference"]["points"], m["reference"]["params"])
    assert numpy_forward.relative_error(fields, m["reference"]["output"]) < 1e-5
    assert numpy_forward.coefficient_error(coef, m["reference"]["coefficients"]) < 1e-5, \
        (coef, m["reference"]["coefficients"])
    # the head's output is not the normalisation's mean alone: the network moves it
    assert np.all(np.abs(coef - m["norm"]["coef_mean"]) > 1e-3 * m["norm"]["coef_std"]), coef
    assert numpy_forward.check(path) < 1e-5
    rc, out = script("numpy_forward.py", path)
    assert rc == 0 and "relative error" in out


@pytest.mark.parametrize("name", ["weights/blocks.1.q.W", "weights/coef.score.W", "weights/coef.mlp.0.W"])
def test_numpy_forward_detects_a_wrong_weight(tmp_path, name):
    """The check can fail: a wrong encoder weight moves both outputs, a wrong pooling score or head weight moves the
    coefficients (the pooling order of concat(pooled, g) is fixed by coef.mlp.0.W's columns)."""
    path = str(tmp_path / "m.h5")
    write_random_model_file(path)
    with h5py.File(path, "r+") as f:
        w = f[name][()]
        f[name][...] = w.T if w.shape[0] == w.shape[1] else w[::-1]
    assert numpy_forward.check(path) > 1e-4  # 10x the 1e-5 tolerance


def strip_to_version_1(path):
    """A version-2 file made into the version-1 layout (no coefficient head), as export.py wrote before."""
    with h5py.File(path, "r+") as f:
        f.attrs["version"] = np.int64(1)
        del f.attrs["coefficients"], f.attrs["pool_heads"]
        for k in [k for k in f["weights"] if k.startswith("coef.")]:
            del f["weights"][k]
        for k in ("norm/coef_mean", "norm/coef_std", "reference/coefficients"):
            del f[k]


def test_numpy_forward_reads_version_1(tmp_path):
    """A version-1 file (fields only) still loads and reproduces its fields; it has no coefficients. The committed
    model (postprocess/surrogate/model.h5) is such a file until it is retrained."""
    path = str(tmp_path / "m.h5")
    write_random_model_file(path)
    strip_to_version_1(path)
    m = numpy_forward.load(path)
    assert m["attrs"]["version"] == 1 and "coefficients" not in m["reference"]
    fields, coef = numpy_forward.forward(m, m["reference"]["points"], m["reference"]["params"])
    assert coef is None
    assert numpy_forward.relative_error(fields, m["reference"]["output"]) < 1e-5
    assert numpy_forward.check(path) < 1e-5


@pytest.mark.skipif(not HAS_SDPA, reason="F.scaled_dot_product_attention needs PyTorch 2")
def test_sdpa_matches_explicit_attention():
    model, p, c = random_model(3), None, None
    torch.manual_seed(1)
    p, c = torch.randn(2, 300, 4), torch.randn(2, 5)
    with torch.no_grad():
        (a, ka), (b, kb) = model(p, c, use_sdpa=True), model(p, c, use_sdpa=False)
    assert float((a - b).norm() / b.norm()) < 1e-5
    assert float((ka - kb).norm() / kb.norm()) < 1e-5


@pytest.mark.parametrize("damage, words", [
    ("delete:weights/blocks.1.mlp.0.W", ["weights/blocks.1.mlp.0.W", "missing"]),
    ("delete:reference/output", ["reference/output", "missing"]),
    ("reshape:norm/out_std", ["norm/out_std", "shape"]),
    ("reshape:weights/head.W", ["weights/head.W", "shape", "(3, 32)"]),
    ("reshape:weights/coef.mlp.0.W", ["weights/coef.mlp.0.W", "shape", "(32, 128)"]),
    ("reshape:norm/coef_std", ["norm/coef_std", "shape", "(2,)"]),
    ("delete:weights/coef.score.b", ["weights/coef.score.b", "missing"]),
    ("delete:reference/coefficients", ["reference/coefficients", "missing"]),
    ("delattr:pool_heads", ["pool_heads", "missing"]),
    ("attr:version=3", ["version", "3", "1 and 2"]),
    ("attr:format=something-else", ["format", "aerolbm-surrogate"]),
    ("attr:heads=5", ["d_model", "heads"]),
    ("delattr:layers", ["layers", "missing"]),
])
def test_bad_model_file_named(tmp_path, damage, words):
    path = str(tmp_path / "m.h5")
    write_random_model_file(path)
    kind, what = damage.split(":", 1)
    with h5py.File(path, "r+") as f:
        if kind == "delete":
            del f[what]
        elif kind == "reshape":
            v = f[what][()]
            del f[what]
            f.create_dataset(what, data=np.zeros((v.shape[0] + 1,) + v.shape[1:], v.dtype))
        elif kind == "attr":
            k, v = what.split("=")
            f.attrs[k] = np.int64(v) if v.isdigit() else v
        else:
            del f.attrs[what]
    with pytest.raises(numpy_forward.ModelFileError) as e:
        numpy_forward.load(path)
    for w in words:
        assert w in str(e.value), str(e.value)
    rc, out = script("numpy_forward.py", path)
    assert rc == 2 and words[0] in out


def test_not_hdf5_model_file(tmp_path):
    path = tmp_path / "m.h5"
    path.write_text("not a model\n")
    with pytest.raises(numpy_forward.ModelFileError, match="cannot open as HDF5"):
        numpy_forward.load(str(path))


def write_minimal_dataset(path, n=3, nx=8, ny=4, drop=None):
    """A structurally valid dataset.h5 (for input-error checks only; nothing here is trained on)."""
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "aerolbm-dataset"
        f.attrs["version"] = 1
        f.attrs["nx"], f.attrs["ny"] = nx, ny
        f.attrs["x0"], f.attrs["x1"], f.attrs["y0"], f.attrs["y1"] = -1.0, 3.0, -1.0, 1.0
        f["params"] = np.tile([0.02, 0.4, 0.12, 4.0, 500.0], (n, 1))
        f["split"] = np.zeros(n, np.int8)
        for k in ("u", "v", "p", "sdf"):
            f["fields/" + k] = np.ones((n, ny, nx), np.float32)
        f["fields/mask"] = np.zeros((n, ny, nx), np.uint8)
        for k in ("x", "y", "cp"):
            f["surface/" + k] = np.zeros((n, 10), np.float32)
        f["coefficients/cl"] = np.zeros(n)
        f["coefficients/cd"] = np.zeros(n)
        if drop:
            del f[drop]


def test_train_rejects_bad_inputs(tmp_path):
    ds = str(tmp_path / "ds.h5")
    write_minimal_dataset(ds, drop="fields/p")
    cfg = os.path.join(HERE, "tiny_config.json")
    rc, out = script("train.py", "--config", cfg, "--dataset", ds, "--out", str(tmp_path / "o"))
    assert rc == 2 and "fields/p" in out and "missing" in out, out
    write_minimal_dataset(ds)
    bad = tmp_path / "c.json"
    c = json.load(open(cfg))
    del c["heads"]
    bad.write_text(json.dumps(c))
    rc, out = script("train.py", "--config", str(bad), "--dataset", ds, "--out", str(tmp_path / "o"))
    assert rc == 2 and "heads" in out, out
    c["heads"] = 3
    bad.write_text(json.dumps(c))
    rc, out = script("train.py", "--config", str(bad), "--dataset", ds, "--out", str(tmp_path / "o"))
    assert rc == 2 and "multiple of heads" in out, out
    c["heads"], c["coef_loss_weight"] = 2, -1.0
    bad.write_text(json.dumps(c))
    rc, out = script("train.py", "--config", str(bad), "--dataset", ds, "--out", str(tmp_path / "o"))
    assert rc == 2 and "coef_loss_weight" in out, out
    assert not os.path.exists(tmp_path / "o" / "model.pt")


# ---- end to end on the solver's own tiny dataset ----------------------------------------------------------------

def test_dataset_matches_sweep_spec(tiny_dataset):
    """`aerolbm sweep` ran exactly the cases SCHEMA.md's sweep section defines, and wrote the documented file."""
    ds = data.Dataset(tiny_dataset)
    params, split = sweep_spec.expand(sweep_spec.load(os.path.join(HERE, "tiny_sweep.yaml")))
    assert ds.n == len(params)
    np.testing.assert_allclose(ds.params, params, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ds.split, split)
    assert (ds.nx, ds.ny, ds.x0, ds.x1, ds.y0, ds.y1) == (64, 32, -1.0, 3.0, -1.0, 1.0)
    assert ds.surf_x.shape == (ds.n, 64)
    # the mask and the signed distance agree, and solid points carry no velocity
    assert np.all((ds.sdf < 0) == (ds.mask == 1))
    assert np.all(ds.u[ds.mask == 1] == 0) and np.all(ds.v[ds.mask == 1] == 0)
    assert np.all(np.isfinite(ds.u)) and np.all(np.isfinite(ds.p))
    # the pitching moment beside C_L, C_D: the head's third target
    assert ds.cm is not None and ds.coefficient_count == 3 and np.all(np.isfinite(ds.cm)), ds.cm


def test_train_evaluate_export(tiny_dataset, tmp_path):
    """Train on the tiny sweep on the CPU (about two minutes on two cores; the time is printed, not asserted:
    speed belongs to benchmarks), beat the constant-field predictor on the test split, evaluate, export, and
    reproduce the exported reference with the numpy forward to 1e-5."""
    run = str(tmp_path / "run")
    t0 = time.perf_counter()
    rc, out = script("train.py", "--config", os.path.join(HERE, "tiny_config.json"), "--dataset", tiny_dataset,
                     "--out", run, "--device", "cpu")
    seconds = time.perf_counter() - t0
    assert rc == 0, out
    print(f"training took {seconds:.1f} s")
    with open(os.path.join(run, "train_log.csv")) as f:
        rows = list(csv.DictReader(f))
    first, last = float(rows[0]["train_loss"]), float(rows[-1]["train_loss"])
    assert last < 0.7 * first, (first, last)
    first, last = float(rows[0]["train_coef_loss"]), float(rows[-1]["train_coef_loss"])
    print(f"coefficient loss {first:.4f} -> {last:.4f}")
    assert last < 0.5 * first, (first, last)

    rc, out = script("evaluate.py", "--model", os.path.join(run, "model.pt"), "--dataset", tiny_dataset,
                     "--out", run, "--device", "cpu")
    assert rc == 0, out
    m = json.load(open(os.path.join(run, "metrics.json")))
    assert set(m["splits"]) == {"test", "extrapolation"}
    test = m["splits"]["test"]
    # the constant predictor (training mean of u, v, p) as the bar to clear
    ds = data.Dataset(tiny_dataset)
    tr, te = ds.indices("train"), ds.indices("test")
    fl = ds.fluid(tr)
    mean = ds.targets(tr)[fl].mean(0)
    tgt, flt = ds.targets(te), ds.fluid(te)
    const_vel = np.mean([np.linalg.norm(tgt[n, flt[n], :2] - mean[:2]) / np.linalg.norm(tgt[n, flt[n], :2])
                         for n in range(len(te))])
    assert test["velocity_rel_l2_mean"] < const_vel, (test["velocity_rel_l2_mean"], const_vel)
    assert os.path.exists(os.path.join(run, "metrics.md"))
    # the Cl method of SCHEMA.md on the solver's sampled fields follows the solver's Cl (frames, orientation)
    cases = m["cases"]["test"] + m["cases"]["extrapolation"]
    from evaluate import spearman
    assert spearman([c["cl_fields"] for c in cases], [c["cl_solver"] for c in cases]) > 0.8
    # the coefficient head's metrics are there and consistent with the per-case values
    cl_head = np.array([c["cl_head"] for c in m["cases"]["test"]])
    cl_ref = np.array([c["cl_solver"] for c in m["cases"]["test"]])
    assert np.isclose(test["head_cl_rel_error_vs_solver"], np.abs(cl_head - cl_ref).mean() / np.abs(cl_ref).mean())
    for k in ("head_cl_spearman_vs_solver", "head_cd_rel_error_vs_solver", "head_cd_spearman_vs_solver"):
        assert np.isfinite(test[k]), (k, test[k])
    print("head on the tiny test split: Cl rel. error {:.3f}, Cd rel. error {:.3f}".format(
        test["head_cl_rel_error_vs_solver"], test["head_cd_rel_error_vs_solver"]))
    # the head learnt the solver's Cl from 9 cases better than their mean Cl does on the test split
    const_cl = np.abs(ds.cl[tr].mean() - cl_ref).mean() / np.abs(cl_ref).mean()
    assert test["head_cl_rel_error_vs_solver"] < const_cl, (test["head_cl_rel_error_vs_solver"], const_cl)
    assert "Coefficient head" in open(os.path.join(run, "metrics.md")).read()

    model_h5 = str(tmp_path / "model.h5")
    rc, out = script("export.py", "--model", os.path.join(run, "model.pt"), "--dataset", tiny_dataset,
                     "--out", model_h5)
    assert rc == 0, out
    mf = numpy_forward.load(model_h5)
    assert (mf["attrs"]["nx"], mf["attrs"]["ny"]) == (64, 32)
    k = int(te[0])
    np.testing.assert_array_equal(mf["reference"]["points"], ds.points([k])[0])
    assert mf["attrs"]["version"] == 2
    out, coef = numpy_forward.forward(mf, mf["reference"]["points"], mf["reference"]["params"])
    assert numpy_forward.relative_error(out, mf["reference"]["output"]) < 1e-5
    assert numpy_forward.coefficient_error(coef, mf["reference"]["coefficients"]) < 1e-5
    # the exported head is the evaluated one: its reference Cl is metrics.json's for that case
    ev = {c["case"]: c for c in m["cases"]["test"]}[k]
    assert np.isclose(coef[0], ev["cl_head"], rtol=1e-4, atol=1e-5), (coef, ev["cl_head"])
    # the dataset has the pitching moment, so the head predicts it as a third output, evaluated and exported
    assert mf["attrs"]["coefficients"] == 3 and coef.shape == (3,), (mf["attrs"], coef)
    assert np.isclose(coef[2], ev["cm_head"], rtol=1e-4, atol=1e-5), (coef, ev["cm_head"])
    for k in ("head_cm_abs_error_vs_solver", "head_cm_spearman_vs_solver"):
        assert np.isfinite(test[k]), (k, test[k])
    assert "Pitching moment" in open(os.path.join(run, "metrics.md")).read()
    # evaluate.py on the exported model.h5 (what predict runs, and what a fresh set is evaluated with) gives the
    # checkpoint's metrics
    rc, out = script("evaluate.py", "--model", model_h5, "--dataset", tiny_dataset, "--out", str(tmp_path / "h5"),
                     "--device", "cpu")
    assert rc == 0, out
    t5 = json.load(open(tmp_path / "h5" / "metrics.json"))["splits"]["test"]
    for key in ("velocity_rel_l2_mean", "head_cl_rel_error_vs_solver", "head_cd_rel_error_vs_solver",
                "head_cm_abs_error_vs_solver"):
        assert t5[key] == pytest.approx(test[key], rel=1e-4, abs=1e-7), (key, t5[key], test[key])


@pytest.mark.parametrize("reverse", [False, True])
def test_force_method_signs_and_convergence(reverse):
    """coefficients.py on fields whose forces are known: a pressure falling upwards (Cp = −y) lifts the section by
    its area (−∮Cp n ds = −∫∇Cp dA), Cp = −x pushes it downstream by its area. The samples sit up to one grid
    spacing h off the wall, so the error is O(h): below h and halving with h. u = v = 0 adds no shear; a stream
    along the chord line adds positive drag. Either polygon orientation gives the same numbers."""
    from coefficients import Grid, force_coefficients
    from dev_fake_dataset import naca4, place
    from matplotlib.path import Path
    cx, cy = place(*naca4(0.02, 0.4, 0.15, 100), 6.0)
    if reverse:
        cx, cy = cx[::-1], cy[::-1]
    area = 0.5 * abs(np.sum(cx * np.roll(cy, -1) - np.roll(cx, -1) * cy))
    errors = []
    for nx in (129, 257):
        ny = (nx + 1) // 2
        grid = Grid(nx, ny, -1.0, 3.0, -1.0, 1.0)
        gx, gy = np.meshgrid(np.linspace(-1, 3, nx), np.linspace(-1, 1, ny))
        pts = np.stack([gx.ravel(), gy.ravel()], 1)
        mask = Path(np.stack([cx, cy], 1)).contains_points(pts).reshape(gx.shape)
        zero = np.zeros_like(gx)
        lift = force_coefficients(zero, zero, -gy, mask, grid, cx, cy, 500.0)
        drag = force_coefficients(zero, zero, -gx, mask, grid, cx, cy, 500.0)
        for e in (lift["cl"] - area, lift["cd"], drag["cd"] - area, drag["cl"]):
            assert abs(e) < grid.h, (nx, e)
        errors.append(abs(lift["cl"] - area))
        a = np.radians(6.0)
        shear = force_coefficients(np.full_like(gx, np.cos(a)), np.full_like(gx, -np.sin(a)), zero, mask, grid,
                                   cx, cy, 500.0)
        assert shear["cd"] > 0 and shear["cd_p"] == 0
    assert 1.6 < errors[0] / errors[1] < 2.5, errors
