"""The surrogate network of SCHEMA.md ("model.h5"): a pre-norm transformer over point tokens, conditioned on the
flow parameters, with two outputs: u, v, Cp at every point (a per-token head) and C_L, C_D of the section (a
pooled head: attention pooling over the tokens with learned scores, concatenated with the conditioning vector, and a
small MLP). Runs on PyTorch 1.13 (explicit softmax attention) and 2.x (F.scaled_dot_product_attention); both
paths give the same numbers to fp32 rounding. numpy_forward.py is the torch-free twin of forward()."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

POINT_FEATURES = 4  # x, y, sdf, mask
PARAM_FEATURES = 5  # camber, camber_position, thickness, aoa_deg, log10(reynolds)
OUTPUTS = 3  # u, v, p
COEFFICIENTS = 2  # cl, cd (the solver's momentum-exchange values); 3 with cm where the dataset has it
COEFFICIENT_NAMES = ("cl", "cd", "cm")

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


class CoefficientHead(nn.Module):
    """C_L, C_D from the final normalised tokens a [B, T, D] and the conditioning vector g [B, D] (SCHEMA.md):
    P pooling heads, each a softmax over the tokens of a learned score s_p(a_t) = w_p·a_t + b_p (attention pooling
    with a learned query, the key projection folded into w_p), pooled_p = Σ_t softmax_t(s_p) a_t; then
    MLP(concat(pooled_0..pooled_{P-1}, g)) with hidden width D and GELU -> normalised coefficients [B, K]: C_L, C_D
    and, where the training data has it, C_M (K = 3)."""

    def __init__(self, d_model, pool_heads, outputs=COEFFICIENTS):
        super().__init__()
        self.pool_heads = pool_heads
        self.outputs = outputs
        self.score = nn.Linear(d_model, pool_heads)
        self.mlp = nn.Sequential(nn.Linear((pool_heads + 1) * d_model, d_model), nn.GELU(),
                                 nn.Linear(d_model, outputs))

    def forward(self, a, g):
        # fp32 also under bf16 autocast: a few small layers, and a sum over thousands of tokens
        with torch.autocast(device_type=a.device.type, enabled=False):
            a, g = a.float(), g.float()
            w = torch.softmax(self.score(a), dim=1)  # [B, T, P], over the tokens
            pooled = torch.einsum("btp,btd->bpd", w, a)  # [B, P, D]
            z = torch.cat([pooled.flatten(1), g], dim=-1)  # [B, (P + 1) D]
            return self.mlp(z)


class Surrogate(nn.Module):
    """forward(points [B, T, 4], params [B, 5]) -> (fields [B, T, 3], coefficients [B, K]), all normalised (see
    data.compute_norm); K = 2 (C_L, C_D) or 3 (and C_M)."""

    def __init__(self, d_model=128, heads=4, layers=4, mlp_ratio=4, pool_heads=4, coefficients=COEFFICIENTS):
        super().__init__()
        if d_model % heads:
            raise ValueError(f"d_model {d_model} is not a multiple of heads {heads}")
        self.d_model, self.heads, self.layers, self.mlp_ratio = d_model, heads, layers, mlp_ratio
        self.pool_heads = pool_heads
        self.embed = nn.Sequential(nn.Linear(POINT_FEATURES, d_model), nn.GELU(), nn.Linear(d_model, d_model))
        self.cond = nn.Sequential(nn.Linear(PARAM_FEATURES, d_model), nn.GELU(), nn.Linear(d_model, d_model))
        self.blocks = nn.ModuleList([Block(d_model, heads, mlp_ratio) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d_model, eps=1e-5)
        self.head = nn.Linear(d_model, OUTPUTS)
        self.coef = CoefficientHead(d_model, pool_heads, coefficients)

    def forward(self, points, params, use_sdpa=None):
        g = self.cond(params)
        h = self.embed(points) + g[:, None, :]
        for blk in self.blocks:
            h = blk(h, use_sdpa)
        a = self.ln_f(h)
        return self.head(a), self.coef(a, g)


def make_model(cfg):
    # "coefficients" is set by train.py from the dataset (2: C_L, C_D; 3: and C_M), not by config.json.
    return Surrogate(cfg["d_model"], cfg["heads"], cfg["layers"], cfg["mlp_ratio"], cfg["coef_pool_heads"],
                     cfg.get("coefficients", COEFFICIENTS))


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
