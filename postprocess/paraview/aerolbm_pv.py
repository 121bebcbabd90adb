"""Shared pieces of the pvpython scripts: open a run folder, pick a time, build the standard views.

Runs in ParaView's Python (pvpython / pvbatch), not in /usr/bin/python3.
"""
import os
import sys

from paraview import simple as pv

VIEWS = ("velocity", "vorticity", "pressure")


def fail(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


def open_run(run, fmt="auto"):
    """A reader for RUN/fields.pvd (VTK image data) or RUN/fields.xdmf (HDF5). fmt: auto (pvd when present), pvd, xdmf."""
    pvd, xdmf = os.path.join(run, "fields.pvd"), os.path.join(run, "fields.xdmf")
    if fmt in ("auto", "pvd") and os.path.exists(pvd):
        return pv.PVDReader(registrationName="fields", FileName=pvd)
    if fmt in ("auto", "xdmf") and os.path.exists(xdmf):
        return pv.XDMFReader(registrationName="fields", FileNames=[xdmf])
    fail(f"{run}: no {'fields.pvd or fields.xdmf' if fmt == 'auto' else 'fields.' + fmt} (not a run folder, "
         "or the run wrote no fields: set output.every > 0)")


def last_time(reader):
    times = list(reader.TimestepValues) if reader.TimestepValues else []
    return times[-1] if times else 0.0


def set_time(t):
    scene = pv.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = t
    return t


def plane_source(reader, t):
    """The data to colour: the image itself in 2D, its z-middle slice in 3D."""
    reader.UpdatePipeline(t)
    ext = reader.GetDataInformation().GetExtent()
    if ext[5] > ext[4]:
        b = reader.GetDataInformation().GetBounds()
        s = pv.Slice(Input=reader)
        s.SliceType = "Plane"
        s.SliceType.Origin = [0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])]
        s.SliceType.Normal = [0, 0, 1]
        return s
    return reader


def array_range(source, name, component=-1):
    info = source.PointData[name]
    return info.GetRange(component)


def new_view(size):
    view = pv.CreateView("RenderView")
    view.ViewSize = list(size)
    view.OrientationAxesVisibility = 0
    view.Background = [1, 1, 1]
    try:  # ParaView 5.10+: the background comes from the palette unless told otherwise
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    view.InteractionMode = "2D"
    return view


def show_body(source, view):
    """The solid cells (mask = 1) in dark grey, on top of the coloured field."""
    if "mask" not in source.PointData.keys():
        return None
    body = pv.Threshold(registrationName="body", Input=source)
    body.Scalars = ["POINTS", "mask"]
    try:  # ParaView 5.10+ API
        body.LowerThreshold, body.UpperThreshold = 0.5, 1.5
        body.ThresholdMethod = "Between"
    except AttributeError:
        body.ThresholdRange = [0.5, 1.5]
    d = pv.Show(body, view)
    pv.ColorBy(d, None)
    d.AmbientColor = d.DiffuseColor = [0.25, 0.25, 0.25]
    return body


def colour(display, view, name, component, rng, preset, title):
    pv.ColorBy(display, ("POINTS", name, component) if component else ("POINTS", name))
    lut = pv.GetColorTransferFunction(name)
    lut.ApplyPreset(preset, True)
    lut.RescaleTransferFunction(rng[0], rng[1])
    try:
        lut.AutomaticRescaleRangeMode = "Never"
    except AttributeError:
        pass
    display.SetScalarBarVisibility(view, True)
    bar = pv.GetScalarBar(lut, view)
    bar.Title = title
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]
    bar.Orientation = "Horizontal"
    bar.WindowLocation = "Lower Center"
    return lut


def build_view(source, view, which):
    """Colours `source` for one standard view; velocity also gets streamlines seeded along the inlet."""
    d = pv.Show(source, view)
    d.SetRepresentationType("Slice" if hasattr(d, "Slice") else "Surface")
    if which == "velocity":
        colour(d, view, "velocity", "Magnitude", array_range(source, "velocity", -1), "Viridis (matplotlib)", "|u|/U")
        b = source.GetDataInformation().GetBounds()
        st = pv.StreamTracer(registrationName="streamlines", Input=source, SeedType="Line")
        st.Vectors = ["POINTS", "velocity"]
        st.SeedType.Point1 = [b[0] + 0.02 * (b[1] - b[0]), b[2] + 0.02 * (b[3] - b[2]), 0.5 * (b[4] + b[5])]
        st.SeedType.Point2 = [b[0] + 0.02 * (b[1] - b[0]), b[3] - 0.02 * (b[3] - b[2]), 0.5 * (b[4] + b[5])]
        st.SeedType.Resolution = 24
        st.MaximumStreamlineLength = 4 * (b[1] - b[0])
        sd = pv.Show(st, view)
        pv.ColorBy(sd, None)
        sd.AmbientColor = sd.DiffuseColor = [1, 1, 1]
        sd.LineWidth = 1.0
    elif which == "vorticity":
        comp = "Z" if source.PointData["vorticity"].GetNumberOfComponents() == 3 else None
        lo, hi = array_range(source, "vorticity", 2 if comp else 0)
        m = 0.25 * max(abs(lo), abs(hi)) or 1.0  # the wall peaks would wash out the wake
        colour(d, view, "vorticity", comp, (-m, m), "Cool to Warm", "vorticity wL/U")
    elif which == "pressure":
        colour(d, view, "pressure", None, array_range(source, "pressure", 0), "Cool to Warm", "Cp")
    else:
        fail(f"unknown view '{which}' (expected one of {', '.join(VIEWS)})")
    show_body(source, view)
    fit_camera(view, source.GetDataInformation().GetBounds())
    return view


def fit_camera(view, b):
    """Looks down z at the whole domain, filling the view, with room for the colour bar below."""
    cx, cy, cz = 0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])
    w, h = b[1] - b[0], b[3] - b[2]
    aspect = view.ViewSize[0] / float(view.ViewSize[1])
    view.CameraPosition = [cx, cy - 0.08 * h, cz + 10 * max(w, h)]
    view.CameraFocalPoint = [cx, cy - 0.08 * h, cz]
    view.CameraViewUp = [0, 1, 0]
    view.CameraParallelProjection = 1
    view.CameraParallelScale = 0.5 * max(h * 1.25, w / aspect * 1.05)
