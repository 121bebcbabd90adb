"""Render the standard views of an aerolbm run to PNG, offscreen, with ParaView:

  velocity   |u|/U with streamlines seeded along the inlet
  vorticity  wL/U (z component), symmetric colour range
  pressure   Cp

Usage:  pvpython render_views.py RUN [--output DIR] [--views velocity,vorticity,pressure] [--format auto|pvd|xdmf]
                                     [--time T] [--size W H]
Debian's ParaView renders through X: run it under xvfb-run on a machine without a display
(xvfb-run -a pvpython render_views.py RUN). Writes DIR/<view>.png (default DIR: RUN/paraview).
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
    p.add_argument("--output", "-o", help="folder for the images (default: RUN/paraview)")
    p.add_argument("--views", default=",".join(ap.VIEWS), help="comma-separated, of " + ", ".join(ap.VIEWS))
    p.add_argument("--format", default="auto", choices=["auto", "pvd", "xdmf"], help="which file to open")
    p.add_argument("--time", type=float, help="time to render (default: the last frame)")
    p.add_argument("--size", type=int, nargs=2, default=[1200, 600], metavar=("W", "H"), help="image size in pixels")
    a = p.parse_args(argv)
    views = [v.strip() for v in a.views.split(",") if v.strip()]
    for v in views:
        if v not in ap.VIEWS:
            ap.fail(f"--views: unknown view '{v}' (expected some of {', '.join(ap.VIEWS)})")
    reader = ap.open_run(a.run, a.format)
    t = ap.set_time(a.time if a.time is not None else ap.last_time(reader))
    source = ap.plane_source(reader, t)
    out = a.output or os.path.join(a.run, "paraview")
    os.makedirs(out, exist_ok=True)
    for v in views:
        view = ap.new_view(a.size)
        ap.build_view(source, view, v)
        view.ViewTime = t
        path = os.path.join(out, v + ".png")
        pv.SaveScreenshot(path, view, ImageResolution=list(a.size), TransparentBackground=0)
        print(f"wrote {path}")
        pv.Delete(view)


if __name__ == "__main__":
    main()
