"""Render a 3D body run to PNG with ParaView: the body surface coloured by Cp (RUN/surface.pvd) and the vortex
cores as an iso-surface of the Q-criterion (RUN/fields.pvd or fields.xdmf, field q_criterion) coloured by the
streamwise vorticity, seen from above behind the wing so the tip vortices trail towards the viewer.

Usage:  pvpython render_wing.py RUN [--output FILE] [--q Q] [--time T] [--size W H]
Debian's ParaView renders through X: xvfb-run -a pvpython render_wing.py RUN. Default FILE: RUN/paraview/wing.png.
--q is the iso-value in (U/L)^2 (default: 2 % of the largest Q in the frame).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aerolbm_pv as ap  # noqa: E402
from paraview import simple as pv  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", help="run folder of a 3D body case (surface.pvd and fields with q_criterion)")
    p.add_argument("--output", "-o", help="image file (default: RUN/paraview/wing.png)")
    p.add_argument("--q", type=float, help="Q-criterion iso-value in (U/L)^2")
    p.add_argument("--time", type=float, help="time to render (default: the last frame)")
    p.add_argument("--size", type=int, nargs=2, default=[1400, 800], metavar=("W", "H"))
    a = p.parse_args(argv)
    surface_pvd = os.path.join(a.run, "surface.pvd")
    if not os.path.exists(surface_pvd):
        ap.fail(f"{a.run}: no surface.pvd (the run has no 3D body, or wrote no fields: set output.every > 0)")
    fields = ap.open_run(a.run)
    surface = pv.PVDReader(registrationName="surface", FileName=surface_pvd)
    t = ap.set_time(a.time if a.time is not None else ap.last_time(fields))
    fields.UpdatePipeline(t)
    surface.UpdatePipeline(t)
    if "q_criterion" not in fields.PointData.keys():
        ap.fail(f"{a.run}: the fields have no q_criterion (add q_criterion to output.fields)")
    # The vortex cores behind the wing: the fields downstream of the trailing edge (the boundary layers on the wing
    # carry large Q too and would hide the surface).
    b = surface.GetDataInformation().GetBounds()
    wake = pv.Clip(registrationName="wake", Input=fields)
    wake.ClipType = "Plane"
    wake.ClipType.Origin = [b[1] + 0.05 * (b[1] - b[0]), 0, 0]
    wake.ClipType.Normal = [1, 0, 0]
    try:  # ParaView 5.10+: keep the side the normal points to
        wake.Invert = 0
    except AttributeError:
        pass
    wake.UpdatePipeline(t)
    qmax = wake.PointData["q_criterion"].GetRange(0)[1]
    if not qmax > 0:
        ap.fail(f"{a.run}: Q is nowhere positive behind the wing at t = {t} (no vortex cores yet)")
    q = a.q if a.q is not None else 0.05 * qmax

    view = ap.new_view(a.size)
    view.InteractionMode = "3D"
    body = pv.Show(surface, view)
    pv.ColorBy(body, ("POINTS", "Cp"))
    cp_lut = pv.GetColorTransferFunction("Cp")
    cp_lut.ApplyPreset("Cool to Warm", True)
    cp_range = surface.PointData["Cp"].GetRange(0)
    cp_lut.RescaleTransferFunction(max(cp_range[0], -3.0), min(cp_range[1], 1.0))
    bar = pv.GetScalarBar(cp_lut, view)
    bar.Title = "Cp"
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]
    body.SetScalarBarVisibility(view, True)

    contour = pv.Contour(registrationName="vortex_cores", Input=wake)
    contour.ContourBy = ["POINTS", "q_criterion"]
    contour.Isosurfaces = [q]
    cores = pv.Show(contour, view)
    if "vorticity" in fields.PointData.keys():
        pv.ColorBy(cores, ("POINTS", "vorticity", "X"))
        w_lut = pv.GetColorTransferFunction("vorticity")
        w_lut.ApplyPreset("Blue Orange (divergent)", True)
        wx = fields.PointData["vorticity"].GetRange(0)
        m = max(abs(wx[0]), abs(wx[1])) * 0.3 or 1.0
        w_lut.VectorMode = "Component"
        w_lut.VectorComponent = 0
        w_lut.RescaleTransferFunction(-m, m)
    else:
        cores.DiffuseColor = [0.2, 0.5, 0.9]
    cores.Opacity = 0.6

    # From above, behind and outboard of the tip, looking back at the wing and down the wake.
    c = [0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])]
    span = max(b[5] - b[4], b[1] - b[0], 1e-6)
    view.CameraFocalPoint = [b[1] + 0.3 * span, c[1], c[2]]
    view.CameraPosition = [b[0] - 0.9 * span, c[1] + 1.3 * span, b[5] + 1.6 * span]
    view.CameraViewUp = [0, 1, 0]
    view.CameraViewAngle = 30
    view.ViewTime = t
    out = a.output or os.path.join(a.run, "paraview", "wing.png")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    pv.SaveScreenshot(out, view, ImageResolution=list(a.size), TransparentBackground=0)
    print(f"wrote {out} (Q iso-value {q:.4g}, Q max {qmax:.4g}, Cp {cp_range[0]:.3f} to {cp_range[1]:.3f})")
    # Left to Python's exit, a view ends in a GLX error under Xvfb (as in render_views.py).
    pv.Delete(view)


if __name__ == "__main__":
    main()
