"""Evaluate a trained surrogate on the test and angle-of-attack extrapolation splits of a dataset.h5.

    python3 evaluate.py --model DIR/model.pt --dataset dataset.h5 --out DIR [--device auto|cpu|cuda]
    python3 evaluate.py --model model.h5 --dataset fresh.h5 --out DIR      (the exported model, as predict runs it)

Writes DIR/metrics.json and DIR/metrics.md. Per split, over fluid points (mask 0) of every case on the full grid:
- velocity error: ||(u,v)_pred − (u,v)_sim|| / ||(u,v)_sim|| (the 2-vector field), mean and max over cases;
- pressure error: ||Cp_pred − Cp_sim|| / ||Cp_sim||, mean and max;
- Cl and Cd from the predicted fields by the method of SCHEMA.md (coefficients.py), compared with the solver's
  Cl, Cd (/coefficients) and with the same method applied to the solver's sampled fields (which isolates the
  network's error from the method's). Cl relative error = mean|Cl_pred − Cl_ref| / mean|Cl_ref| over the split
  (a per-case ratio is meaningless where Cl crosses zero; the median per-case ratio over |Cl_ref| > 0.1 is given
  too), and the Spearman rank correlation of Cl_pred with Cl_ref;
- Cl and Cd of the network's coefficient head (SCHEMA.md, version 2), compared with the solver's Cl, Cd: the same
  relative error (mean|pred − ref| / mean|ref|), median per-case ratio and Spearman correlation, for both.
Inference runs in fp32 (no autocast)."""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coefficients import Grid, force_coefficients  # noqa: E402
from data import Dataset, DatasetError  # noqa: E402
from inference import ConfigError, load_trained, pick_device, predict  # noqa: E402

TARGETS = {"velocity": 0.03, "pressure": 0.05, "cl": 0.05, "spearman": 0.99, "head_cl": 0.02, "head_cd": 0.03}


def ranks(a):
    """Ranks 0..n−1 with ties averaged."""
    a = np.asarray(a, np.float64)
    order = np.argsort(a, kind="mergesort")
    r = np.empty(len(a))
    r[order] = np.arange(len(a), dtype=np.float64)
    for v in np.unique(a):
        sel = a == v
        if sel.sum() > 1:
            r[sel] = r[sel].mean()
    return r


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ra -= ra.mean()
    rb -= rb.mean()
    den = np.sqrt((ra * ra).sum() * (rb * rb).sum())
    return float((ra * rb).sum() / den) if den > 0 else float("nan")


def coef_error(pred, ref):
    pred, ref = np.asarray(pred), np.asarray(ref)
    agg = float(np.mean(np.abs(pred - ref)) / max(np.mean(np.abs(ref)), 1e-12))
    big = np.abs(ref) > 0.1
    med = float(np.median(np.abs(pred[big] - ref[big]) / np.abs(ref[big]))) if big.any() else float("nan")
    return agg, med


