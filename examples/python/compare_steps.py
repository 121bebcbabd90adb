#!/usr/bin/env python3
"""The same D2Q9 BGK step on a periodic box in NumPy, PyTorch (eager and torch.compile), Numba-CUDA, a CuPy
RawKernel, JAX (jit) and aerolbm's own kernel through the module, side by side.

Every version starts from the very state aerolbm holds (a Taylor-Green vortex, float32), is checked against
aerolbm's result after --check-steps steps (the velocity's largest difference over the largest speed, within fp32
round-off), then timed: a warm-up (compilation included), then --repeats timed runs of enough steps to last about
--target-ms each, timed with device events (CUDA events of PyTorch, CuPy, Numba; aerolbm's timed_steps), the
median reported. JAX has no event API: wall clock around block_until_ready. NumPy: wall clock.
MLUPs = cells x steps / time; GB/s counts the least traffic a step can have, every population read once and
written once (2 x 9 x 4 = 72 bytes per cell); % of copy is that over the device-to-device copy bandwidth measured
here (aerolbm.device_copy_bandwidth: 1 GiB cudaMemcpy, read + write; on the CPU host_copy_bandwidth).

    python3 examples/python/compare_steps.py                          # on a GPU: every version, 1024^2 and 4096^2
    python3 examples/python/compare_steps.py --device cpu --sizes 64  # the CPU versions (CI)
Writes a markdown table to stdout (and --markdown FILE, --json FILE). Exit status 1 when a check fails.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm  # noqa: E402
import lbm_common as common  # noqa: E402

BYTES_PER_CELL = 2 * 9 * 4
ALL = ["numpy", "torch", "torch_compile", "numba", "cupy", "jax", "aerolbm"]
GPU_ONLY = {"numba", "cupy"}


class Unavailable(Exception):
    pass


# ---- one adapter per version: prepare(f0, omega) -> state; run(state, steps) -> seconds; result(state) -> numpy --

class NumpyVersion:
    name = "NumPy"

    def __init__(self, device):
        import lbm_numpy
        self.m = lbm_numpy

    def prepare(self, f0, omega):
        self.f, self.omega = f0.copy(), omega

    def run(self, steps):
        t0 = time.perf_counter()
        self.f = self.m.run(self.f, self.omega, steps)
        return time.perf_counter() - t0

    def result(self):
        return self.f


class TorchVersion:
    name = "PyTorch eager"
    compiled = False

    def __init__(self, device):
        try:
            import torch
        except ImportError as e:
            raise Unavailable(f"no torch ({e})")
        import lbm_torch
        self.torch, self.m = torch, lbm_torch
        if device == "cuda" and not torch.cuda.is_available():
            raise Unavailable("torch sees no CUDA device")
        self.dev = torch.device("cuda" if device == "cuda" else "cpu")
        self.fn = lbm_torch.step
        if self.compiled:
            if not hasattr(torch, "compile"):
                raise Unavailable(f"torch {torch.__version__} has no torch.compile")
            self.fn = lbm_torch.compiled_step()

    def prepare(self, f0, omega):
        self.f = self.torch.from_numpy(f0.copy()).to(self.dev)
        self.omega = float(omega)

    def run(self, steps):
        torch = self.torch
        if self.dev.type == "cuda":
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            self.f = self.m.run(self.f, self.omega, steps, self.fn)
            b.record()
            b.synchronize()
            return a.elapsed_time(b) * 1e-3
        t0 = time.perf_counter()
        self.f = self.m.run(self.f, self.omega, steps, self.fn)
        return time.perf_counter() - t0

    def result(self):
        return self.f.cpu().numpy()


class TorchCompileVersion(TorchVersion):
    name = "PyTorch torch.compile"
    compiled = True


class CupyVersion:
    name = "CuPy RawKernel"

    def __init__(self, device):
        try:
            import cupy
        except ImportError as e:
            raise Unavailable(f"no cupy ({e})")
        import lbm_cupy
        self.cp, self.m = cupy, lbm_cupy

    def prepare(self, f0, omega):
        cp = self.cp
        self.f = cp.asarray(f0)
        self.g = cp.empty_like(self.f)
        self.omega = omega
        self.stepper = self.m.Stepper(f0.shape[1], f0.shape[2])

    def run(self, steps):
        cp = self.cp
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        for _ in range(steps):
            self.stepper(self.f, self.g, self.omega)
            self.f, self.g = self.g, self.f
        b.record()
        b.synchronize()
        return cp.cuda.get_elapsed_time(a, b) * 1e-3

    def result(self):
        return self.cp.asnumpy(self.f)


class NumbaVersion:
    name = "Numba-CUDA"

    def __init__(self, device):
        try:
            from numba import cuda
        except ImportError as e:
            raise Unavailable(f"no numba ({e})")
        if not cuda.is_available():
            raise Unavailable("numba sees no CUDA device")
        import lbm_numba_cuda
        self.cuda, self.m = cuda, lbm_numba_cuda

    def prepare(self, f0, omega):
        self.f = self.cuda.to_device(f0)
        self.g = self.cuda.device_array_like(self.f)
        self.omega = omega
        self.stepper = self.m.Stepper(f0.shape[1], f0.shape[2])

    def run(self, steps):
        cuda = self.cuda
        a, b = cuda.event(timing=True), cuda.event(timing=True)
        a.record()
        for _ in range(steps):
            self.stepper(self.f, self.g, self.omega)
            self.f, self.g = self.g, self.f
        b.record()
        b.synchronize()
        return cuda.event_elapsed_time(a, b) * 1e-3

    def result(self):
        return self.f.copy_to_host()


class JaxVersion:
    name = "JAX jit"

    def __init__(self, device):
        try:
            import jax
        except ImportError as e:
            raise Unavailable(f"no jax ({e})")
        want = "gpu" if device == "cuda" else "cpu"
        try:
            self.dev = jax.devices(want)[0]
        except RuntimeError as e:
            raise Unavailable(f"jax has no {want} device ({e})")
        import jax.numpy as jnp
        import lbm_jax
        self.jax, self.jnp, self.m = jax, jnp, lbm_jax

        @jax.jit
        def run_n(f, omega, n):  # n traced: one compilation for every step count
            return jax.lax.fori_loop(0, n, lambda _, x: lbm_jax.step(x, omega), f)
        self.run_n = run_n

    def prepare(self, f0, omega):
        self.f = self.jax.device_put(f0, self.dev)
        self.omega = self.jnp.float32(omega)

    def run(self, steps):
        t0 = time.perf_counter()
        self.f = self.run_n(self.f, self.omega, steps)
        self.f.block_until_ready()
        return time.perf_counter() - t0

    def result(self):
        return np.asarray(self.f)


class AerolbmVersion:
    name = "aerolbm (module)"

    def __init__(self, device):
        self.device = device

    def prepare(self, f0, omega, sim):
        self.sim = sim
        sim.set_populations(f0)

    def run(self, steps):
        return self.sim.timed_steps(steps)

    def result(self):
        return self.sim.populations()


VERSIONS = {"numpy": NumpyVersion, "torch": TorchVersion, "torch_compile": TorchCompileVersion,
            "numba": NumbaVersion, "cupy": CupyVersion, "jax": JaxVersion, "aerolbm": AerolbmVersion}


def timed(v, target_s, repeats, max_steps, budget_s=15.0):
    """Warm-up (compiles), a probe for the time per step, then timed runs of enough steps to last about target_s:
    `repeats` of them, fewer when that would take over budget_s (the slow versions). Median seconds per step."""
    v.run(1)
    per = max(v.run(2) / 2, 1e-7)
    steps = int(min(max_steps, max(1, target_s / per)))
    repeats = max(1, min(repeats, int(budget_s / (per * steps))))
    times = [v.run(steps) for _ in range(repeats)]
    return statistics.median(times) / steps, steps, repeats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=["cuda", "cpu"], default=None,
                    help="where the versions run (default: cuda when aerolbm sees a CUDA device)")
    ap.add_argument("--sizes", default=None, help="square grid sides, comma-separated (default cuda 1024,4096; cpu 128)")
    ap.add_argument("--impls", default=",".join(ALL), help="comma list of " + ", ".join(ALL))
    ap.add_argument("--check-steps", type=int, default=50)
    ap.add_argument("--check-size", type=int, default=None, help="grid side of the check (default: the first size)")
    ap.add_argument("--tol", type=float, default=2e-5)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--target-ms", type=float, default=200.0)
    ap.add_argument("--max-steps", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=0, help="aerolbm CPU threads (0: all)")
    ap.add_argument("--numpy-max-cells", type=float, default=2 ** 21,
                    help="NumPy (one CPU core) runs only on grids up to this many cells")
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--json", help="also write the rows as JSON here")
    a = ap.parse_args(argv)

    info = aerolbm.build_info()
    device = a.device or ("cuda" if info["cuda_devices"] > 0 else "cpu")
    sizes = [int(s) for s in (a.sizes or ("1024,4096" if device == "cuda" else "128")).split(",") if s]
    impls = [s for s in a.impls.split(",") if s]
    for s in impls:
        if s not in VERSIONS:
            ap.error(f"--impls: unknown '{s}' (expected {', '.join(ALL)})")
    if device == "cpu":
        impls = [s for s in impls if s not in GPU_ONLY]
    backend = "cuda" if device == "cuda" else "cpu"
    if device == "cuda":
        copy_gbs = aerolbm.device_copy_bandwidth(1 << 30, 10)
        copy_what = "device-to-device copy, 1 GiB cudaMemcpy (read + write)"
    else:
        copy_gbs = aerolbm.host_copy_bandwidth(1 << 28, 10, a.threads)
        copy_what = "host memcpy, 256 MiB over the OpenMP threads (read + write)"
    print(f"aerolbm {info['version']}: {info['devices'] if device == 'cuda' else 'CPU'}")
    print(f"copy bandwidth: {copy_gbs:.1f} GB/s ({copy_what})")

    check_size = a.check_size or min(sizes[0], 1024)
    versions, rows, failed = {}, [], False
    for key in impls:
        try:
            versions[key] = VERSIONS[key](device)
        except Unavailable as e:
            print(f"  {VERSIONS[key].name}: not available ({e})")
            rows.append({"impl": key, "name": VERSIONS[key].name, "unavailable": str(e)})

    # The check: every version from aerolbm's state, --check-steps steps, against aerolbm's own result.
    print(f"check: {check_size} x {check_size}, {a.check_steps} steps from a Taylor-Green vortex")
    sim, f0, omega = common.start(common.box_case(check_size, check_size), backend=backend, threads=a.threads)
    sim.timed_steps(a.check_steps)
    checks = {}
    for key, v in versions.items():
        if key == "aerolbm":
            checks[key] = 0.0
            continue
        try:
            v.prepare(f0, omega)
            v.run(a.check_steps)
            rel, ok = common.check(v.name, v.result(), sim, a.tol)
        except Exception as e:  # a version that breaks is reported, the others still run
            print(f"  check {v.name}: FAILED to run ({type(e).__name__}: {e})")
            rel, ok = float("nan"), False
        checks[key] = rel
        failed |= not ok
    del sim

    for n in sizes:
        sim, f0, omega = common.start(common.box_case(n, n), backend=backend, threads=a.threads)
        cells = n * n
        for key, v in versions.items():
            if key == "numpy" and cells > a.numpy_max_cells:
                why = f"not timed above {a.numpy_max_cells:.0f} cells (--numpy-max-cells): one CPU core"
                print(f"  {v.name} at {n}^2: {why}")
                rows.append({"impl": key, "name": v.name, "n": n, "skipped": why})
                continue
            try:
                if key == "aerolbm":
                    v.prepare(f0, omega, sim)
                else:
                    v.prepare(f0, omega)
                per_step, steps, repeats = timed(v, a.target_ms * 1e-3, a.repeats, a.max_steps)
            except Exception as e:
                print(f"  {v.name} at {n}^2: FAILED ({type(e).__name__}: {e})")
                rows.append({"impl": key, "name": v.name, "n": n, "error": f"{type(e).__name__}: {e}"})
                failed = True
                continue
            mlups = cells / per_step * 1e-6
            gbs = mlups * 1e6 * BYTES_PER_CELL * 1e-9
            row = {"impl": key, "name": v.name, "n": n, "cells": cells, "steps": steps, "repeats": repeats,
                   "ms_per_step": per_step * 1e3, "mlups": mlups, "gbs": gbs,
                   "percent_of_copy": 100 * gbs / copy_gbs if copy_gbs > 0 else None,
                   "check_rel_diff": checks.get(key)}
            rows.append(row)
            print(f"  {v.name:<22} {n:>5}^2  {per_step * 1e3:9.3f} ms/step  {mlups:9.1f} MLUPs  {gbs:7.1f} GB/s")
            v.f = v.g = None  # free the device arrays before the next size
        del sim

    versions_line = []
    for mod in ("numpy", "torch", "jax", "cupy", "numba"):
        try:
            versions_line.append(f"{mod} {__import__(mod).__version__}")
        except Exception:
            pass
    lines = [f"D2Q9 BGK, periodic box, float32, {device} ({info['devices'] if device == 'cuda' else 'CPU'}); "
             f"copy bandwidth {copy_gbs:.0f} GB/s ({copy_what}); {', '.join(versions_line)}", "",
             "| version | grid | ms / step | MLUPs | GB/s (72 B/cell) | % of copy | check vs aerolbm | steps x repeats |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if "unavailable" in r:
            lines.append(f"| {r['name']} | | not available: {r['unavailable']} | | | | | |")
            continue
        if "skipped" in r:
            lines.append(f"| {r['name']} | {r['n']}² | {r['skipped']} | | | | | |")
            continue
        if "error" in r:
            lines.append(f"| {r['name']} | {r['n']}² | failed: {r['error'].splitlines()[0][:160] if r['error'] else ''} | | | | | |")
            continue
        c = r["check_rel_diff"]
        check = "reference" if r["impl"] == "aerolbm" else ("failed" if c is None or not c <= a.tol else f"{c:.1e}")
        pct = "" if r["percent_of_copy"] is None else f"{r['percent_of_copy']:.1f} %"
        lines.append(f"| {r['name']} | {r['n']}² | {r['ms_per_step']:.3f} | {r['mlups']:.0f} | {r['gbs']:.0f} | "
                     f"{pct} | {check} | {r['steps']} x {r['repeats']} |")
    table = "\n".join(lines) + "\n"
    print()
    print(table)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(table)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": device, "devices": info["devices"], "copy_gbs": copy_gbs, "rows": rows,
                       "check_steps": a.check_steps, "check_size": check_size, "tol": a.tol}, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
