"""The D2Q9 BGK step in NumPy (float32): one np.roll per direction for the pull, then the collision as whole-array
expressions. Every operation makes a full pass over memory and a temporary array, so a step reads and writes the
populations many times over (the fused CUDA kernel does it once); on one CPU core, without threads.
See lbm_common.py for the formulas."""
import numpy as np

from lbm_common import C, Q, W

W32 = W.astype(np.float32)


def stream(f):
    """Pull: f_i(x) <- f_i(x - c_i), periodic (np.roll moves element j to j + shift)."""
    return np.stack([np.roll(f[i], shift=(C[i, 1], C[i, 0]), axis=(0, 1)) for i in range(Q)])


def collide(f, omega):
    rho_s = f.sum(axis=0)
    rho = np.float32(1) + rho_s
    jx = f[1] - f[2] + f[5] - f[6] + f[7] - f[8]
    jy = f[3] - f[4] + f[5] - f[6] - f[7] + f[8]
    inv = np.float32(1) / rho
    ux, uy = jx * inv, jy * inv
    uu = ux * ux + uy * uy
    out = np.empty_like(f)
    for i in range(Q):
        cu = np.float32(C[i, 0]) * ux + np.float32(C[i, 1]) * uy
        feq = W32[i] * rho_s + W32[i] * rho * (np.float32(3) * cu + np.float32(4.5) * cu * cu - np.float32(1.5) * uu)
        out[i] = f[i] - omega * (f[i] - feq)
    return out


def step(f, omega):
    return collide(stream(f), omega)


def run(f, omega, steps):
    for _ in range(steps):
        f = step(f, omega)
    return f
