"""Reading dataset.h5 (SCHEMA.md) into arrays, building the network's raw inputs and the normalisation constants.
Shared by train.py, evaluate.py and export.py; no torch here."""
import numpy as np

try:
    import h5py
except ImportError:  # pragma: no cover - the Debian python has it; say what to install instead of a traceback
    h5py = None

PARAM_COLUMNS = ["camber", "camber_position", "thickness", "aoa_deg", "reynolds"]
SPLITS = {"train": 0, "test": 1, "extrapolation": 2}


class DatasetError(Exception):
    """A dataset file that does not match SCHEMA.md; the message names the file, the item and what to do."""


def _need(f, path, shape=None, what=""):
    if path not in f:
        raise DatasetError(f"{f.filename}: missing dataset '{path}'{what}. "
                           "Regenerate it with `aerolbm sweep SWEEP.yaml` (postprocess/surrogate/SCHEMA.md).")
    d = f[path]
    if shape is not None and tuple(d.shape) != tuple(shape):
        raise DatasetError(f"{f.filename}: '{path}' has shape {tuple(d.shape)}, expected {tuple(shape)} "
                           "(postprocess/surrogate/SCHEMA.md).")
    return d[()]


def _attr_str(v):
    return v.decode() if isinstance(v, bytes) else str(v)


class Dataset:
    """All of dataset.h5 in memory: fields [N, ny, nx], params [N, 5], split [N], surface [N, S]."""

    def __init__(self, path):
        if h5py is None:
            raise DatasetError("h5py is not installed (Debian: apt install python3-h5py)")
        try:
            f = h5py.File(path, "r")
        except OSError as e:
            raise DatasetError(f"{path}: cannot open as HDF5 ({e}). Expected a dataset.h5 from `aerolbm sweep`.")
        with f:
            fmt = _attr_str(f.attrs.get("format", ""))
            if fmt != "aerolbm-dataset":
                raise DatasetError(f"{path}: attribute 'format' is '{fmt}', expected 'aerolbm-dataset'.")
            ver = int(f.attrs.get("version", -1))
            if ver != 1:
                raise DatasetError(f"{path}: attribute 'version' is {ver}, expected 1; regenerate the dataset.")
            for a in ("nx", "ny", "x0", "x1", "y0", "y1"):
                if a not in f.attrs:
                    raise DatasetError(f"{path}: missing attribute '{a}' (the sample grid).")
            self.nx, self.ny = int(f.attrs["nx"]), int(f.attrs["ny"])
            self.x0, self.x1 = float(f.attrs["x0"]), float(f.attrs["x1"])
            self.y0, self.y1 = float(f.attrs["y0"]), float(f.attrs["y1"])
            self.sweep_yaml = _attr_str(f.attrs.get("sweep_yaml", ""))
            params = _need(f, "params")
            if params.ndim != 2 or params.shape[1] != 5:
                raise DatasetError(f"{path}: '/params' has shape {params.shape}, expected [N, 5].")
            n = params.shape[0]
            grid = (n, self.ny, self.nx)
            self.params = params.astype(np.float64)
            self.split = _need(f, "split", (n,)).astype(np.int64)
            self.u = _need(f, "fields/u", grid).astype(np.float32)
            self.v = _need(f, "fields/v", grid).astype(np.float32)
            self.p = _need(f, "fields/p", grid).astype(np.float32)
            self.sdf = _need(f, "fields/sdf", grid).astype(np.float32)
            self.mask = _need(f, "fields/mask", grid).astype(np.uint8)
            sx = _need(f, "surface/x")
            if sx.ndim != 2 or sx.shape[0] != n:
                raise DatasetError(f"{path}: '/surface/x' has shape {sx.shape}, expected [{n}, S].")
            self.surf_x = sx.astype(np.float64)
            self.surf_y = _need(f, "surface/y", sx.shape).astype(np.float64)
            self.surf_cp = _need(f, "surface/cp", sx.shape).astype(np.float64)
            self.cl = _need(f, "coefficients/cl", (n,)).astype(np.float64)
            self.cd = _need(f, "coefficients/cd", (n,)).astype(np.float64)
            # The pitching moment about the quarter chord: in datasets written since 2026-12-06.
            self.cm = _need(f, "coefficients/cm", (n,)).astype(np.float64) if "coefficients/cm" in f else None
            self.seconds = f["timing/seconds"][()] if "timing/seconds" in f else np.full(n, np.nan)
        if n == 0:
            raise DatasetError(f"{path}: the dataset holds no cases.")
        for name, v in (("cl", self.cl), ("cd", self.cd)) + ((("cm", self.cm),) if self.cm is not None else ()):
            if not np.all(np.isfinite(v)):
                raise DatasetError(f"{path}: '/coefficients/{name}' has non-finite values (rows "
                                   f"{np.nonzero(~np.isfinite(v))[0][:5].tolist()}); regenerate the dataset.")
        if np.any(self.params[:, 4] <= 0):
            raise DatasetError(f"{path}: '/params' column reynolds has values <= 0.")
        self.n = n

    def grid_xy(self):
        """Sample-point coordinates [ny, nx] each (point (i, j) has index j*nx + i)."""
        x = np.linspace(self.x0, self.x1, self.nx)
        y = np.linspace(self.y0, self.y1, self.ny)
        return np.meshgrid(x, y)

    def points(self, idx):
        """Raw point features [len(idx), T, 4]: x, y, sdf, mask."""
        gx, gy = self.grid_xy()
        idx = np.atleast_1d(idx)
        t = self.nx * self.ny
        pts = np.empty((len(idx), t, 4), np.float32)
        pts[:, :, 0] = gx.reshape(-1)
        pts[:, :, 1] = gy.reshape(-1)
        pts[:, :, 2] = self.sdf[idx].reshape(len(idx), t)
        pts[:, :, 3] = self.mask[idx].reshape(len(idx), t)
        return pts

    def targets(self, idx):
        """Raw outputs [len(idx), T, 3]: u, v, p."""
        idx = np.atleast_1d(idx)
        return np.stack([a[idx].reshape(len(idx), -1) for a in (self.u, self.v, self.p)], axis=-1)

    @property
    def coefficient_count(self):
        """2 (cl, cd) or 3 (cl, cd, cm where the dataset has the pitching moment)."""
        return 2 if self.cm is None else 3

    def coefficients(self, idx):
        """The solver's momentum-exchange coefficients [len(idx), K]: cl, cd and, where the dataset has it, cm (the
        coefficient head's targets)."""
        idx = np.atleast_1d(idx)
        cols = [self.cl[idx], self.cd[idx]] + ([self.cm[idx]] if self.cm is not None else [])
        return np.stack(cols, axis=-1)

    def fluid(self, idx):
        idx = np.atleast_1d(idx)
        return self.mask[idx].reshape(len(idx), -1) == 0

    def indices(self, split_name):
        return np.nonzero(self.split == SPLITS[split_name])[0]


