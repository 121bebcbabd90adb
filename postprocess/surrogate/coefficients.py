"""Cl and Cd from fields on the sample grid: the method of SCHEMA.md ("Cl and Cd from a field on the sample
grid"), which `aerolbm predict` implements the same way. numpy only."""
import numpy as np


class Grid:
    def __init__(self, nx, ny, x0, x1, y0, y1):
        self.nx, self.ny, self.x0, self.x1, self.y0, self.y1 = nx, ny, x0, x1, y0, y1
        self.dx = (x1 - x0) / (nx - 1)
        self.dy = (y1 - y0) / (ny - 1)
        self.h = min(self.dx, self.dy)


def fluid_sample(field, mask, grid, qx, qy):
    """Fluid-weighted bilinear sample of field [ny, nx] at the point (qx, qy) (see SCHEMA.md)."""
    fx = (qx - grid.x0) / grid.dx
    fy = (qy - grid.y0) / grid.dy
    i = int(min(max(np.floor(fx), 0), grid.nx - 2))
    j = int(min(max(np.floor(fy), 0), grid.ny - 2))
    ax = min(max(fx - i, 0.0), 1.0)
    ay = min(max(fy - j, 0.0), 1.0)
    total, wsum = 0.0, 0.0
    for dj, di, w in ((0, 0, (1 - ax) * (1 - ay)), (0, 1, ax * (1 - ay)), (1, 0, (1 - ax) * ay), (1, 1, ax * ay)):
        if mask[j + dj, i + di] == 0:
            total += w * float(field[j + dj, i + di])
            wsum += w
    if wsum > 0:
        return total / wsum
    # all four corners solid: nearest fluid point of the 4x4 points around the cell, first in index order on ties
    best, best_d = 0.0, np.inf
    for jj in range(j - 1, j + 3):
        for ii in range(i - 1, i + 3):
            if 0 <= jj < grid.ny and 0 <= ii < grid.nx and mask[jj, ii] == 0:
                x = grid.x0 + ii * grid.dx
                y = grid.y0 + jj * grid.dy
                d = (x - qx) ** 2 + (y - qy) ** 2
                if d < best_d:
                    best, best_d = float(field[jj, ii]), d
    return best


def force_coefficients(u, v, p, mask, grid, sx, sy, reynolds):
    """dict cl, cd, cl_p, cd_p for one case: fields [ny, nx], surface polygon sx, sy [S] (either orientation)."""
    sx = np.asarray(sx, np.float64)
    sy = np.asarray(sy, np.float64)
    area2 = np.sum(sx * np.roll(sy, -1) - np.roll(sx, -1) * sy)
    if area2 < 0:
        sx, sy = sx[::-1], sy[::-1]
    h = grid.h
    cxp = cyp = cxv = cyv = 0.0
    s_n = len(sx)
    for k in range(s_n):
        x0, y0 = sx[k], sy[k]
        x1, y1 = sx[(k + 1) % s_n], sy[(k + 1) % s_n]
        s = np.hypot(x1 - x0, y1 - y0)
        if s == 0:
            continue
        tx, ty = (x1 - x0) / s, (y1 - y0) / s
        nx_, ny_ = ty, -tx
        mx, my = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
        cp = fluid_sample(p, mask, grid, mx, my)
        qx, qy = mx + h * nx_, my + h * ny_
        ut = fluid_sample(u, mask, grid, qx, qy) * tx + fluid_sample(v, mask, grid, qx, qy) * ty
        tau = (2.0 / reynolds) * ut / h
        cxp += -cp * nx_ * s
        cyp += -cp * ny_ * s
        cxv += tau * tx * s
        cyv += tau * ty * s
    return {"cl": cyp + cyv, "cd": cxp + cxv, "cl_p": cyp, "cd_p": cxp}


def surface_cp_coefficients(sx, sy, cp):
    """Pressure-only Cl, Cd from the solver's own surface Cp (point values; segment value = mean of its ends)."""
    sx = np.asarray(sx, np.float64)
    sy = np.asarray(sy, np.float64)
    cp = np.asarray(cp, np.float64)
    area2 = np.sum(sx * np.roll(sy, -1) - np.roll(sx, -1) * sy)
    if area2 < 0:
        sx, sy, cp = sx[::-1], sy[::-1], cp[::-1]
    dx = np.roll(sx, -1) - sx
    dy = np.roll(sy, -1) - sy
    cps = 0.5 * (cp + np.roll(cp, -1))
    # outward normal times length = (dy, -dx)
    return {"cl_p": float(np.sum(cps * dx)), "cd_p": float(np.sum(-cps * dy))}
