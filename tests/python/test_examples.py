"""The examples in examples/python run on the CPU (the GPU host runs them on CUDA: scripts/python_gpu_session.sh)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run(script, *args, timeout=240):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), OMP_NUM_THREADS="2")
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_compare_steps_on_the_cpu(tmp_path):
    p = run("compare_steps.py", "--device", "cpu", "--sizes", "64,96", "--impls", "numpy,torch,torch_compile,aerolbm",
            "--check-steps", "40", "--target-ms", "20", "--repeats", "3", "--threads", "2",
            "--markdown", str(tmp_path / "t.md"), "--json", str(tmp_path / "t.json"))
    assert p.returncode == 0, p.stdout + p.stderr
    rows = json.loads((tmp_path / "t.json").read_text())["rows"]
    timed = {(r["impl"], r["n"]): r for r in rows if "mlups" in r}
    for impl in ("numpy", "aerolbm"):
        for n in (64, 96):
            assert timed[(impl, n)]["mlups"] > 0
    assert timed[("numpy", 64)]["check_rel_diff"] < 2e-5
    table = (tmp_path / "t.md").read_text()
    assert "| NumPy | 64² |" in table and "| aerolbm (module) | 96² |" in table and "reference" in table


def test_training_on_streamed_fields():
    pytest.importorskip("torch")
    p = run("train_on_stream.py", "--backend", "cpu", "--threads", "2", "--iterations", "60", "--check")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "loss / persistence" in p.stdout
