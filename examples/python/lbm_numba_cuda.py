"""The D2Q9 BGK step as a Numba-CUDA kernel: Python source compiled to PTX by Numba, one thread per cell, the
same fused pull-collide structure as the CuPy RawKernel and aerolbm's kernel. Numba contracts a*b+c into FMAs
(fastmath off still allows it), so its rounding differs from aerolbm's -fmad=false by round-off.
See lbm_common.py for the formulas."""
import math

import numpy as np

if not hasattr(np, "row_stack"):  # removed in NumPy 2.4; numba-cuda 0.68's typing still refers to it
    np.row_stack = np.vstack
from numba import cuda, float32, int32  # noqa: E402

from lbm_common import C, W

CX = tuple(int(v) for v in C[:, 0])
CY = tuple(int(v) for v in C[:, 1])
WS = tuple(float(v) for v in W)


@cuda.jit
def d2q9_bgk(f, g, omega):
    x, y = cuda.grid(2)
    ny, nx = f.shape[1], f.shape[2]
    if x >= nx or y >= ny:
        return
    xm = x - 1 if x > 0 else nx - 1
    xp = x + 1 if x + 1 < nx else 0
    ym = y - 1 if y > 0 else ny - 1
    yp = y + 1 if y + 1 < ny else 0
    fi = cuda.local.array(9, float32)
    for i in range(9):
        cx, cy = CX[i], CY[i]
        sx = x if cx == 0 else (xm if cx > 0 else xp)
        sy = y if cy == 0 else (ym if cy > 0 else yp)
        fi[i] = f[i, sy, sx]
    rs = float32(0.0)
    jx = float32(0.0)
    jy = float32(0.0)
    for i in range(9):
        rs += fi[i]
        jx += float32(CX[i]) * fi[i]
        jy += float32(CY[i]) * fi[i]
    rho = float32(1.0) + rs
    inv = float32(1.0) / rho
    ux = jx * inv
    uy = jy * inv
    uu = ux * ux + uy * uy
    for i in range(9):
        cu = float32(CX[i]) * ux + float32(CY[i]) * uy
        w = float32(WS[i])
        feq = w * rs + w * rho * (float32(3.0) * cu + float32(4.5) * cu * cu - float32(1.5) * uu)
        g[i, y, x] = fi[i] - omega * (fi[i] - feq)


class Stepper:
    def __init__(self, ny, nx):
        self.block = (128, 1)
        self.grid = (math.ceil(nx / 128), ny)

    def __call__(self, f, g, omega):
        d2q9_bgk[self.grid, self.block](f, g, np.float32(omega))


def run(f, omega, steps):
    f = cuda.to_device(np.ascontiguousarray(f, dtype=np.float32)) if not cuda.is_cuda_array(f) else f
    g = cuda.device_array_like(f)
    s = Stepper(f.shape[1], f.shape[2])
    for _ in range(steps):
        s(f, g, omega)
        f, g = g, f
    return f
