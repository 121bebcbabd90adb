"""ctest entry for the surrogate training tests: runs pytest on this folder with /usr/bin/python3, or exits 77
(skip) when pytest, numpy, h5py, yaml or torch are genuinely absent (scripts/setup.sh test installs them)."""
import os
import sys

missing = []
for mod in ("pytest", "numpy", "h5py", "yaml", "torch"):
    try:
        __import__(mod)
    except ImportError:
        missing.append(mod)
if missing:
    print(f"SKIP: {sys.executable} lacks {', '.join(missing)} (Debian: python3-pytest python3-numpy python3-h5py "
          "python3-yaml python3-torch; scripts/setup.sh test installs them)")
    sys.exit(77)
import pytest  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", here] + sys.argv[1:]))
