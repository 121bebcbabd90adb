"""The tiny dataset from the solver itself (`aerolbm sweep tiny_sweep.yaml`), made once per session."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
SURR = os.path.join(SRC, "postprocess", "surrogate")
sys.path.insert(0, SURR)


def aerolbm_with_sweep():
    """Path of the aerolbm binary ($AEROLBM, else build*/aerolbm) when it has the `sweep` subcommand, else a
    reason to skip."""
    exe = os.environ.get("AEROLBM")
    if not exe:
        for b in ("build-h", "build", "build-g"):
            cand = os.path.join(SRC, b, "aerolbm")
            if os.access(cand, os.X_OK):
                exe = cand
                break
    if not exe or not os.access(exe, os.X_OK):
        return None, "no aerolbm binary (set AEROLBM or build into build/)"
    # CLI11 answers `aerolbm sweep --help` with the top-level help (exit 0) when `sweep` is unknown: look for the
    # subcommand's own usage line instead.
    r = subprocess.run([exe, "sweep", "--help"], capture_output=True, text=True)
    if r.returncode != 0 or not re.search(r"^Usage:.*\bsweep\b", r.stdout, re.M):
        return None, f"{exe} has no 'sweep' subcommand yet (`aerolbm sweep --help` shows no sweep usage)"
    return exe, r.stdout


@pytest.fixture(scope="session")
def tiny_dataset(tmp_path_factory):
    exe, info = aerolbm_with_sweep()
    if exe is None:
        pytest.skip(info)
    out = str(tmp_path_factory.mktemp("sweep") / "tiny_dataset.h5")
    cmd = [exe, "sweep", os.path.join(HERE, "tiny_sweep.yaml"), "--out", out]
    if "--backend" in info:
        cmd += ["--backend", "cpu"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, " ".join(cmd) + "\n" + r.stdout + r.stderr
    return out
