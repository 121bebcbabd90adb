"""Write a ParaView state file (.pvsm) with the standard views of a run, to open in the ParaView GUI.

Usage:  pvpython make_state.py RUN [--output STATE.pvsm] [--view velocity|vorticity|pressure] [--format auto|pvd|xdmf]

The state remembers RUN's file by its path. To use a state file with another run, open it in the GUI with
File > Load State, choose "Search files under specified directory" (or "Choose File Names") and pick the other
run's folder: every run folder holds fields.pvd and fields.xdmf under the same names.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_pv as ap  # noqa: E402
from paraview import simple as pv  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", help="run folder (with fields.pvd or fields.xdmf)")
    p.add_argument("--output", "-o", help="state file to write (default: RUN/aerolbm.pvsm)")
    p.add_argument("--view", default="velocity", choices=list(ap.VIEWS), help="which standard view")
    p.add_argument("--format", default="auto", choices=["auto", "pvd", "xdmf"], help="which file to open")
    a = p.parse_args(argv)
    reader = ap.open_run(os.path.abspath(a.run), a.format)
    t = ap.set_time(ap.last_time(reader))
    source = ap.plane_source(reader, t)
    view = ap.new_view([1200, 600])
    ap.build_view(source, view, a.view)
    pv.SetActiveView(view)
    pv.SetActiveSource(reader)
    out = a.output or os.path.join(a.run, "aerolbm.pvsm")
    pv.SaveState(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
