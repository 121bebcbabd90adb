"""Physics through the module: analytic solutions, and the examples' NumPy step against aerolbm's kernel."""
import math

import numpy as np
import pytest

import aerolbm
import lbm_common as common


def poiseuille_case(H, tau, steps):
    # Reference length = H cells; Re and Mach set tau; the body force gives a peak speed of 0.02.
    mach, u_max = 0.1, 0.02
    u = mach / math.sqrt(3)
    nu = (tau - 0.5) / 3
    return {"schema_version": 1, "case": {"name": "poiseuille"},
            "physics": {"reynolds": u * H / nu, "mach": mach, "body_force": [8 * nu * u_max / H ** 2, 0]},
            "geometry": {"type": "none", "reference_cells": H},
            "domain": {"size_chords": [0.5, 1], "body_position_chords": [0.25, 0.5]},
            "lattice": {"stencil": "D2Q9", "collision": "trt", "precision": "fp64"},
            "boundaries": {"inlet": "periodic", "outlet": "periodic", "lateral": "wall"},
            "time": {"steps": steps}, "output": {"every": 0}}


def test_poiseuille_profile_is_the_parabola():
    # TRT with the magic parameter 3/16 puts the half-way walls exactly half a cell out: the discrete solution is
    # the parabola to round-off, whatever tau (tests/validation/test_poiseuille.cpp, here through Python).
    H, tau, steps = 16, 0.8, 12000
    case = aerolbm.load_case(poiseuille_case(H, tau, steps))
    sim = aerolbm.Simulation(case, backend="cpu", threads=2)
    assert sim.step(steps) == steps and sim.steps_done == steps
    u = sim.velocity()
    assert u.shape == (H, H // 2, 3) and u.dtype == np.float32
    nu = (case.lattice_units["tau"] - 0.5) / 3
    g = 8 * ((tau - 0.5) / 3) * 0.02 / H ** 2
    y = np.arange(H) + 0.5
    exact = g / (2 * nu) * y * (H - y)
    err = np.abs(u[:, 1, 0] - exact).max() / exact.max()
    assert err < 1e-5, err
    assert np.abs(u[..., 1]).max() < 1e-9  # no cross flow
    # Every column the same (periodic along x).
    assert np.abs(u[:, :, 0] - u[:, :1, 0]).max() < 1e-12


def test_taylor_green_decays_at_the_viscous_rate():
    # A periodic Taylor-Green vortex keeps its shape and its kinetic energy decays as exp(-2 nu |k|^2 t).
    n, steps = 64, 400
    case = common.box_case(n, n, tau=0.8)
    sim, f0, omega = common.start(case, backend="cpu")
    nu = (1 / float(omega) - 0.5) / 3
    k2 = 2 * (2 * math.pi / n) ** 2

    def energy():
        u = sim.velocity().astype(np.float64)
        return 0.5 * (u[..., 0] ** 2 + u[..., 1] ** 2).sum()
    e0 = energy()
    sim.step(steps)
    rate = -math.log(energy() / e0) / steps
    assert rate == pytest.approx(2 * nu * k2, rel=5e-3), (rate, 2 * nu * k2)


def test_numpy_step_matches_aerolbm_within_fp32_round_off():
    import lbm_numpy
    n, steps = 48, 150
    sim, f0, omega = common.start(common.box_case(n, 2 * n // 3), backend="cpu")
    sim.step(steps)
    rel, ok = common.check("numpy", lbm_numpy.run(f0, omega, steps), sim)
    assert ok and rel < 2e-5
    # A wrong relaxation time is caught (the check can fail).
    rel_wrong, ok_wrong = common.check("numpy, tau off", lbm_numpy.run(f0, np.float32(omega * 1.01), steps), sim)
    assert not ok_wrong and rel_wrong > 1e-4


def test_torch_step_matches_aerolbm():
    torch = pytest.importorskip("torch")
    import lbm_torch
    n, steps = 40, 100
    sim, f0, omega = common.start(common.box_case(n, n), backend="cpu")
    sim.step(steps)
    f = lbm_torch.run(torch.from_numpy(f0.copy()), float(omega), steps)
    rel, ok = common.check("torch", f.numpy(), sim)
    assert ok, rel


def test_populations_round_trip():
    sim = aerolbm.Simulation(common.box_case(16, 8), backend="cpu")
    f = sim.populations()
    assert f.shape == (9, 8, 16) and f.dtype == np.float64
    assert np.abs(f).max() == 0  # at rest: f = w exactly
    g = np.random.default_rng(1).normal(scale=1e-3, size=f.shape)
    sim.set_populations(g)
    assert np.array_equal(sim.populations(), g.astype(np.float32).astype(np.float64))  # stored in fp32
    with pytest.raises(aerolbm.InputError, match="expected 1152 values"):
        sim.set_populations(np.zeros(10))
