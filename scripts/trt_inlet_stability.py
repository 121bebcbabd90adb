#!/usr/bin/env python3
"""Linear stability of a velocity inlet with BGK and TRT (D2Q9), the evidence behind stable_trt_magic
(kernels/physics/collision.hpp; docs/numerics.md, issue 15 part 5).

A strip of M cells along x, periodic in y with ny cells (a transverse wavenumber 2*pi/ny), uniform flow (u, 0): the
inlet node at x = 0, the fluid, and a sponge ending in a free-stream node at the far end. The one-step map of
the solver (pull streaming, collision, boundaries) is linearised about the uniform flow by finite differences and
its spectral radius printed: above 1, a perturbation grows. Inlet variants: `extrap` (the solver's: equilibrium
at the inflow velocity and the neighbour's density, plus the neighbour's non-equilibrium), `eq` (equilibrium
only), `farfield` (x = 0 collides; what streams in is the free stream's equilibrium), `ubb` (x = 0 collides;
velocity bounce-back).

  /usr/bin/python3 scripts/trt_inlet_stability.py                 # the default case: BGK, TRT 3/16, TRT capped
  /usr/bin/python3 scripts/trt_inlet_stability.py --bound 0.51 0.5166 0.525   # the largest stable magic per tau
Takes a minute or two (numpy, one core).
"""
import argparse

import numpy as np

C = np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]])
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
OPP = np.array([0, 2, 1, 4, 3, 6, 5, 8, 7])


def feq(rho, ux, uy):
    cu = C[:, 0, None, None] * ux + C[:, 1, None, None] * uy
    return W[:, None, None] * rho * (1 + 3 * cu + 4.5 * cu ** 2 - 1.5 * (ux ** 2 + uy ** 2))


def moments(f):
    rho = f.sum(0)
    return rho, (C[:, 0, None, None] * f).sum(0) / rho, (C[:, 1, None, None] * f).sum(0) / rho


class Strip:
    def __init__(self, tau, u, magic, trt=True, inlet="extrap", M=20, ny=8, sponge=12, sigma=0.3):
        self.u, self.inlet, self.M, self.ny = u, inlet, M, ny
        self.wp = 1 / tau
        self.wm = 1 / (magic / (tau - 0.5) + 0.5) if trt else self.wp
        d = (M - 1) - np.arange(M)
        self.sigma = np.where(d < sponge, sigma * (1 - d / sponge) ** 2, 0.0)[None, :, None]
        self.free = feq(1.0, u, 0.0)[:, :1, :1]

    def collide(self, f):
        fe = feq(*moments(f))
        fp, fm = 0.5 * (f + f[OPP]), 0.5 * (f - f[OPP])
        ep, em = 0.5 * (fe + fe[OPP]), 0.5 * (fe - fe[OPP])
        return f - self.wp * (fp - ep) - self.wm * (fm - em)

    def step(self, f):
        g = np.stack([np.roll(np.roll(f[i], C[i, 0], axis=0), C[i, 1], axis=1) for i in range(9)])
        if self.inlet in ("farfield", "ubb"):
            for i in np.flatnonzero(C[:, 0] == 1):
                g[i, 0] = self.free[i, 0, 0] if self.inlet == "farfield" else f[OPP[i], 0] + 6 * W[i] * C[i, 0] * self.u
        out = self.collide(g)
        out = out - self.sigma * (out - self.free)
        out[:, -1, :] = self.free[:, 0, :]
        if self.inlet in ("extrap", "eq"):
            # The inlet node: from its neighbour's stored (post-collision) populations, as open_boundary_cell.
            fn = f[:, 1:2, :]
            rho, ux, uy = moments(fn)
            out[:, 0:1, :] = feq(rho, self.u, 0.0) + (fn - feq(rho, ux, uy) if self.inlet == "extrap" else 0)
        return out

    def spectral_radius(self, eps=1e-7):
        base = self.free * np.ones((1, self.M, self.ny))
        f0 = self.step(base)
        n = base.size
        J = np.empty((n, n))
        for k in range(n):
            p = base.copy().reshape(-1)
            p[k] += eps
            J[:, k] = (self.step(p.reshape(base.shape)) - f0).reshape(-1) / eps
        ev, vec = np.linalg.eig(J)
        i = np.argmax(np.abs(ev))
        where = int(np.argmax(np.abs(vec[:, i]).reshape(base.shape).max(axis=(0, 2))))
        return np.abs(ev[i]), ev[i], where


def worst(tau, u, magic, trt=True, inlet="extrap"):
    """The largest growth factor over two transverse wavenumbers (ny = 3 and 8 cells), and its mode."""
    return max((Strip(tau, u, magic, trt, inlet, ny=ny).spectral_radius() for ny in (3, 8)), key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tau", type=float, default=0.516628, help="the default case's")
    ap.add_argument("--u", type=float, default=0.0866025, help="inflow speed, cells/step (Mach 0.15)")
    ap.add_argument("--inlets", default="extrap", help="comma-separated: extrap, eq, farfield, ubb")
    ap.add_argument("--bound", type=float, nargs="*", help="taus: bisect the largest stable magic parameter")
    a = ap.parse_args()
    if a.bound:
        for tau in a.bound:
            lo, hi = 1e-4, 0.5
            for _ in range(7):
                mid = (lo * hi) ** 0.5
                lo, hi = (mid, hi) if worst(tau, a.u, mid)[0] <= 1 + 1e-6 else (lo, mid)
            print(f"tau {tau}: stable up to magic {lo:.4f}-{hi:.4f}, magic u^2/(tau-1/2)^2 = "
                  f"{lo * a.u ** 2 / (tau - 0.5) ** 2:.2f}-{hi * a.u ** 2 / (tau - 0.5) ** 2:.2f}", flush=True)
        return
    capped = min(3 / 16, 0.5 * (a.tau - 0.5) ** 2 / a.u ** 2)
    for inlet in a.inlets.split(","):
        for name, trt, magic in (("BGK", False, 3 / 16), ("TRT 3/16", True, 3 / 16),
                                 (f"TRT {capped:.4f} (capped)", True, capped)):
            r, ev, x = worst(a.tau, a.u, magic, trt, inlet)
            print(f"inlet {inlet:8s} {name:22s} spectral radius {r:.4f} (eigenvalue {ev.real:+.3f}{ev.imag:+.3f}i, "
                  f"largest at x = {x})", flush=True)


if __name__ == "__main__":
    main()
