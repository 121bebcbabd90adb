"""Train the flow-prediction surrogate on a dataset.h5 from `aerolbm sweep`.

    python3 train.py --config config.json --dataset dataset.h5 --out DIR [--device auto|cpu|cuda] [--resume]

Writes DIR/model.pt (final weights + config + normalisation), DIR/checkpoint.pt (every checkpoint_every epochs,
for --resume), DIR/train_log.csv (one row per epoch, the fields' and the coefficients' losses apart) and
DIR/train_summary.json. Loss: mean squared error of the normalised u, v, p over fluid points (mask 0), plus
coef_loss_weight times the mean squared error of the coefficient head's normalised C_L, C_D against the solver's
momentum-exchange values (/coefficients/cl, cd). Training may use random token subsets of each case
(train_tokens > 0; the pooling then sees that subset); test-loss monitoring always uses the full grid. CUDA is
used when present (bf16 autocast if amp_bf16); the CPU path is fp32 and deterministic."""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import Dataset, DatasetError, compute_norm  # noqa: E402
from inference import ConfigError, load_checkpoint, load_config, normalise_inputs, pick_device, save_atomic  # noqa: E402
from model import make_model  # noqa: E402


def lr_at(step, total, cfg):
    warm = max(1, int(round(cfg["warmup_fraction"] * total)))
    if step < warm:
        return cfg["lr"] * (step + 1) / warm
    prog = min(1.0, (step - warm) / max(1, total - warm))
    return cfg["lr"] * 0.5 * (1.0 + math.cos(math.pi * prog))


def masked_mse(pred, target, fluid):
    err = ((pred.float() - target) ** 2).sum(-1) * fluid
    return err.sum() / (fluid.sum() * pred.shape[-1]).clamp_min(1.0)


def coef_mse(pred, target):
    return ((pred.float() - target) ** 2).mean()


def tensors(ds, idx, norm, device):
    """Normalised points, params, field targets, fluid mask and coefficient targets of cases idx, on device."""
    p, c = normalise_inputs(ds.points(idx), ds.params[idx], norm)
    y = ((ds.targets(idx) - norm["out_mean"]) / norm["out_std"]).astype(np.float32)
    m = ds.fluid(idx).astype(np.float32)
    k = ((ds.coefficients(idx) - norm["coef_mean"]) / norm["coef_std"]).astype(np.float32)
    return [torch.from_numpy(a).to(device) for a in (p, c, y, m, k)]


@torch.no_grad()
def full_grid_loss(model, data, device, amp):
    """(fields' loss, coefficients' loss) over the cases of data on the full grid."""
    p, c, y, m, k = data
    total, count, coef_total = 0.0, 0.0, 0.0
    for s in range(len(p)):
        with autocast(device, amp):
            pred, coef = model(p[s:s + 1], c[s:s + 1])
        fl = m[s:s + 1]
        total += float(((pred.float() - y[s:s + 1]) ** 2).sum(-1).mul(fl).sum())
        count += float(fl.sum()) * 3
        coef_total += float(((coef.float() - k[s:s + 1]) ** 2).sum())
    return total / max(count, 1.0), coef_total / max(k.numel(), 1)


