"""Small real runs shared by the plotting tests (made once per session with the aerolbm binary in $AEROLBM)."""
import os
import subprocess
import sys

import pytest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POST = os.path.join(SRC, "postprocess")
sys.path.insert(0, POST)
CASE = os.path.join(SRC, "cases", "naca0012_re1000_aoa5.yaml")
SMALL = ["--set", "physics.reynolds=200", "--set", "domain.size_chords=[8,4]",
         "--set", "domain.body_position_chords=[2.5,2]", "--set", "geometry.chord_cells=24"]


def aerolbm():
    exe = os.environ.get("AEROLBM")
    if not exe:
        pytest.fail("set AEROLBM to the aerolbm binary")
    return exe


def run_case(path, *extra):
    cmd = [aerolbm(), "run", CASE, "--backend", "cpu", "-o", str(path), *SMALL, *extra]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return str(path)


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory):
    """A 300-step run at 6 degrees with 3 frames."""
    return run_case(tmp_path_factory.mktemp("run") / "a", "--steps", "300", "--set", "output.every=100",
                    "--set", "flow.angle_of_attack_deg=6")


@pytest.fixture(scope="session")
def polar_runs(tmp_path_factory):
    """Three short runs at 0, 4 and 8 degrees in one sweep folder (no fields)."""
    base = tmp_path_factory.mktemp("sweep")
    for a in (0, 4, 8):
        run_case(base / f"aoa{a}", "--steps", "200", "--set", "output.every=0", "--set", f"flow.angle_of_attack_deg={a}")
    return str(base)


def script(name):
    return os.path.join(POST, name)


def run_script(name, *args):
    return subprocess.run([sys.executable, script(name), *map(str, args)], capture_output=True, text=True)
