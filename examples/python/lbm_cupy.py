"""The D2Q9 BGK step as a CuPy RawKernel: CUDA C compiled at run time (NVRTC), one thread per cell pulling its nine
populations from the neighbours, colliding in registers and writing the nine results: one read and one write of
every population per step, like aerolbm's fused pull kernel (which adds boundaries, walls and fp16 storage, none
of which a periodic box needs). See lbm_common.py for the formulas."""
import cupy as cp

from lbm_common import C, Q, W

_SOURCE = r"""
extern "C" __global__ void d2q9_bgk(const float* __restrict__ f, float* __restrict__ g, int nx, int ny, float omega) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= nx) return;
  const long long cells = (long long)nx * ny;
  const int cx[9] = {@CX@}, cy[9] = {@CY@};
  const float w[9] = {@WS@};
  float fi[9];
  const int xm = x > 0 ? x - 1 : nx - 1, xp = x + 1 < nx ? x + 1 : 0;
  const int ym = y > 0 ? y - 1 : ny - 1, yp = y + 1 < ny ? y + 1 : 0;
#pragma unroll
  for (int i = 0; i < 9; ++i) {
    const int sx = cx[i] == 0 ? x : (cx[i] > 0 ? xm : xp);
    const int sy = cy[i] == 0 ? y : (cy[i] > 0 ? ym : yp);
    fi[i] = f[i * cells + (long long)sy * nx + sx];
  }
  float rs = 0.f, jx = 0.f, jy = 0.f;
#pragma unroll
  for (int i = 0; i < 9; ++i) { rs += fi[i]; jx += cx[i] * fi[i]; jy += cy[i] * fi[i]; }
  const float rho = 1.f + rs, inv = 1.f / rho;
  const float ux = jx * inv, uy = jy * inv, uu = ux * ux + uy * uy;
  const long long n = (long long)y * nx + x;
#pragma unroll
  for (int i = 0; i < 9; ++i) {
    const float cu = cx[i] * ux + cy[i] * uy;
    const float feq = w[i] * rs + w[i] * rho * (3.f * cu + 4.5f * cu * cu - 1.5f * uu);
    g[i * cells + n] = fi[i] - omega * (fi[i] - feq);
  }
}
"""


def _kernel():
    src = (_SOURCE.replace("@CX@", ", ".join(str(int(C[i, 0])) for i in range(Q)))
           .replace("@CY@", ", ".join(str(int(C[i, 1])) for i in range(Q)))
           .replace("@WS@", ", ".join(f"{float(W[i]):.9g}f" for i in range(Q))))
    # -fmad=false as aerolbm's kernels: no contraction into fused multiply-adds, the same rounding as the CPU.
    return cp.RawKernel(src, "d2q9_bgk", options=("--fmad=false",))


class Stepper:
    def __init__(self, ny, nx):
        self.k = _kernel()
        self.nx, self.ny = nx, ny
        self.block = 128
        self.grid = ((nx + self.block - 1) // self.block, ny)

    def __call__(self, f, g, omega):
        """One step from f into g (both (Q, ny, nx) float32, C-contiguous)."""
        self.k(self.grid, (self.block,), (f, g, cp.int32(self.nx), cp.int32(self.ny), cp.float32(omega)))


def run(f, omega, steps):
    f = cp.ascontiguousarray(f, dtype=cp.float32)
    g = cp.empty_like(f)
    s = Stepper(f.shape[1], f.shape[2])
    for _ in range(steps):
        s(f, g, omega)
        f, g = g, f
    return f
