"""The surrogate network in plain numpy, read straight from model.h5 (no torch): the executable specification of
SCHEMA.md that `aerolbm predict` must match. Computes in float64. Reads versions 1 (fields only) and 2 (fields and
the C_L, C_D coefficient head).

    python3 numpy_forward.py MODEL.h5        recomputes /reference/output (and /reference/coefficients) and prints
                                             the relative error
"""
import math
import sys

import numpy as np

try:
    from scipy.special import erf as _erf
except ImportError:  # exact erf without scipy: math.erf per element (slower, same numbers)
    _erf = np.frompyfunc(math.erf, 1, 1)

FORMAT = "aerolbm-surrogate"
VERSION = 2  # what export.py writes
VERSIONS = (1, 2)  # what this reader understands: 1 has no coefficient head
COEFFICIENTS = (2, 3)  # the head's outputs: cl, cd, and cm in models trained on data with the pitching moment


class ModelFileError(Exception):
    """model.h5 does not match SCHEMA.md; the message names the file, what is wrong and what to do."""


def gelu(x):
    return 0.5 * x * (1.0 + np.asarray(_erf(x / math.sqrt(2.0)), dtype=np.float64))


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def linear(x, w, name):
    return x @ w[name + ".W"].T + w[name + ".b"]


def softmax_attention(q, k, v, chunk=1024):
    """q, k, v [H, T, d] -> [H, T, d]; full softmax, scale 1/sqrt(d), in chunks of queries."""
    scale = 1.0 / math.sqrt(q.shape[-1])
    out = np.empty_like(q)
    kt = np.swapaxes(k, 1, 2)
    for s in range(0, q.shape[1], chunk):
        a = (q[:, s:s + chunk] @ kt) * scale
        a -= a.max(-1, keepdims=True)
        np.exp(a, out=a)
        a /= a.sum(-1, keepdims=True)
        out[:, s:s + chunk] = a @ v
    return out


def coefficient_head(w, a, g, pool_heads):
    """C_L, C_D (normalised) from the final normalised tokens a [T, D] and the conditioning vector g [D]: P softmax
    poolings over the tokens with scores a·Wᵀ + b, then MLP(concat(pooled_0..pooled_{P-1}, g))."""
    s = linear(a, w, "coef.score")  # [T, P]
    s = np.exp(s - s.max(0, keepdims=True))
    s /= s.sum(0, keepdims=True)
    pooled = s.T @ a  # [P, D]
    z = np.concatenate([pooled.reshape(-1), g])
    return linear(gelu(linear(z, w, "coef.mlp.0")), w, "coef.mlp.2")


def forward(model, points, params):
    """model: dict from load(); points [T, 4] raw; params [5] raw (Reynolds as is). Returns (raw fields [T, 3],
    raw coefficients [K] (cl, cd and, K = 3, cm), or None for a version-1 file)."""
    a, w, nm = model["attrs"], model["weights"], model["norm"]
    d, heads, layers = a["d_model"], a["heads"], a["layers"]
    pts = np.asarray(points, np.float64)
    prm = np.array(params, np.float64)
    prm[4] = math.log10(prm[4])
    p = (pts - nm["point_mean"]) / nm["point_std"]
    c = (prm - nm["param_mean"]) / nm["param_std"]
    h = linear(gelu(linear(p, w, "embed.0")), w, "embed.2")
    g = linear(gelu(linear(c, w, "cond.0")), w, "cond.2")
    h = h + g[None, :]
    t = h.shape[0]
    dh = d // heads
    for l in range(layers):
        b = f"blocks.{l}."
        x = layer_norm(h, w[b + "ln1.gamma"], w[b + "ln1.beta"])
        q, k, v = (linear(x, w, b + n).reshape(t, heads, dh).transpose(1, 0, 2) for n in ("q", "k", "v"))
        y = softmax_attention(q, k, v).transpose(1, 0, 2).reshape(t, d)
        h = h + linear(y, w, b + "o")
        x = layer_norm(h, w[b + "ln2.gamma"], w[b + "ln2.beta"])
        h = h + linear(gelu(linear(x, w, b + "mlp.0")), w, b + "mlp.2")
    x = layer_norm(h, w["ln_f.gamma"], w["ln_f.beta"])
    y = linear(x, w, "head") * nm["out_std"] + nm["out_mean"]
    if a["version"] < 2:
        return y, None
    k = coefficient_head(w, x, g, a["pool_heads"])
    return y, k * nm["coef_std"] + nm["coef_mean"]


def expected_shapes(d, heads, layers, mlp, pool_heads=None, coefficients=2):
    """{weight name: shape}; pool_heads None: version 1 (no coefficient head)."""
    s = {"embed.0.W": (d, 4), "embed.0.b": (d,), "embed.2.W": (d, d), "embed.2.b": (d,),
         "cond.0.W": (d, 5), "cond.0.b": (d,), "cond.2.W": (d, d), "cond.2.b": (d,),
         "ln_f.gamma": (d,), "ln_f.beta": (d,), "head.W": (3, d), "head.b": (3,)}
    for l in range(layers):
        b = f"blocks.{l}."
        for n in ("ln1", "ln2"):
            s[b + n + ".gamma"] = (d,)
            s[b + n + ".beta"] = (d,)
        for n in ("q", "k", "v", "o"):
            s[b + n + ".W"] = (d, d)
            s[b + n + ".b"] = (d,)
        s[b + "mlp.0.W"] = (mlp * d, d)
        s[b + "mlp.0.b"] = (mlp * d,)
        s[b + "mlp.2.W"] = (d, mlp * d)
        s[b + "mlp.2.b"] = (d,)
    if pool_heads is not None:
        s["coef.score.W"] = (pool_heads, d)
        s["coef.score.b"] = (pool_heads,)
        s["coef.mlp.0.W"] = (d, (pool_heads + 1) * d)
        s["coef.mlp.0.b"] = (d,)
        s["coef.mlp.2.W"] = (coefficients, d)
        s["coef.mlp.2.b"] = (coefficients,)
    return s


