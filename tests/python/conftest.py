"""Shared set-up of the Python module's tests: the repository root, the aerolbm binary (AEROLBM, for the
command-line comparisons), the examples on sys.path, and a small case."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
DEFAULT_CASE = os.path.join(ROOT, "cases", "naca0012_re1000_aoa5.yaml")
# The default case, coarsened as the command-line tests run it (tests/cli/run_outputs.sh).
SMALL = {"geometry.chord_cells": 32, "output.every": 0}


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def aerolbm_bin():
    path = os.environ.get("AEROLBM")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("AEROLBM is not set to the aerolbm binary (ctest sets it)")
    return path


def cli(binary, *args, cwd=None):
    """Runs the aerolbm binary; returns (exit status, stdout, stderr)."""
    p = subprocess.run([binary, *args], capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def sets(overrides):
    out = []
    for k, v in overrides.items():
        out += ["--set", f"{k}={v}"]
    return out
