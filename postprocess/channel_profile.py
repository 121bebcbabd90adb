#!/usr/bin/python3
"""Mean velocity profile of a plane-channel run (cases/channel_re_tau*.yaml) against the DNS of Lee & Moser (2015).

Reads RUN/mean (the time-averaged velocity and the mask), RUN/summary.json (lattice units, the mean C_D, which with
the cases' reference area, both walls, is the mean skin friction C_f = τ_w / (½ρU²)) and RUN/forces.csv (the wall
shear's history). Prints the friction Reynolds number from the wall shear, the bulk velocity in wall units U_b⁺,
the profile U⁺(y⁺) at the cell centres (both halves of the channel folded together) beside the DNS's log law
U⁺ = ln(y⁺)/0.384 + 4.27 (Lee & Moser's fit), and C_f over the run in tenths.

Usage: /usr/bin/python3 postprocess/channel_profile.py RUN [--dns-ub-plus 19.99]
"""
import argparse
import math
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_run as ar  # noqa: E402


def mean_fields(run):
    single = os.path.join(run, "mean", "fields", "frame_000000.h5")
    f = h5py.File(single, "r") if os.path.exists(single) else h5py.File(os.path.join(run, "mean", "fields.h5"), "r")
    g = f if os.path.exists(single) else f["frame_000000"]
    u = np.asarray(g["velocity"][...], dtype=np.float64)  # (nz, ny, nx, 3), u/U
    mask = np.asarray(g["mask"][...])
    f.close()
    return u, mask


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run")
    p.add_argument("--dns-ub-plus", type=float, default=None, help="the DNS's U_b+ to compare with")
    a = p.parse_args()
    try:
        s = ar.read_summary(a.run)
        forces = ar.read_forces(a.run)
        u, mask = mean_fields(a.run)
    except (ar.RunError, OSError, KeyError) as e:
        ar.fail(str(e))
    lu = s["lattice_units"]
    h, nu, U = lu["reference_length_cells"], lu["nu_lattice"], lu["u_lattice"]
    cd = s["coefficients"]["cd_mean"]
    u_tau = U * math.sqrt(cd / 2)  # lattice units
    fluid_rows = np.where(mask[0, :, 0] == 0)[0]
    y_low, y_high = fluid_rows[0], fluid_rows[-1] + 1  # the walls, half-way between solid and fluid centres
    ux = u[..., 0]
    fluid = mask == 0
    ub = ux[fluid].mean() * U
    print(f"{a.run}: h = {h:g} cells, Re_tau {u_tau * h / nu:.1f} (wall shear), U_b+ {ub / u_tau:.3f}"
          + (f" (DNS {a.dns_ub_plus:g}, {100 * (ub / u_tau / a.dns_ub_plus - 1):+.1f} %)" if a.dns_ub_plus else ""))
    prof = {}
    for j in fluid_rows:
        d = min(j + 0.5 - y_low, y_high - j - 0.5)
        prof.setdefault(d, []).append(ux[:, j, :][fluid[:, j, :]].mean() * U)
    print("   y+       U+   DNS log law")
    for d in sorted(prof):
        yp = d * u_tau / nu
        if yp > 0.6 * u_tau * h / nu:
            break
        up = np.mean(prof[d]) / u_tau
        print(f"  {yp:7.1f} {up:8.3f} {math.log(yp) / 0.384 + 4.27:8.3f}")
    t, c = forces["time"], forces["Cd"]
    tenths = [c[(t >= t[-1] * k / 10) & (t < t[-1] * (k + 1) / 10 + 1e-9)].mean() for k in range(10)]
    print("C_f by tenth of the run:", " ".join(f"{x:.5f}" for x in tenths), f"(target {2 / (a.dns_ub_plus or 1) ** 2:.5f})"
          if a.dns_ub_plus else "")


if __name__ == "__main__":
    main()