def load(path):
    """Reads and checks model.h5 against SCHEMA.md; raises ModelFileError naming what is wrong."""
    import h5py
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ModelFileError(f"{path}: cannot open as HDF5 ({e}); expected a model.h5 from export.py")
    with f:
        fmt = f.attrs.get("format", b"")
        fmt = fmt.decode() if isinstance(fmt, bytes) else str(fmt)
        if fmt != FORMAT:
            raise ModelFileError(f"{path}: attribute 'format' is '{fmt}', expected '{FORMAT}'")
        if "version" not in f.attrs:
            raise ModelFileError(f"{path}: attribute 'version' is missing, expected {VERSION}")
        ver = int(f.attrs["version"])
        if ver not in VERSIONS:
            raise ModelFileError(f"{path}: attribute 'version' is {ver}, this reader understands "
                                 f"{' and '.join(map(str, VERSIONS))}; re-export the model with "
                                 "postprocess/surrogate/export.py")
        attrs = {"version": ver}
        for k in ("d_model", "heads", "layers", "mlp_ratio", "point_features", "param_features", "outputs",
                  "nx", "ny"):
            if k not in f.attrs:
                raise ModelFileError(f"{path}: attribute '{k}' is missing")
            attrs[k] = int(f.attrs[k])
        for k in ("x0", "x1", "y0", "y1"):
            if k not in f.attrs:
                raise ModelFileError(f"{path}: attribute '{k}' is missing")
            attrs[k] = float(f.attrs[k])
        pool_heads = None
        if ver >= 2:
            for k in ("coefficients", "pool_heads"):
                if k not in f.attrs:
                    raise ModelFileError(f"{path}: attribute '{k}' is missing (version 2 has the coefficient head)")
                attrs[k] = int(f.attrs[k])
            if attrs["pool_heads"] < 1:
                raise ModelFileError(f"{path}: attribute 'pool_heads' is {attrs['pool_heads']}, expected >= 1")
            pool_heads = attrs["pool_heads"]
        for k, want in (("point_features", 4), ("param_features", 5), ("outputs", 3)):
            if k in attrs and attrs[k] != want:
                raise ModelFileError(f"{path}: attribute '{k}' is {attrs[k]}, expected {want}")
        if "coefficients" in attrs and attrs["coefficients"] not in COEFFICIENTS:
            raise ModelFileError(f"{path}: attribute 'coefficients' is {attrs['coefficients']}, expected 2 (C_L, C_D) "
                                 "or 3 (and C_M)")
        K = attrs.get("coefficients", 2)
        d, heads, layers, mlp = attrs["d_model"], attrs["heads"], attrs["layers"], attrs["mlp_ratio"]
        if d <= 0 or heads <= 0 or layers <= 0 or mlp <= 0 or d % heads:
            raise ModelFileError(f"{path}: d_model {d}, heads {heads}, layers {layers}, mlp_ratio {mlp}: "
                                 "all must be positive and d_model a multiple of heads")

        def get(name, shape):
            if name not in f:
                raise ModelFileError(f"{path}: dataset '{name}' is missing")
            ds = f[name]
            if tuple(ds.shape) != tuple(shape):
                raise ModelFileError(f"{path}: dataset '{name}' has shape {tuple(ds.shape)}, expected "
                                     f"{tuple(shape)}")
            return np.asarray(ds[()], np.float64)

        norm = {}
        norms = (("point", 4), ("param", 5), ("out", 3)) + ((("coef", K),) if ver >= 2 else ())
        for n, k in norms:
            for s in ("mean", "std"):
                norm[f"{n}_{s}"] = get(f"norm/{n}_{s}", (k,))
        weights = {n: get("weights/" + n, s) for n, s in expected_shapes(d, heads, layers, mlp, pool_heads, K).items()}
        t = attrs["nx"] * attrs["ny"]
        ref = {"points": get("reference/points", (t, 4)), "params": get("reference/params", (5,)),
               "output": get("reference/output", (t, 3))}
        if ver >= 2:
            ref["coefficients"] = get("reference/coefficients", (K,))
    return {"attrs": attrs, "norm": norm, "weights": weights, "reference": ref}


def relative_error(a, b):
    """max over output channels of ||a_c - b_c|| / ||b_c||."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return float(max(np.linalg.norm(a[:, c] - b[:, c]) / max(np.linalg.norm(b[:, c]), 1e-30)
                     for c in range(b.shape[1])))


def coefficient_error(a, b):
    """||a − b|| / ||b|| of the (cl, cd) vectors (Cd > 0 keeps ||b|| away from zero)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def check(path):
    """The larger of the fields' and (version 2) the coefficients' relative error against /reference."""
    m = load(path)
    out, coef = forward(m, m["reference"]["points"], m["reference"]["params"])
    err = relative_error(out, m["reference"]["output"])
    if coef is not None:
        err = max(err, coefficient_error(coef, m["reference"]["coefficients"]))
    return err


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        err = check(argv[1])
    except ModelFileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"numpy forward vs /reference/output: relative error {err:.3e}")
    return 0 if err <= 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
