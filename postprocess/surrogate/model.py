"""The surrogate network of SCHEMA.md ("model.h5"): a pre-norm transformer over point tokens, conditioned on the
flow parameters. Runs on PyTorch 1.13 (explicit softmax attention) and 2.x (F.scaled_dot_product_attention); both
paths give the same numbers to fp32 rounding. numpy_forward.py is the torch-free twin of forward()."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

POINT_FEATURES = 4  # x, y, sdf, mask
PARAM_FEATURES = 5  # camber, camber_position, thickness, aoa_deg, log10(reynolds)
OUTPUTS = 3  # u, v, p

HAS_SDPA = hasattr(F, "scaled_dot_product_attention")


def attention(q, k, v, use_sdpa=None, query_chunk=2048):
    """Full softmax attention, q/k/v [B, H, T, d], scale 1/sqrt(d). The explicit path works on chunks of queries
    so that an 8192-token grid on the CPU never holds more than B*H*query_chunk*T scores at once."""
    if use_sdpa is None:
        use_sdpa = HAS_SDPA
    if use_sdpa:
        return F.scaled_dot_product_attention(q, k, v)
    scale = 1.0 / math.sqrt(q.shape[-1])
    kt = k.transpose(-2, -1)
    outs = []
    for s in range(0, q.shape[-2], query_chunk):
        w = torch.softmax(torch.matmul(q[..., s:s + query_chunk, :], kt) * scale, dim=-1)
        outs.append(torch.matmul(w, v))
    return torch.cat(outs, dim=-2)


class Block(nn.Module):
    def __init__(self, d_model, heads, mlp_ratio):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d_model, eps=1e-5)
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model, eps=1e-5)
        self.mlp = nn.Sequential(nn.Linear(d_model, mlp_ratio * d_model), nn.GELU(),
                                 nn.Linear(mlp_ratio * d_model, d_model))

    def forward(self, h, use_sdpa=None):
        b, t, d = h.shape
        a = self.ln1(h)

        def split(x):
            return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

        y = attention(split(self.q(a)), split(self.k(a)), split(self.v(a)), use_sdpa)
        h = h + self.o(y.transpose(1, 2).reshape(b, t, d))
        return h + self.mlp(self.ln2(h))


class Surrogate(nn.Module):
    """forward(points [B, T, 4], params [B, 5]) -> [B, T, 3], all normalised (see Normaliser)."""

    def __init__(self, d_model=128, heads=4, layers=4, mlp_ratio=4):
        super().__init__()
        if d_model % heads:
            raise ValueError(f"d_model {d_model} is not a multiple of heads {heads}")
        self.d_model, self.heads, self.layers, self.mlp_ratio = d_model, heads, layers, mlp_ratio
        self.embed = nn.Sequential(nn.Linear(POINT_FEATURES, d_model), nn.GELU(), nn.Linear(d_model, d_model))
        self.cond = nn.Sequential(nn.Linear(PARAM_FEATURES, d_model), nn.GELU(), nn.Linear(d_model, d_model))
        self.blocks = nn.ModuleList([Block(d_model, heads, mlp_ratio) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d_model, eps=1e-5)
        self.head = nn.Linear(d_model, OUTPUTS)

    def forward(self, points, params, use_sdpa=None):
        h = self.embed(points) + self.cond(params)[:, None, :]
        for blk in self.blocks:
            h = blk(h, use_sdpa)
        return self.head(self.ln_f(h))


def make_model(cfg):
    return Surrogate(cfg["d_model"], cfg["heads"], cfg["layers"], cfg["mlp_ratio"])


def exported_weights(model):
    """{schema name: numpy float32 array} with the names of SCHEMA.md ('W'/'b', 'gamma'/'beta')."""
    out = {}
    for name, t in model.state_dict().items():
        parts = name.split(".")
        leaf = parts[-1]
        is_ln = any(p in ("ln1", "ln2", "ln_f") for p in parts)
        if is_ln:
            leaf = {"weight": "gamma", "bias": "beta"}[leaf]
        else:
            leaf = {"weight": "W", "bias": "b"}[leaf]
        out[".".join(parts[:-1] + [leaf])] = t.detach().cpu().float().numpy()
    return out


def load_exported_weights(model, weights):
    """Inverse of exported_weights: fills model from {schema name: array}."""
    sd = {}
    for name in model.state_dict():
        parts = name.split(".")
        is_ln = any(p in ("ln1", "ln2", "ln_f") for p in parts)
        leaf = ({"weight": "gamma", "bias": "beta"} if is_ln else {"weight": "W", "bias": "b"})[parts[-1]]
        sd[name] = torch.as_tensor(weights[".".join(parts[:-1] + [leaf])])
    model.load_state_dict(sd)
    return model
