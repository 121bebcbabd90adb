# Types of the aerolbm package (python/aerolbm/__init__.py and the C++ module aerolbm._core, python/module.cpp).
import os
from typing import Any, Mapping, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

PathLike = Union[str, os.PathLike[str]]
Overrides = Union[None, Mapping[str, Any], Sequence[str], str]

class InputError(ValueError):
    """Bad input (the command line's exit status 2), with the command line's message."""

class RunError(RuntimeError):
    """A failure while running (the command line's exit status 1): divergence, I/O, compare's fail_above."""

class BuildInfo(TypedDict):
    version: str
    cuda: bool
    cuda_devices: int
    devices: str

class LatticeInfo(TypedDict):
    name: str
    d: int
    q: int
    c: npt.NDArray[np.int32]
    w: npt.NDArray[np.float64]

class ForceNow(TypedDict):
    step: int
    time: float
    cd: float
    cl: float
    cs: float

class ForceHistory(TypedDict):
    step: npt.NDArray[np.int64]
    time: npt.NDArray[np.float64]
    cd: npt.NDArray[np.float64]
    cl: npt.NDArray[np.float64]
    cs: npt.NDArray[np.float64]

class RunSummary(TypedDict):
    output: str
    status: str  # complete | stopped
    backend: str
    device: str
    kernel: str
    steps: int
    wall_time_s: float
    mlups: float
    cd_mean: float
    cl_mean: float
    cd_final: float
    cl_final: float
    strouhal: Optional[float]
    frames: int
    checkpoint_step: Optional[int]

class DeviceFields(TypedDict):
    density: DeviceArray
    velocity: DeviceArray

def build_info() -> BuildInfo: ...
def lattice(name: str = "D2Q9") -> LatticeInfo: ...
def device_copy_bandwidth(bytes: int = 1 << 30, repeats: int = 10) -> float: ...
def host_copy_bandwidth(bytes: int = 1 << 28, repeats: int = 10, threads: int = 0) -> float: ...

class Case:
    """A validated case; make one with load_case."""
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def yaml(self) -> str: ...
    @property
    def lattice(self) -> str: ...
    @property
    def lattice_units(self) -> dict[str, float]: ...
    def describe(self) -> str: ...

class DeviceArray:
    """A float32 field in the CUDA backend's device memory, exported without a copy. Overwritten in place by the
    simulation's next device_fields(), density(), velocity() or fields() call."""
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def dtype(self) -> str: ...
    @property
    def ptr(self) -> int: ...
    @property
    def device(self) -> int: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Optional[bool] = None) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...

class Simulation:
    """One simulation of a case on the CPU or the GPU."""
    def __init__(self, case: Union[Case, PathLike, Mapping[str, Any]], backend: str = "auto", *, threads: int = 0,
                 steps: int = 0, progress: bool = False) -> None: ...
    @property
    def backend(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def kernel(self) -> str: ...
    @property
    def lattice(self) -> str: ...
    @property
    def grid(self) -> Tuple[int, int, int]: ...
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def steps_done(self) -> int: ...
    @property
    def total_steps(self) -> int: ...
    @property
    def dt(self) -> float: ...
    @property
    def time(self) -> float: ...
    def step(self, n: int = 1) -> int: ...
    def run(self, output: Optional[PathLike] = None, *, overwrite: bool = False,
            ignore_resources: bool = False) -> RunSummary: ...
    def timed_steps(self, n: int) -> float: ...
    def forces(self) -> ForceNow: ...
    def force_history(self) -> ForceHistory: ...
    def density(self) -> npt.NDArray[np.float32]: ...
    def velocity(self) -> npt.NDArray[np.float32]: ...
    def fields(self, names: Sequence[str] = ...) -> dict[str, npt.NDArray[Any]]: ...
    def populations(self) -> npt.NDArray[np.float64]: ...
    def set_populations(self, f: npt.ArrayLike) -> None: ...
    def device_fields(self) -> DeviceFields: ...

def load_case(source: Union[PathLike, Mapping[str, Any], Case], set: Overrides = None, *,
              base_dir: Optional[PathLike] = None) -> Case: ...
def compare(a: Union[PathLike, Case], b: Optional[PathLike] = None, *, output: PathLike = "compare",
            field_tol: float = 1e-3, force_tol: float = 1e-3, strouhal_tol: float = 1e-2,
            fail_above: Optional[float] = None, plots: bool = True, steps: int = 0, threads: int = 0,
            set: Overrides = None) -> dict[str, Any]: ...
def predict(case: Union[PathLike, Mapping[str, Any], Case], model: PathLike, *, backend: str = "auto",
            output: Optional[PathLike] = None, overwrite: bool = False, repeats: int = 5,
            set: Overrides = None) -> dict[str, Any]: ...