class autocast:
    """bf16 autocast on CUDA when asked, nothing otherwise (torch 1.13 and 2.x)."""

    def __init__(self, device, enabled):
        self.ctx = torch.autocast("cuda", dtype=torch.bfloat16) if enabled and device.type == "cuda" else None

    def __enter__(self):
        if self.ctx is not None:
            self.ctx.__enter__()

    def __exit__(self, *a):
        if self.ctx is not None:
            self.ctx.__exit__(*a)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    a = ap.parse_args(argv)
    try:
        cfg = load_config(a.config)
        ds = Dataset(a.dataset)
    except (ConfigError, DatasetError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    # The head's outputs follow the data: C_L, C_D, and C_M where the dataset has the pitching moment.
    cfg = dict(cfg, coefficients=ds.coefficient_count)
    train_idx = np.nonzero(np.isin(ds.split, cfg["train_splits"]))[0]
    test_idx = np.nonzero(ds.split == cfg["test_split"])[0]
    if len(train_idx) == 0:
        print(f"error: {a.dataset}: no cases in the training splits {cfg['train_splits']}", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    device = pick_device(a.device)
    amp = bool(cfg["amp_bf16"]) and device.type == "cuda"
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])
    if device.type == "cpu":
        torch.use_deterministic_algorithms(True)
    else:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True

    norm = compute_norm(ds, train_idx)
    grid = {"nx": ds.nx, "ny": ds.ny, "x0": ds.x0, "x1": ds.x1, "y0": ds.y0, "y1": ds.y1}
    train = tensors(ds, train_idx, norm, device)
    test = tensors(ds, test_idx, norm, device) if len(test_idx) else None
    model = make_model(cfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    n_params = sum(p.numel() for p in model.parameters())

    T = ds.nx * ds.ny
    tokens = cfg["train_tokens"] if 0 < cfg["train_tokens"] < T else T
    steps_per_epoch = math.ceil(len(train_idx) / cfg["batch"])
    epochs = cfg["epochs"]
    start_epoch, step, elapsed_before = 0, 0, 0.0
    log_path = os.path.join(a.out, "train_log.csv")
    ck_path = os.path.join(a.out, "checkpoint.pt")
    if a.resume and os.path.exists(ck_path):
        ck = load_checkpoint(ck_path)
        model.load_state_dict(ck["state_dict"])
        opt.load_state_dict(ck["optimizer"])
        start_epoch, step, epochs, elapsed_before = ck["epoch"], ck["step"], ck["epochs"], ck["seconds"]
        print(f"resuming at epoch {start_epoch} of {epochs}")
    else:
        with open(log_path, "w") as f:
            f.write("epoch,step,lr,train_loss,train_coef_loss,test_loss,test_coef_loss,seconds\n")
    print(f"device {device}{' (bf16 autocast)' if amp else ''}, torch {torch.__version__}, {n_params} parameters, "
          f"{len(train_idx)} train / {len(test_idx)} test cases, {T} tokens per case ({tokens} in training), "
          f"{epochs} epochs of {steps_per_epoch} steps", flush=True)

    budget = cfg["max_minutes"] * 60.0
    t0 = time.perf_counter() - elapsed_before
    test_loss, test_coef_loss = float("nan"), float("nan")
    first_elapsed = elapsed_before
    ep_loss, ep_coef, ep_n = 0.0, 0.0, 0
    w_coef = cfg["coef_loss_weight"]
    for epoch in range(start_epoch, epochs):
        model.train()
        g = torch.Generator(device="cpu")
        g.manual_seed(cfg["seed"] * 100003 + epoch)
        order = torch.randperm(len(train_idx), generator=g)
        ep_loss, ep_coef, ep_n = 0.0, 0.0, 0
        for s in range(0, len(order), cfg["batch"]):
            b = order[s:s + cfg["batch"]].to(device)
            p, c, y, m, k = (t[b] for t in train)
            if tokens < T:
                sel = torch.rand(len(b), T, generator=g).argsort(dim=1)[:, :tokens].to(device)
                p = torch.gather(p, 1, sel[..., None].expand(-1, -1, p.shape[-1]))
                y = torch.gather(y, 1, sel[..., None].expand(-1, -1, y.shape[-1]))
                m = torch.gather(m, 1, sel)
            for group in opt.param_groups:
                group["lr"] = lr_at(step, epochs * steps_per_epoch, cfg)
            with autocast(device, amp):
                pred, coef = model(p, c)
            loss_field = masked_mse(pred, y, m)
            loss_coef = coef_mse(coef, k)
            loss = loss_field + w_coef * loss_coef
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if cfg["grad_clip"] > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["grad_clip"])
            opt.step()
            step += 1
            ep_loss += float(loss_field) * len(b)
            ep_coef += float(loss_coef) * len(b)
            ep_n += len(b)
        done = epoch + 1
        if test is not None and (done % cfg["eval_every"] == 0 or done == epochs):
            model.eval()
            test_loss, test_coef_loss = full_grid_loss(model, test, device, amp)
        elapsed = time.perf_counter() - t0
        lr_now = opt.param_groups[0]["lr"]
        with open(log_path, "a") as f:
            f.write(f"{done},{step},{lr_now:.6g},{ep_loss / ep_n:.6g},{ep_coef / ep_n:.6g},{test_loss:.6g},"
                    f"{test_coef_loss:.6g},{elapsed:.2f}\n")
        print(f"epoch {done:4d}/{epochs}  lr {lr_now:.2e}  train {ep_loss / ep_n:.5f} (coef {ep_coef / ep_n:.5f})  "
              f"test {test_loss:.5f} (coef {test_coef_loss:.5f})  {elapsed:7.1f} s", flush=True)
        # Keep within max_minutes: shrink (never grow) the epoch count from the measured pace; the cosine
        # schedule follows the new total.
        # The pace is the mean over the epochs after the first (which carries start-up costs: CUDA context,
        # kernel choice); one slow epoch (a test evaluation, a busy machine) does not cut the schedule alone.
        if done == start_epoch + 1:
            first_elapsed = elapsed
        per_epoch = (elapsed - first_elapsed) / (done - start_epoch - 1) if done > start_epoch + 1 else elapsed
        if done < epochs and (done - start_epoch >= 3 or elapsed > budget) and \
                elapsed + per_epoch * (epochs - done) > budget:
            new_epochs = max(done + 1, done + int((budget - elapsed) / max(per_epoch, 1e-9)))
            if new_epochs < epochs:
                print(f"note: {per_epoch:.2f} s per epoch; epochs reduced from {epochs} to {new_epochs} to stay "
                      f"within max_minutes {cfg['max_minutes']}", flush=True)
                epochs = new_epochs
        if done % cfg["checkpoint_every"] == 0 or done >= epochs:
            save_atomic({"state_dict": model.state_dict(), "optimizer": opt.state_dict(), "epoch": done,
                         "step": step, "epochs": epochs, "seconds": elapsed, "config": cfg}, ck_path)
        if done >= epochs:
            break

    seconds = time.perf_counter() - t0
    state = {k: v.detach().cpu() for k, v in model.state_dict().items()}
    save_atomic({"state_dict": state, "config": cfg, "norm": {k: [float(x) for x in v] for k, v in norm.items()},
                 "grid": grid, "dataset": os.path.abspath(a.dataset)}, os.path.join(a.out, "model.pt"))
    summary = {"device": str(device), "torch": torch.__version__, "bf16": amp, "parameters": n_params,
               "epochs_planned": cfg["epochs"], "epochs_run": epochs, "steps": step, "seconds": round(seconds, 2),
               "train_cases": int(len(train_idx)), "test_cases": int(len(test_idx)), "train_tokens": tokens,
               "final_train_loss": ep_loss / max(ep_n, 1), "final_train_coef_loss": ep_coef / max(ep_n, 1),
               "final_test_loss": test_loss, "final_test_coef_loss": test_coef_loss}
    with open(os.path.join(a.out, "train_summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(f"trained {epochs} epochs in {seconds:.1f} s; wrote {os.path.join(a.out, 'model.pt')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