def evaluate_split(model, norm, ds, idx, device):
    grid = Grid(ds.nx, ds.ny, ds.x0, ds.x1, ds.y0, ds.y1)
    t0 = time.perf_counter()
    out, coef = predict(model, norm, ds.points(idx), ds.params[idx], device, batch=1)
    if device.type == "cuda":
        torch.cuda.synchronize()
    infer_s = (time.perf_counter() - t0) / len(idx)
    tgt = ds.targets(idx)
    fl = ds.fluid(idx)
    rows = []
    for n, k in enumerate(idx):
        f = fl[n]
        vel_err = np.linalg.norm(out[n, f, :2] - tgt[n, f, :2]) / np.linalg.norm(tgt[n, f, :2])
        p_err = np.linalg.norm(out[n, f, 2] - tgt[n, f, 2]) / max(np.linalg.norm(tgt[n, f, 2]), 1e-12)
        shape = (ds.ny, ds.nx)
        re = ds.params[k, 4]
        mk = ds.mask[k]
        cp = force_coefficients(*(out[n, :, c].reshape(shape) for c in range(3)), mk, grid,
                                ds.surf_x[k], ds.surf_y[k], re)
        cs = force_coefficients(ds.u[k], ds.v[k], ds.p[k], mk, grid, ds.surf_x[k], ds.surf_y[k], re)
        rows.append({"case": int(k), "params": [float(x) for x in ds.params[k]],
                     "velocity_rel_l2": float(vel_err), "pressure_rel_l2": float(p_err),
                     "cl_solver": float(ds.cl[k]), "cd_solver": float(ds.cd[k]),
                     "cl_fields": cs["cl"], "cd_fields": cs["cd"], "cl_pred": cp["cl"], "cd_pred": cp["cd"],
                     "cl_p_pred": cp["cl_p"], "cd_p_pred": cp["cd_p"],
                     "cl_head": float(coef[n, 0]), "cd_head": float(coef[n, 1])})
        if coef.shape[1] > 2:  # the head predicts the pitching moment too
            rows[-1].update({"cm_solver": float(ds.cm[k]), "cm_head": float(coef[n, 2])})
    col = {k: np.array([r[k] for r in rows]) for k in rows[0] if k not in ("case", "params")}
    cl_err, cl_med = coef_error(col["cl_pred"], col["cl_solver"])
    cl_err_f, cl_med_f = coef_error(col["cl_pred"], col["cl_fields"])
    cd_err, _ = coef_error(col["cd_pred"], col["cd_solver"])
    cd_err_f, _ = coef_error(col["cd_pred"], col["cd_fields"])
    meth_cl, _ = coef_error(col["cl_fields"], col["cl_solver"])
    meth_cd, _ = coef_error(col["cd_fields"], col["cd_solver"])
    head_cl, head_cl_med = coef_error(col["cl_head"], col["cl_solver"])
    head_cd, head_cd_med = coef_error(col["cd_head"], col["cd_solver"])
    summary = {
        "cases": len(idx),
        "velocity_rel_l2_mean": float(col["velocity_rel_l2"].mean()),
        "velocity_rel_l2_max": float(col["velocity_rel_l2"].max()),
        "pressure_rel_l2_mean": float(col["pressure_rel_l2"].mean()),
        "pressure_rel_l2_max": float(col["pressure_rel_l2"].max()),
        "cl_rel_error_vs_solver": cl_err, "cl_median_case_rel_error_vs_solver": cl_med,
        "cl_spearman_vs_solver": spearman(col["cl_pred"], col["cl_solver"]),
        "cl_rel_error_vs_fields": cl_err_f, "cl_median_case_rel_error_vs_fields": cl_med_f,
        "cl_spearman_vs_fields": spearman(col["cl_pred"], col["cl_fields"]),
        "cd_rel_error_vs_solver": cd_err, "cd_rel_error_vs_fields": cd_err_f,
        "cd_spearman_vs_solver": spearman(col["cd_pred"], col["cd_solver"]),
        "method_cl_rel_error_fields_vs_solver": meth_cl, "method_cd_rel_error_fields_vs_solver": meth_cd,
        "head_cl_rel_error_vs_solver": head_cl, "head_cl_median_case_rel_error_vs_solver": head_cl_med,
        "head_cl_spearman_vs_solver": spearman(col["cl_head"], col["cl_solver"]),
        "head_cd_rel_error_vs_solver": head_cd, "head_cd_median_case_rel_error_vs_solver": head_cd_med,
        "head_cd_spearman_vs_solver": spearman(col["cd_head"], col["cd_solver"]),
        "inference_seconds_per_case": infer_s,
        "solver_seconds_per_case": float(np.nanmean(ds.seconds[idx])) if len(idx) else float("nan"),
    }
    if "cm_head" in col:
        # C_m is small and changes sign (|C_m| ~ 0.01–0.05): its error is the mean absolute error, also over the
        # mean |C_m| (the relative figure the other coefficients use).
        head_cm, head_cm_med = coef_error(col["cm_head"], col["cm_solver"])
        summary.update({"head_cm_abs_error_vs_solver": float(np.mean(np.abs(col["cm_head"] - col["cm_solver"]))),
                        "head_cm_rel_error_vs_solver": head_cm,
                        "head_cm_spearman_vs_solver": spearman(col["cm_head"], col["cm_solver"])})
    return summary, rows


def pct(x):
    return "–" if not np.isfinite(x) else f"{100 * x:.2f} %"


