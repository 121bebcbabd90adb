"""aerolbm in Python: the lattice-Boltzmann airflow solver's cases, simulations (CPU or CUDA), forces and fields.

    import aerolbm
    case = aerolbm.load_case("cases/naca0012_re1000_aoa5.yaml", set={"geometry.chord_cells": 32})
    sim = aerolbm.Simulation(case, backend="cpu")
    sim.step(500)
    print(sim.forces())               # {'step': 500, 'time': ..., 'cd': ..., 'cl': ..., 'cs': ...}
    u = sim.velocity()                # NumPy, lattice units, shape (ny, nx, 3)
    f = sim.fields(["pressure"])      # free-stream units, as the run folder's files hold them
    # On the GPU backend, without a copy:
    #   d = sim.device_fields(); rho = torch.from_dlpack(d["density"])

Cases are read, overridden (--set semantics) and validated by the same code as the command line, and bad input
raises aerolbm.InputError (a ValueError) with the command line's message. See __init__.pyi for the types and
README.md ("Python") for the set-up.
"""
from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Mapping, Optional, Sequence, Union

from ._core import (  # noqa: F401
    Case,
    DeviceArray,
    InputError,
    RunError,
    Simulation,
    build_info,
    device_copy_bandwidth,
    host_copy_bandwidth,
    lattice,
)
from . import _core

__version__ = build_info()["version"]
for _name in ("Case", "DeviceArray", "InputError", "RunError", "Simulation", "build_info", "device_copy_bandwidth",
              "host_copy_bandwidth", "lattice"):
    getattr(_core, _name).__module__ = __name__  # aerolbm.InputError, not aerolbm._core.InputError, in messages

__all__ = [
    "Case", "DeviceArray", "InputError", "RunError", "Simulation", "build_info", "compare", "device_copy_bandwidth",
    "host_copy_bandwidth", "lattice", "load_case", "predict",
]

PathLike = Union[str, "_os.PathLike[str]"]
Overrides = Union[None, Mapping[str, Any], Sequence[str]]


def _override_value(value: Any) -> str:
    # As typed after --set key=: strings as they are, other values as YAML (JSON is YAML): 0.2, true, [10, 5].
    if isinstance(value, str):
        return value
    return _json.dumps(value)


def _overrides(set: Overrides) -> list:  # noqa: A002 (the command line's name)
    if set is None:
        return []
    if isinstance(set, str):
        return [set]
    if isinstance(set, Mapping):
        return [f"{k}={_override_value(v)}" for k, v in set.items()]
    return [str(s) for s in set]


def load_case(source: Union[PathLike, Mapping[str, Any], Case], set: Overrides = None,  # noqa: A002
              *, base_dir: Optional[PathLike] = None) -> Case:
    """Reads and validates a case exactly as `aerolbm run` does.

    source: a case file (YAML), or a dict with the case file's structure ({"schema_version": 1, "case": {...},
    "physics": {...}, ...}), or a Case (returned as it is; overrides are then refused).
    set: overrides with --set semantics, as {"physics.mach": 0.2, "domain.size_chords": [10, 5]} or
    ["physics.mach=0.2", ...]; the "flow." alias works as on the command line.
    base_dir: where a dict's relative paths (geometry.file) start (default: the current folder).
    Raises InputError with the command line's message (file or "<dict>", line, key, expected, what to do).
    """
    if isinstance(source, Case):
        if set:
            raise InputError("load_case: overrides apply while a case is read; pass the case file or dict instead "
                             "of a Case")
        return source
    overrides = _overrides(set)
    if isinstance(source, Mapping):
        try:
            text = _json.dumps(source, indent=2, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InputError(f"<dict>: the case dict holds a value YAML cannot carry ({e}); use numbers, strings, "
                             "booleans, lists and dicts") from None
        return Case._from_text(text, "<dict>", _os.fspath(base_dir) if base_dir is not None else _os.getcwd(),
                               overrides)
    return Case._from_file(_os.fspath(source), overrides)


def compare(a: Union[PathLike, Case], b: Optional[PathLike] = None, *, output: PathLike = "compare",
            field_tol: float = 1e-3, force_tol: float = 1e-3, strouhal_tol: float = 1e-2,
            fail_above: Optional[float] = None, plots: bool = True, steps: int = 0, threads: int = 0,
            set: Overrides = None) -> dict:  # noqa: A002
    """`aerolbm compare`: two run folders (a is the reference), or one case (a file or a Case) run on the CPU and
    the GPU. Writes report.md, report.json, errors.h5 and images/ into `output` and returns report.json's content.
    Bad input raises InputError with the command line's message; a relative L2 error or |dCd|, |dCl| above
    `fail_above` raises RunError (the command line's exit status 1) after the report is written."""
    given = a if isinstance(a, Case) else None
    if given is not None and set:
        raise InputError("compare: overrides apply while a case is read; pass the case file, or load_case(..., set=...)")
    if given is not None:
        inputs = [given.source]
    else:
        inputs = [_os.fspath(a)] + ([_os.fspath(b)] if b is not None else [])
    status = _core._compare(inputs, _os.fspath(output), field_tol, force_tol, strouhal_tol,
                            -1.0 if fail_above is None else float(fail_above), plots, steps, threads,
                            _overrides(set), given)
    with open(_os.path.join(_os.fspath(output), "report.json")) as f:
        report = _json.load(f)
    if status != 0:
        largest = report.get("largest_error", {})
        raise RunError(f"compare: largest error {largest.get('value')} ({largest.get('what', '')}) exceeds "
                       f"fail_above {fail_above}; the report is in {_os.fspath(output)}")
    return report


def predict(case: Union[PathLike, Mapping[str, Any], Case], model: PathLike, *, backend: str = "auto",
            output: Optional[PathLike] = None, overwrite: bool = False, repeats: int = 5,
            set: Overrides = None) -> dict:  # noqa: A002
    """`aerolbm predict`: the surrogate model's flow field for a case (geometry.type naca4), written as a run
    folder (default runs/<case name>_predicted) and returned: {'output', 'backend', 'device', 'inference_time_s',
    'cl', 'cd', 'cl_field', 'cd_field', 'coefficients_source', 'grid', 'origin', 'spacing', 'fields':
    {'velocity': (ny, nx, 3), 'pressure', 'vorticity', 'mask'}}: 'cl', 'cd' are the model's coefficient head
    ('coefficients_source' 'network', model.h5 version 2) or, for a version-1 model, the field-integrated
    'cl_field', 'cd_field' ('field'), as summary.json's cl_mean, cd_mean. Bad input (the case, a model file that does not match its schema) raises InputError."""
    c = load_case(case, set)
    return _core._predict(c, _os.fspath(model), backend, "" if output is None else _os.fspath(output), repeats,
                          overwrite)
