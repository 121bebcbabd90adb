"""Fills /reference/output (and, version 2, /reference/coefficients) of a model.h5 with the outputs of
postprocess/surrogate/numpy_forward.py (float64 numpy, the executable specification of SCHEMA.md), so that the C++
CPU inference is checked against an independent implementation.

    numpy_reference.py SOURCE_DIR MODEL.h5      exit 0: written; 77: numpy, h5py or numpy_forward.py missing
"""
import os
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, model = argv[1], argv[2]
    script_dir = os.path.join(source, "postprocess", "surrogate")
    if not os.path.exists(os.path.join(script_dir, "numpy_forward.py")):
        print("SKIPPED: postprocess/surrogate/numpy_forward.py is not in this checkout")
        return 77
    try:
        import h5py  # noqa: F401
        import numpy as np
    except ImportError as e:
        print(f"SKIPPED: {e}")
        return 77
    sys.path.insert(0, script_dir)
    import numpy_forward
    m = numpy_forward.load(model)
    out, coef = numpy_forward.forward(m, m["reference"]["points"], m["reference"]["params"])
    import h5py
    with h5py.File(model, "r+") as f:
        f["reference/output"][...] = np.asarray(out, np.float32)
        if coef is not None:
            f["reference/coefficients"][...] = np.asarray(coef, np.float32)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