def markdown(results, meta):
    lines = [f"Surrogate evaluation: {meta['model']} on {meta['dataset']} ({meta['device']}, fp32).", "",
             "| split | cases | velocity rel. L2 (mean / max) | pressure rel. L2 (mean / max) | Cl rel. error "
             "| Cl Spearman | Cd rel. error | Cl, Cd rel. error of the method on solver fields |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in results.items():
        lines.append(
            f"| {name} | {s['cases']} | {pct(s['velocity_rel_l2_mean'])} / {pct(s['velocity_rel_l2_max'])} "
            f"| {pct(s['pressure_rel_l2_mean'])} / {pct(s['pressure_rel_l2_max'])} "
            f"| {pct(s['cl_rel_error_vs_solver'])} (vs fields {pct(s['cl_rel_error_vs_fields'])}) "
            f"| {s['cl_spearman_vs_solver']:.4f} | {pct(s['cd_rel_error_vs_solver'])} "
            f"(vs fields {pct(s['cd_rel_error_vs_fields'])}) "
            f"| {pct(s['method_cl_rel_error_fields_vs_solver'])}, {pct(s['method_cd_rel_error_fields_vs_solver'])} |")
    lines += ["", "Coefficient head (the network's own Cl, Cd, what `aerolbm predict` reports as cl, cd) against "
              "the solver's momentum-exchange Cl, Cd, beside the field-integrated values above (cl_field, cd_field):",
              "", "| split | cases | Cl rel. error (median case) | Cl Spearman | Cd rel. error (median case) "
              "| Cd Spearman | field-integrated Cl, Cd rel. error |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in results.items():
        lines.append(
            f"| {name} | {s['cases']} | {pct(s['head_cl_rel_error_vs_solver'])} "
            f"({pct(s['head_cl_median_case_rel_error_vs_solver'])}) | {s['head_cl_spearman_vs_solver']:.4f} "
            f"| {pct(s['head_cd_rel_error_vs_solver'])} ({pct(s['head_cd_median_case_rel_error_vs_solver'])}) "
            f"| {s['head_cd_spearman_vs_solver']:.4f} "
            f"| {pct(s['cl_rel_error_vs_solver'])}, {pct(s['cd_rel_error_vs_solver'])} |")
    lines += ["", f"Targets (issue 5, test split): velocity ≤ {pct(TARGETS['velocity'])}, pressure ≤ "
              f"{pct(TARGETS['pressure'])}, Cl ≤ {pct(TARGETS['cl'])} with Spearman ≥ {TARGETS['spearman']}.",
              "Cl/Cd errors: mean |pred − ref| / mean |ref| over the split; 'vs fields' compares with the same "
              "Cl/Cd method applied to the solver's sampled fields (the network's error alone); the last column "
              "is that method's own error against the solver's momentum-exchange Cl, Cd.",
              f"Targets (issue 18, test split, coefficient head): Cl ≤ {pct(TARGETS['head_cl'])}, "
              f"Cd ≤ {pct(TARGETS['head_cd'])}; 'median case' is the median of |pred − ref| / |ref| over cases with "
              "|ref| > 0.1.", ""]
    if all("head_cm_abs_error_vs_solver" in s for s in results.values()):
        lines += ["Pitching moment about the quarter chord (the head's third output) against the solver's:", "",
                  "| split | cases | Cm mean abs. error | Cm error / mean abs. Cm | Cm Spearman |",
                  "| --- | --- | --- | --- | --- |"]
        for name, s in results.items():
            lines.append(f"| {name} | {s['cases']} | {s['head_cm_abs_error_vs_solver']:.5f} "
                         f"| {pct(s['head_cm_rel_error_vs_solver'])} | {s['head_cm_spearman_vs_solver']:.4f} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="model.pt from train.py, or model.h5 from export.py")
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="auto")
    a = ap.parse_args(argv)
    try:
        ds = Dataset(a.dataset)
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    device = pick_device(a.device)
    try:
        model, cfg, norm, grid = load_trained(a.model, device)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if (grid["nx"], grid["ny"]) != (ds.nx, ds.ny):
        print(f"error: {a.model} was trained on a {grid['nx']}x{grid['ny']} grid, {a.dataset} has "
              f"{ds.nx}x{ds.ny}", file=sys.stderr)
        return 2
    results, per_case = {}, {}
    for name, split in (("test", cfg["test_split"]), ("extrapolation", cfg["extrapolation_split"])):
        idx = np.nonzero(ds.split == split)[0]
        if len(idx) == 0:
            continue
        results[name], per_case[name] = evaluate_split(model, norm, ds, idx, device)
    meta = {"model": a.model, "dataset": a.dataset, "device": str(device), "torch": torch.__version__}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "metrics.json"), "w") as f:
        json.dump({"meta": meta, "targets": TARGETS, "splits": results, "cases": per_case}, f, indent=1)
    md = markdown(results, meta)
    with open(os.path.join(a.out, "metrics.md"), "w") as f:
        f.write(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
