"""ctest entry for the Python module's tests (python.module): runs pytest on this folder with the interpreter the
module was built for, or exits 77 (skip) when pytest or numpy are genuinely absent (scripts/setup.sh test installs
them). The module itself must import: a build that made it and cannot load it is a failure, not a skip."""
import os
import sys

missing = []
for mod in ("pytest", "numpy"):
    try:
        __import__(mod)
    except ImportError:
        missing.append(mod)
if missing:
    print(f"SKIP: {sys.executable} lacks {', '.join(missing)} (Debian: python3-pytest python3-numpy)")
    sys.exit(77)
import pytest  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", here] + sys.argv[1:]))
