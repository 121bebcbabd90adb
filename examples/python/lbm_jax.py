"""The D2Q9 BGK step in JAX under jit: the same array program as NumPy (jnp.roll and element-wise expressions),
which XLA fuses into one or a few kernels; jax.lax.fori_loop keeps many steps inside one compiled program, so the
host launches once per call, not once per step. See lbm_common.py for the formulas."""
import jax
import jax.numpy as jnp

from lbm_common import C, Q, W

SHIFTS = [(int(C[i, 1]), int(C[i, 0])) for i in range(Q)]
CX = [float(C[i, 0]) for i in range(Q)]
CY = [float(C[i, 1]) for i in range(Q)]
WF = [float(W[i]) for i in range(Q)]


def step(f, omega):
    g = [jnp.roll(f[i], shift=SHIFTS[i], axis=(0, 1)) for i in range(Q)]
    rho_s = sum(g[1:], g[0])
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
    return jnp.stack(out)


def make_run(steps):
    """A jitted function running `steps` steps: f -> f after steps."""
    @jax.jit
    def run(f, omega):
        return jax.lax.fori_loop(0, steps, lambda _, x: step(x, omega), f)
    return run