def param_features(params):
    """Raw params [.., 5] (Reynolds as is) -> network params' [.., 5] (log10 Reynolds), float64."""
    p = np.array(params, dtype=np.float64, copy=True)
    p[..., 4] = np.log10(p[..., 4])
    return p


def _safe_std(s):
    s = np.asarray(s, np.float64)
    return np.where(s > 1e-12, s, 1.0)


def compute_norm(ds, train_idx):
    """Normalisation constants from the training cases (SCHEMA.md /norm/*), float32 arrays."""
    pts = ds.points(train_idx).reshape(-1, 4).astype(np.float64)
    prm = param_features(ds.params[train_idx])
    tgt = ds.targets(train_idx).reshape(-1, 3).astype(np.float64)
    fl = ds.fluid(train_idx).reshape(-1)
    tgt = tgt[fl]
    coef = ds.coefficients(train_idx)
    return {
        "point_mean": pts.mean(0).astype(np.float32), "point_std": _safe_std(pts.std(0)).astype(np.float32),
        "param_mean": prm.mean(0).astype(np.float32), "param_std": _safe_std(prm.std(0)).astype(np.float32),
        "out_mean": tgt.mean(0).astype(np.float32), "out_std": _safe_std(tgt.std(0)).astype(np.float32),
        "coef_mean": coef.mean(0).astype(np.float32), "coef_std": _safe_std(coef.std(0)).astype(np.float32),
    }
