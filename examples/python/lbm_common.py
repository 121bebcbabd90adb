"""What every version of the D2Q9 BGK step in this folder shares: the periodic box as an aerolbm case, its initial
state (a Taylor-Green vortex), the velocity set, and the check against aerolbm's own result.

The step is aerolbm's: populations stored shifted by their weights (f~ = f - w, so float32 keeps the density's
small deviations), pulled from the neighbour at x - c_i (periodic), then relaxed towards the second-order
equilibrium:

    rho~ = sum_i f~_i,  rho = 1 + rho~,  u = (sum_i c_i f~_i) / rho
    f~eq_i = w_i rho~ + w_i rho (3 c_i.u + 4.5 (c_i.u)^2 - 1.5 u.u)
    f~_i <- f~_i - omega (f~_i - f~eq_i),   omega = 1 / tau

Arrays are structure-of-arrays, direction-major: f[i, y, x], as aerolbm stores them (index i * cells + x + nx y).
"""
import numpy as np

import aerolbm

D2Q9 = aerolbm.lattice("D2Q9")
C = D2Q9["c"][:, :2].astype(np.int64)  # (9, 2): cx, cy
W = D2Q9["w"]                           # (9,)
Q = D2Q9["q"]


def box_case(nx, ny, tau=0.6, mach=0.1, steps=100):
    """A periodic box of nx x ny cells as an aerolbm case dict: geometry none, every face periodic, BGK, fp32.
    The reference length is nx cells; Re and Mach are chosen so that the case's tau is `tau`."""
    u = mach / np.sqrt(3.0)
    nu = (tau - 0.5) / 3.0
    return {
        "schema_version": 1,
        "case": {"name": f"box_{nx}x{ny}"},
        "physics": {"reynolds": float(u * nx / nu), "mach": mach},
        "geometry": {"type": "none", "reference_cells": nx},
        "domain": {"size_chords": [1.0, ny / nx], "body_position_chords": [0.5, 0.5 * ny / nx]},
        "lattice": {"stencil": "D2Q9", "collision": "bgk", "precision": "fp32"},
        "boundaries": {"inlet": "periodic", "outlet": "periodic", "lateral": "periodic"},
        "time": {"steps": int(steps)},
        "output": {"every": 0},
        "forces": {"every": 1000000},
        "checkpoint": {"every": 0},
        "watchdog": {"every": 1000000},
    }


def taylor_green_velocity(nx, ny, amplitude=0.05):
    """u = A sin(kx x) cos(ky y), v = -A (kx/ky) cos(kx x) sin(ky y) at cell centres: divergence-free, periodic
    (as `aerolbm bench` starts its box)."""
    kx, ky = 2 * np.pi / nx, 2 * np.pi / ny
    x = (np.arange(nx) + 0.5)[None, :]
    y = (np.arange(ny) + 0.5)[:, None]
    ux = amplitude * np.sin(kx * x) * np.cos(ky * y)
    uy = -amplitude * (kx / ky) * np.cos(kx * x) * np.sin(ky * y)
    return ux, uy


def equilibrium_shifted(rho_s, ux, uy):
    """f~eq (Q, ny, nx) in float64, aerolbm's formula."""
    rho = 1.0 + rho_s
    uu = ux * ux + uy * uy
    feq = np.empty((Q,) + np.shape(ux))
    for i in range(Q):
        cu = C[i, 0] * ux + C[i, 1] * uy
        feq[i] = W[i] * rho_s + W[i] * rho * (3.0 * cu + 4.5 * cu * cu - 1.5 * uu)
    return feq


def start(case_dict, backend="cpu", amplitude=0.05, threads=0):
    """The box as an aerolbm Simulation holding the Taylor-Green state, that state as float32 (Q, ny, nx), so that
    every version starts from the very numbers aerolbm holds (stored in fp32), and omega = 1/tau of the case."""
    case = aerolbm.load_case(case_dict)
    sim = aerolbm.Simulation(case, backend=backend, threads=threads)
    ny, nx = sim.shape
    ux, uy = taylor_green_velocity(nx, ny, amplitude)
    sim.set_populations(equilibrium_shifted(np.zeros_like(ux), ux, uy))
    f0 = sim.populations().astype(np.float32)
    return sim, f0, np.float32(1.0 / case.lattice_units["tau"])


def macroscopic(f):
    """Density and velocity (float64) of shifted populations f (Q, ny, nx)."""
    f = np.asarray(f, dtype=np.float64)
    rho = 1.0 + f.sum(axis=0)
    ux = np.tensordot(C[:, 0].astype(np.float64), f, axes=1) / rho
    uy = np.tensordot(C[:, 1].astype(np.float64), f, axes=1) / rho
    return rho, ux, uy


def check(name, f, sim, tol=2e-5):
    """The velocity of populations f against aerolbm's (sim.velocity(), after as many steps): the largest
    difference over the largest speed. fp32 round-off over a few hundred steps stays near 1e-6; a wrong term
    (a missing 4.5 (c.u)^2, a wrong tau, a streaming direction) gives 1e-3 or more."""
    _, ux, uy = macroscopic(f)
    ref = sim.velocity().astype(np.float64)
    err = max(np.abs(ux - ref[..., 0]).max(), np.abs(uy - ref[..., 1]).max())
    scale = np.abs(ref[..., :2]).max()
    rel = float(err / scale)
    ok = rel <= tol
    print(f"  check {name:<22} max |u - u_aerolbm| / max |u| = {rel:.2e} ({'ok' if ok else 'FAILED'}, tol {tol:g})")
    return rel, ok
