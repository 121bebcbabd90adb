"""The D2Q9 BGK step in PyTorch (float32), eager and through torch.compile. Eager runs one kernel per operation
(9 rolls, then some 60 element-wise kernels, each a pass over memory); torch.compile (Inductor) fuses the rolls
and the arithmetic into one or a few generated Triton kernels, which is the fused CUDA kernel's idea found by a
compiler. On the CPU both run too (the CI test). See lbm_common.py for the formulas."""
import torch

from lbm_common import C, Q, W

SHIFTS = [(int(C[i, 1]), int(C[i, 0])) for i in range(Q)]
CX = [float(C[i, 0]) for i in range(Q)]
CY = [float(C[i, 1]) for i in range(Q)]
WF = [float(W[i]) for i in range(Q)]


def step(f, omega: float):
    """f: (Q, ny, nx) float32 tensor; returns the next state (a new tensor)."""
    g = [torch.roll(f[i], shifts=SHIFTS[i], dims=(0, 1)) for i in range(Q)]
    rho_s = g[0] + g[1] + g[2] + g[3] + g[4] + g[5] + g[6] + g[7] + g[8]
    rho = 1.0 + rho_s
    jx = g[1] - g[2] + g[5] - g[6] + g[7] - g[8]
    jy = g[3] - g[4] + g[5] - g[6] - g[7] + g[8]
    inv = 1.0 / rho
    ux, uy = jx * inv, jy * inv
    uu = ux * ux + uy * uy
    out = []
    for i in range(Q):
        cu = CX[i] * ux + CY[i] * uy
        feq = WF[i] * rho_s + WF[i] * rho * (3.0 * cu + 4.5 * cu * cu - 1.5 * uu)
        out.append(g[i] - omega * (g[i] - feq))
    return torch.stack(out)


def compiled_step():
    """torch.compile of step (compiles on first call, once per grid shape)."""
    return torch.compile(step, dynamic=False, fullgraph=True)


def run(f, omega, steps, fn=step):
    for _ in range(steps):
        f = fn(f, omega)
    return f
