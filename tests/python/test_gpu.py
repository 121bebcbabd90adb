"""The CUDA backend through the module (skipped without a CUDA device): device fields exported without a copy to
PyTorch (DLPack), CuPy and Numba (__cuda_array_interface__) and JAX, and the GPU's results against the CPU's."""
import gc

import numpy as np
import pytest

import aerolbm
import lbm_common as common
from conftest import DEFAULT_CASE, SMALL

pytestmark = pytest.mark.skipif(aerolbm.build_info()["cuda_devices"] == 0,
                                reason="no CUDA device (or a CPU-only build): " + aerolbm.build_info()["devices"])


@pytest.fixture
def gpu_sim():
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=SMALL), backend="cuda")
    sim.step(100)
    return sim


def test_dlpack_to_torch_is_zero_copy(gpu_sim):
    torch = pytest.importorskip("torch")
    d = gpu_sim.device_fields()
    rho, u = torch.from_dlpack(d["density"]), torch.from_dlpack(d["velocity"])
    assert rho.device.type == "cuda" and rho.dtype == torch.float32
    assert rho.data_ptr() == d["density"].ptr and u.data_ptr() == d["velocity"].ptr
    assert tuple(rho.shape) == gpu_sim.shape and tuple(u.shape) == gpu_sim.shape + (3,)
    assert d["density"].__dlpack_device__() == (2, rho.device.index)
    assert np.array_equal(rho.cpu().numpy(), gpu_sim.density())
    assert np.array_equal(u.cpu().numpy(), gpu_sim.velocity())
    before = rho.clone()
    gpu_sim.step(50)
    gpu_sim.device_fields()  # recomputed in place: the same memory, the tensor sees the new values
    assert not torch.equal(rho, before)
    assert np.array_equal(rho.cpu().numpy(), gpu_sim.density())


def test_exported_memory_outlives_the_simulation():
    torch = pytest.importorskip("torch")
    sim = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=SMALL), backend="cuda")
    sim.step(20)
    want = sim.density()
    rho = torch.from_dlpack(sim.device_fields()["density"])
    del sim
    gc.collect()
    assert np.array_equal(rho.cpu().numpy(), want)  # the tensor holds the simulation (and its memory)


def test_cuda_array_interface_to_cupy_and_numba(gpu_sim):
    d = gpu_sim.device_fields()
    cai = d["velocity"].__cuda_array_interface__
    assert cai["data"][0] == d["velocity"].ptr and cai["typestr"] == "<f4" and cai["version"] == 3
    cp = pytest.importorskip("cupy")
    u = cp.asarray(d["velocity"])
    assert u.data.ptr == d["velocity"].ptr
    assert np.array_equal(cp.asnumpy(u), gpu_sim.velocity())
    r = cp.from_dlpack(gpu_sim.device_fields()["density"])
    assert r.data.ptr == d["density"].ptr
    numba_cuda = pytest.importorskip("numba.cuda")
    a = numba_cuda.as_cuda_array(d["density"])
    assert a.device_ctypes_pointer.value == d["density"].ptr
    assert np.array_equal(a.copy_to_host(), gpu_sim.density())


def test_jax_reads_the_device_fields(gpu_sim):
    jax = pytest.importorskip("jax")
    d = gpu_sim.device_fields()
    try:
        x = jax.dlpack.from_dlpack(d["density"])
    except Exception as e:  # a JAX without a GPU plugin cannot take a CUDA capsule
        pytest.skip(f"jax cannot import a CUDA DLPack capsule here: {e}")
    assert np.array_equal(np.asarray(x), gpu_sim.density())


def test_gpu_matches_cpu_bit_for_bit_on_the_box():
    n, steps = 96, 200
    gpu, f0, _ = common.start(common.box_case(n, n), backend="cuda")
    cpu, f0_cpu, _ = common.start(common.box_case(n, n), backend="cpu")
    assert np.array_equal(f0, f0_cpu)
    gpu.step(steps)
    cpu.step(steps)
    assert np.array_equal(gpu.populations(), cpu.populations())


def test_gpu_forces_match_cpu(gpu_sim):
    cpu = aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=SMALL), backend="cpu")
    cpu.step(100)
    g, c = gpu_sim.force_history(), cpu.force_history()
    assert np.array_equal(g["step"], c["step"])
    assert np.allclose(g["cd"], c["cd"], rtol=0, atol=1e-12) and np.allclose(g["cl"], c["cl"], rtol=0, atol=1e-12)
    assert np.array_equal(gpu_sim.fields(["velocity"])["velocity"], cpu.fields(["velocity"])["velocity"])


def test_timed_steps_and_bandwidth(gpu_sim):
    t = gpu_sim.timed_steps(100)
    assert 0 < t < 10 and gpu_sim.steps_done == 200
    assert aerolbm.device_copy_bandwidth(1 << 26, 3) > 100  # GB/s: any current GPU
