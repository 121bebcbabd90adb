"""The case list of a sweep.yaml as SCHEMA.md defines it (splitmix64 sampling, NACA-code rounding, the split
rule), in Python: lets a test check that the dataset `aerolbm sweep` wrote holds exactly the specified cases.

    python3 sweep_spec.py SWEEP.yaml        prints one line per case: index, split, code, params
"""
import math
import sys

import numpy as np

MASK = (1 << 64) - 1
COLUMNS = ["camber", "camber_position", "thickness", "aoa_deg", "reynolds"]


class SplitMix64:
    def __init__(self, seed):
        self.state = int(seed) & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def u(self):
        return (self.next() >> 11) * 2.0 ** -53


def draw(spec, rng):
    if "values" in spec:
        vals = spec["values"]
        return float(vals[int(math.floor(rng.u() * len(vals)))])
    lo, hi = (float(x) for x in spec["range"])
    if spec.get("log", False):
        return 10 ** (math.log10(lo) + rng.u() * (math.log10(hi) - math.log10(lo)))
    return lo + rng.u() * (hi - lo)


def grid_values(spec):
    if "values" in spec:
        return [float(v) for v in spec["values"]]
    lo, hi = (float(x) for x in spec["range"])
    n = int(spec["count"])
    if n == 1:
        return [lo]
    if spec.get("log", False):
        return list(10 ** np.linspace(math.log10(lo), math.log10(hi), n))
    return list(np.linspace(lo, hi, n))


def naca_code(m, p, t):
    return f"{round(m * 100):d}{round(p * 10) if m != 0 else 0:d}{round(t * 100):02d}"


def finish(row):
    """The camber-0 rule: camber position recorded as 0."""
    m, p, t, a, re = row
    return [m, 0.0 if round(m * 100) == 0 else p, t, a, re]


def expand(sweep):
    """(params [N, 5] float64, split [N] int8) of a parsed sweep.yaml mapping."""
    base = sweep["parameters"]
    extra = sweep.get("extrapolation") or {}
    ext_params = {k: extra.get(k, base[k]) for k in COLUMNS}
    rows = []
    if sweep["sampling"] == "random":
        rng = SplitMix64(sweep.get("seed", 1))
        for _ in range(int(sweep["count"])):
            rows.append(finish([draw(base[c], rng) for c in COLUMNS]))
        n_main = len(rows)
        for _ in range(int(extra.get("count", 0)) if extra else 0):
            rows.append(finish([draw(ext_params[c], rng) for c in COLUMNS]))
    else:
        def product(specs):
            out, seen = [], set()
            for m in grid_values(specs["camber"]):
                for p in grid_values(specs["camber_position"]):
                    for t in grid_values(specs["thickness"]):
                        for a in grid_values(specs["aoa_deg"]):
                            for re in grid_values(specs["reynolds"]):
                                r = finish([m, p, t, a, re])
                                key = (naca_code(*r[:3]), r[3], r[4])
                                if key not in seen:
                                    seen.add(key)
                                    out.append(r)
            return out
        rows = product(base)
        n_main = len(rows)
        if extra:
            rows += product(ext_params)
    split = np.zeros(len(rows), np.int8)
    split[n_main:] = 2
    n_test = int(round(float(sweep["split"]["test_fraction"]) * n_main))
    rng = SplitMix64(sweep["split"].get("seed", 2))
    perm = list(range(n_main))
    for i in range(n_main - 1, 0, -1):
        j = int(math.floor(rng.u() * (i + 1)))
        perm[i], perm[j] = perm[j], perm[i]
    for i in perm[:n_test]:
        split[i] = 1
    return np.array(rows, np.float64).reshape(-1, 5), split


def load(path):
    import yaml
    with open(path) as f:
        return yaml.safe_load(f)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    params, split = expand(load(argv[1]))
    for k, (r, s) in enumerate(zip(params, split)):
        print(f"{k:4d} split {s} NACA {naca_code(*r[:3])} aoa {r[3]:8.4f} Re {r[4]:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
