"""Export a trained surrogate to model.h5 (SCHEMA.md), the file `aerolbm predict` reads.

    python3 export.py --model DIR/model.pt --dataset dataset.h5 --out model.h5 [--case K]

Writes version 2 (the fields and the C_L, C_D coefficient head). The reference pair is the first test-split case
(or --case K): its raw point features and params and the model's raw outputs (fields and coefficients) computed by
PyTorch on the CPU in fp32. After writing, the file is re-read and the outputs recomputed with numpy_forward.py (no
torch) and compared (the larger of: max over u, v, p of ||a − b|| / ||b||, and ||a − b|| / ||b|| of (cl, cd)):
above 1e-4 export fails (exit 1, file removed); between 1e-5 and 1e-4 it warns and keeps the file."""
import argparse
import os
import sys

import h5py
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import Dataset, DatasetError  # noqa: E402
from inference import ConfigError, load_trained, predict  # noqa: E402
from model import exported_weights  # noqa: E402
import numpy_forward  # noqa: E402

TOLERANCE = 1e-5  # expected: fp32 PyTorch vs float64 numpy
HARD_LIMIT = 1e-4  # beyond this the file is wrong, not rounded (the C++ CPU inference check is 1e-4)


def write_model_h5(path, model, cfg, norm, grid, ref_points, ref_params, ref_output, ref_coefficients):
    tmp = path + ".tmp"
    with h5py.File(tmp, "w") as f:
        f.attrs["format"] = numpy_forward.FORMAT
        f.attrs["version"] = np.int64(numpy_forward.VERSION)
        for k in ("d_model", "heads", "layers", "mlp_ratio"):
            f.attrs[k] = np.int64(cfg[k])
        f.attrs["point_features"] = np.int64(4)
        f.attrs["param_features"] = np.int64(5)
        f.attrs["outputs"] = np.int64(3)
        f.attrs["coefficients"] = np.int64(model.coef.outputs)
        f.attrs["pool_heads"] = np.int64(cfg["coef_pool_heads"])
        f.attrs["nx"] = np.int64(grid["nx"])
        f.attrs["ny"] = np.int64(grid["ny"])
        for k in ("x0", "x1", "y0", "y1"):
            f.attrs[k] = float(grid[k])
        for k, v in norm.items():
            f.create_dataset("norm/" + k, data=np.asarray(v, np.float32))
        for k, v in exported_weights(model).items():
            f.create_dataset("weights/" + k, data=v)
        f.create_dataset("reference/points", data=np.asarray(ref_points, np.float32))
        f.create_dataset("reference/params", data=np.asarray(ref_params, np.float32))
        f.create_dataset("reference/output", data=np.asarray(ref_output, np.float32))
        f.create_dataset("reference/coefficients", data=np.asarray(ref_coefficients, np.float32))
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="model.pt from train.py")
    ap.add_argument("--dataset", required=True, help="the dataset the reference case is taken from")
    ap.add_argument("--out", required=True, help="model.h5 to write")
    ap.add_argument("--case", type=int, default=None, help="dataset row of the reference case")
    a = ap.parse_args(argv)
    try:
        ds = Dataset(a.dataset)
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        model, cfg, norm, grid = load_trained(a.model, "cpu")
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if (grid["nx"], grid["ny"]) != (ds.nx, ds.ny):
        print(f"error: {a.model} was trained on a {grid['nx']}x{grid['ny']} grid, {a.dataset} has "
              f"{ds.nx}x{ds.ny}", file=sys.stderr)
        return 2
    if a.case is not None:
        if not 0 <= a.case < ds.n:
            print(f"error: --case {a.case} is outside 0..{ds.n - 1}", file=sys.stderr)
            return 2
        k = a.case
    else:
        test = np.nonzero(ds.split == cfg["test_split"])[0]
        k = int(test[0]) if len(test) else 0
    # The reference params are stored as float32; compute the reference from exactly those values.
    ref_points = ds.points([k]).astype(np.float32)
    ref_params = ds.params[[k]].astype(np.float32).astype(np.float64)
    out, coef = predict(model, norm, ref_points, ref_params, torch.device("cpu"))
    write_model_h5(a.out, model, cfg, norm, grid, ref_points[0], ref_params[0], out[0], coef[0])
    try:
        err = numpy_forward.check(a.out)
    except numpy_forward.ModelFileError as e:
        os.remove(a.out)
        print(f"error: the file just written does not read back: {e}", file=sys.stderr)
        return 1
    size = os.path.getsize(a.out)
    print(f"wrote {a.out} ({size / 1e6:.2f} MB), reference case {k} (params {ds.params[k].tolist()}; "
          f"head Cl {coef[0, 0]:.4f}, Cd {coef[0, 1]:.4f}"
          + (f", Cm {coef[0, 2]:.4f}" if coef.shape[1] > 2 else "")
          + f", solver {ds.cl[k]:.4f}, {ds.cd[k]:.4f}"
          + (f", {ds.cm[k]:.4f}" if ds.cm is not None else "") + "); "
          f"numpy forward vs PyTorch: relative error {err:.2e} (tolerance {TOLERANCE:g})")
    if not err <= HARD_LIMIT:
        os.remove(a.out)
        print(f"error: numpy_forward.py does not reproduce the PyTorch output (relative error {err:.2e} > "
              f"{HARD_LIMIT:g}); model.h5 removed", file=sys.stderr)
        return 1
    if err > TOLERANCE:
        print(f"warning: relative error {err:.2e} is above {TOLERANCE:g} (fp32 rounding over {len(out)} tokens); "
              f"the file is kept (aerolbm predict's CPU check is 1e-4)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
