"""Loading a trained checkpoint (model.pt from train.py) and predicting raw u, v, p and C_L, C_D for dataset
cases."""
import json
import os

import numpy as np
import torch

from data import param_features
from model import load_exported_weights, make_model

CONFIG_KEYS = {"d_model": int, "heads": int, "layers": int, "mlp_ratio": int, "lr": float, "weight_decay": float,
               "warmup_fraction": float, "epochs": int, "batch": int, "seed": int, "train_tokens": int,
               "grad_clip": float, "amp_bf16": bool, "max_minutes": float, "checkpoint_every": int,
               "eval_every": int, "train_splits": list, "test_split": int, "extrapolation_split": int,
               "coef_pool_heads": int, "coef_loss_weight": float}


class ConfigError(Exception):
    pass


def load_config(path):
    try:
        with open(path) as f:
            cfg = json.load(f)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror})")
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}:{e.lineno}: not valid JSON ({e.msg})")
    cfg = {k: v for k, v in cfg.items() if not k.startswith("_")}
    for k in cfg:
        if k not in CONFIG_KEYS:
            raise ConfigError(f"{path}: unknown key '{k}'; known keys: {', '.join(CONFIG_KEYS)}")
    for k, t in CONFIG_KEYS.items():
        if k not in cfg:
            raise ConfigError(f"{path}: missing key '{k}' (expected {t.__name__}); see postprocess/surrogate/config.json")
        v = cfg[k]
        if t is bool:
            ok = isinstance(v, bool)
        elif t is float:
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        else:
            ok = isinstance(v, t) and not isinstance(v, bool)
        if not ok:
            raise ConfigError(f"{path}: key '{k}' is {v!r}, expected {t.__name__}")
    if cfg["d_model"] % cfg["heads"]:
        raise ConfigError(f"{path}: d_model {cfg['d_model']} must be a multiple of heads {cfg['heads']}")
    for k in ("d_model", "heads", "layers", "mlp_ratio", "epochs", "batch", "coef_pool_heads"):
        if cfg[k] < 1:
            raise ConfigError(f"{path}: key '{k}' is {cfg[k]}, expected >= 1")
    if not cfg["coef_loss_weight"] >= 0:
        raise ConfigError(f"{path}: key 'coef_loss_weight' is {cfg['coef_loss_weight']}, expected >= 0 (the weight of "
                          "the C_L, C_D loss beside the fields' loss)")
    return cfg


def pick_device(name="auto"):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def normalise_inputs(points, params, norm):
    """Raw points [B, T, 4], raw params [B, 5] -> normalised float32 numpy arrays."""
    p = (points - norm["point_mean"]) / norm["point_std"]
    c = (param_features(params) - norm["param_mean"]) / norm["param_std"]
    return p.astype(np.float32), c.astype(np.float32)


def save_atomic(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def load_checkpoint(path):
    """torch.load of our own model.pt / checkpoint.pt (tensors, dicts, lists, numbers, strings). weights_only is
    given explicitly: PyTorch 2.6+ defaults to True, and 1.13's weights-only reader cannot read Python floats."""
    return torch.load(path, map_location="cpu", weights_only=False)


def load_exported(path, device="cpu"):
    """(model in eval mode on device, config, norm, grid dict) from a model.h5 written by export.py (version 2):
    the weights `aerolbm predict` runs, in PyTorch. The config holds the architecture and the splits' numbers
    (test 1, extrapolation 2, as config.json)."""
    import numpy_forward
    try:
        m = numpy_forward.load(path)
    except numpy_forward.ModelFileError as e:
        raise ConfigError(str(e))
    a = m["attrs"]
    if a["version"] < 2:
        raise ConfigError(f"{path}: version {a['version']} has no coefficient head; evaluate its model.pt instead")
    cfg = {"d_model": a["d_model"], "heads": a["heads"], "layers": a["layers"], "mlp_ratio": a["mlp_ratio"],
           "coef_pool_heads": a["pool_heads"], "coefficients": a["coefficients"], "test_split": 1,
           "extrapolation_split": 2}
    model = make_model(cfg)
    load_exported_weights(model, {k: np.asarray(v, np.float32) for k, v in m["weights"].items()})
    model.to(device).eval()
    grid = {k: a[k] for k in ("nx", "ny", "x0", "x1", "y0", "y1")}
    return model, cfg, {k: np.asarray(v, np.float32) for k, v in m["norm"].items()}, grid


def load_trained(path, device="cpu"):
    """(model in eval mode on device, config, norm, grid dict) from a model.pt written by train.py, or from a
    model.h5 written by export.py (load_exported)."""
    if str(path).endswith(".h5"):
        return load_exported(path, device)
    ck = load_checkpoint(path)
    if "coef_pool_heads" not in ck["config"]:
        raise ConfigError(f"{path}: a model.pt from before the coefficient head (no 'coef_pool_heads' in its "
                          "config); train it again with train.py")
    model = make_model(ck["config"])
    model.load_state_dict(ck["state_dict"])
    model.to(device).eval()
    return model, ck["config"], {k: np.asarray(v, np.float32) for k, v in ck["norm"].items()}, ck["grid"]


@torch.no_grad()
def predict(model, norm, points, params, device, batch=1, amp_bf16=False):
    """(raw u, v, p [B, T, 3], raw cl, cd [B, 2]), float32 numpy, for raw points [B, T, 4] and params [B, 5]."""
    p, c = normalise_inputs(points, params, norm)
    fields, coefs = [], []
    for s in range(0, len(p), batch):
        pt = torch.from_numpy(p[s:s + batch]).to(device)
        ct = torch.from_numpy(c[s:s + batch]).to(device)
        if amp_bf16 and device.type == "cuda":
            with torch.autocast("cuda", dtype=torch.bfloat16):
                y, k = model(pt, ct)
        else:
            y, k = model(pt, ct)
        fields.append(y.float().cpu().numpy())
        coefs.append(k.float().cpu().numpy())
    y, k = np.concatenate(fields), np.concatenate(coefs)
    return y * norm["out_std"] + norm["out_mean"], k * norm["coef_std"] + norm["coef_mean"]
