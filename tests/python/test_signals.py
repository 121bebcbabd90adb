"""Long calls release the GIL, and Ctrl-C (any Python signal handler) ends a step loop cleanly."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import aerolbm
from conftest import DEFAULT_CASE, ROOT, SMALL

# Re 200: stable however long a fast machine steps in the time these tests allow.
CASE = dict(SMALL, **{"checkpoint.every": 0, "watchdog.every": 20, "physics.reynolds": 200})


class Interrupted(Exception):
    pass


def test_step_releases_the_gil():
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=CASE), backend="cpu", threads=1)
    sim.step(20)
    t0 = time.perf_counter()
    sim.step(100)
    per_step = (time.perf_counter() - t0) / 100
    steps = min(20000, max(100, int(1.0 / per_step)))  # about a second of stepping
    span = {}

    def work():
        span["start"] = time.perf_counter()
        sim.step(steps)
        span["end"] = time.perf_counter()

    t = threading.Thread(target=work)
    stamps = []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    margin = 0.1 * (span["end"] - span["start"])
    inside = [s for s in stamps if span["start"] + margin < s < span["end"] - margin]
    # With the GIL held for the whole call this thread could not run at all in between.
    assert len(inside) > 1000, (len(inside), span)


def test_signal_handler_stops_step_between_chunks():
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=CASE), backend="cpu", threads=1)

    def handler(signum, frame):
        raise Interrupted()

    old = signal.signal(signal.SIGINT, handler)
    try:
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(Interrupted):
            sim.step(10 ** 9)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, old)
    done = sim.steps_done
    assert 0 < done < 10 ** 9 and done % 20 == 0  # stopped at the end of a chunk (watchdog.every = 20)
    assert sim.step(40) == 40 and sim.steps_done == done + 40  # and it steps on from there
    h = sim.force_history()
    assert h["step"][-1] == done + 40 and len(h["step"]) == (done + 40) // 10


def test_ctrl_c_in_a_python_process(tmp_path):
    # A real Ctrl-C (SIGINT with Python's own handler): KeyboardInterrupt out of step() and out of run(); run()
    # writes its checkpoint first, as `aerolbm run` does.
    script = textwrap.dedent(f"""
        import sys, aerolbm
        case = aerolbm.load_case({DEFAULT_CASE!r}, set={CASE!r})
        sim = aerolbm.Simulation(case, backend="cpu", threads=1)
        print("stepping", flush=True)
        try:
            sim.step(10 ** 9)
        except KeyboardInterrupt:
            print("interrupted at", sim.steps_done, flush=True)
        sim.step(20)
        print("continued to", sim.steps_done, flush=True)
        run = aerolbm.Simulation(case, backend="cpu", threads=1, steps=10 ** 7)
        print("running", flush=True)
        try:
            run.run({str(tmp_path / "run")!r})
        except KeyboardInterrupt:
            print("run interrupted", flush=True)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    lines = []
    for want in ("stepping", "running"):
        while True:
            line = p.stdout.readline()
            assert line, (lines, p.stderr.read())
            lines.append(line.strip())
            if line.strip() == want:
                break
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    lines += out.split("\n")
    assert p.returncode == 0, (lines, err)
    stopped = int(next(s for s in lines if s.startswith("interrupted at")).split()[-1])
    assert stopped > 0 and f"continued to {stopped + 20}" in lines
    assert "run interrupted" in lines
    import json
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["status"] == "stopped" and summary["checkpoint_step"] == summary["steps"] > 0
    assert (tmp_path / "run" / "checkpoint.h5").exists()
