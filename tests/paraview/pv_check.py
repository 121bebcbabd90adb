"""pvpython side of the ParaView test (tests/paraview/paraview_tests.sh): on a small run folder,
    pv_check.py RUN EXPECTED.json OUT     checks 1 and 2;   pv_check.py state RUN OUT     check 3
    pv_check.py xdmf RUN EXPECTED.json    check 1 through fields.xdmf only (an output.precision: fp16 run, whose
                                          HDF5 floats are 16-bit: ParaView must read them, as 32-bit floats)
    pv_check.py mean RUN EXPECTED.json OUT  check 4
    pv_check.py level LEVEL EXPECTED.json   check 5
    pv_check.py amr RUN EXPECTED.json N     check 6 (N levels)

4. the mean fields (output.averages) open from RUN/mean/fields.pvd and RUN/mean/fields.xdmf as one frame at the
   window's last sample time, with the mean and RMS arrays of RUN/mean/fields.h5 and their ranges, and the mean
   velocity and pressure views render not blank.

5. a refined level's frames (RUN/levels/level<N>: its own grid at its resolution) open from its fields.pvd and
   fields.xdmf as check 1 has it (times, grid, origin, arrays and ranges; their .vti hold cell data).

6. a refined run's levels open together as one overlapping AMR data set from RUN/vtk/fields_*.vthb (check_amr).

1. fields.pvd and fields.xdmf open, with the frame times written and, at the last frame, the point arrays of
   fields.h5 with the same components and value ranges (expected.json, computed from fields.h5 with h5py);
2. postprocess/paraview/render_views.py renders velocity, vorticity and pressure views that are not blank;
3. the committed state file loads against this run (data_directory) and renders a view that is not blank.

Warnings and errors printed by ParaView are checked by the shell driver (stderr). Exit 1 on a failed check.
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SRC, "postprocess", "paraview"))

import aerolbm_pv as ap  # noqa: E402
import render_views  # noqa: E402
from paraview import simple as pv  # noqa: E402
from vtkmodules.vtkIOImage import vtkPNGReader  # noqa: E402
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402

failures = []


def check(cond, msg):
    print(("ok    " if cond else "FAIL  ") + msg)
    if not cond:
        failures.append(msg)


def close(a, b, tol=1e-5):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def check_reader(run, fmt, expected):
    """A refined run's .vti hold cell data (one value per cell, the cells another level shows hidden through
    vtkGhostType): the grid is then one point larger along each axis it spans, its corner half a cell before
    the first centre, and ParaView's ranges leave the hidden cells out, so they lie inside fields.h5's."""
    reader = ap.open_run(run, fmt)
    times = list(reader.TimestepValues)
    check(len(times) == len(expected["times"]) and all(close(a, b) for a, b in zip(times, expected["times"])),
          f"{fmt}: frame times {times} == {expected['times']}")
    reader.UpdatePipeline(times[-1])
    info = reader.GetDataInformation()
    cells = "velocity" in reader.CellData.keys()
    data = reader.CellData if cells else reader.PointData
    dims = [info.GetExtent()[2 * k + 1] - info.GetExtent()[2 * k] + 1 for k in range(3)]
    b = info.GetBounds()
    lower = [b[0], b[2]]
    if cells:
        dims = [d - 1 if d > 1 else 1 for d in dims]
        lower = [b[2 * k] + 0.5 * (b[2 * k + 1] - b[2 * k]) / dims[k] for k in range(2)]
    kind = "cell" if cells else "point"
    check(dims == expected["dims"], f"{fmt}: grid of {kind}s {dims} == {expected['dims']}")
    check(close(lower[0], expected["origin"][0]) and close(lower[1], expected["origin"][1]),
          f"{fmt}: first {kind} ({lower[0]:.6g}, {lower[1]:.6g}) == origin {expected['origin'][:2]}")
    names = sorted(k for k in data.keys() if k != "vtkGhostType")
    check(names == sorted(expected["arrays"]), f"{fmt}: {kind} arrays {names} == {sorted(expected['arrays'])}")
    for name, e in expected["arrays"].items():
        if name not in names:
            continue
        arr = data[name]
        n = arr.GetNumberOfComponents()
        check(n == len(e), f"{fmt}: {name} has {n} components (expected {len(e)})")
        for c in range(min(n, len(e))):
            lo, hi = arr.GetRange(c)
            if cells:
                tol = 1e-5 * max(1.0, abs(e[c][0]), abs(e[c][1]))
                check(e[c][0] - tol <= lo <= hi <= e[c][1] + tol,
                      f"{fmt}: {name}[{c}] range of the shown cells ({lo:.6g}, {hi:.6g}) inside "
                      f"({e[c][0]:.6g}, {e[c][1]:.6g})")
            else:
                check(close(lo, e[c][0]) and close(hi, e[c][1]),
                      f"{fmt}: {name}[{c}] range ({lo:.6g}, {hi:.6g}) == ({e[c][0]:.6g}, {e[c][1]:.6g})")
    pv.Delete(reader)


def check_amr(run, expected, levels):
    """6. A refined run's levels as one overlapping AMR data set (RUN/vtk/fields_<N>.vthb, opened as a series with
    every level read): one per frame, `levels` levels at ratio 2, each with the frame's arrays, and the cells each
    level shows (vtkGhostType) tiling the domain: their areas sum to level 0's, with no gap or overlap."""
    files = sorted(glob.glob(os.path.join(run, "vtk", "fields_*.vthb")))
    check(len(files) == len(expected["times"]), f"amr: {len(files)} .vthb == {len(expected['times'])} frames")
    if not files:
        return
    reader = pv.OpenDataFile(files)
    reader.DefaultNumberOfLevels = levels
    times = list(reader.TimestepValues) or [0.0]
    reader.UpdatePipeline(times[-1])
    amr = reader.GetClientSideObject().GetOutputDataObject(0)
    check(amr is not None and amr.IsA("vtkOverlappingAMR"), f"amr: an overlapping AMR data set ({type(amr).__name__})")
    if amr is None or not amr.IsA("vtkOverlappingAMR"):
        pv.Delete(reader)
        return
    n = amr.GetNumberOfLevels()
    check(n == levels, f"amr: {n} levels == {levels}")
    shown = 0.0
    for level in range(n):
        if level + 1 < n:
            check(amr.GetRefinementRatio(level) == 2, f"amr: level {level} refined by {amr.GetRefinementRatio(level)}")
        block = amr.GetDataSet(level, 0)
        check(block is not None, f"amr: level {level} has its block")
        if block is None:
            continue
        cd = block.GetCellData()
        names = sorted(cd.GetArrayName(i) for i in range(cd.GetNumberOfArrays()) if cd.GetArrayName(i) != "vtkGhostType")
        check(names == sorted(expected["arrays"]), f"amr: level {level} arrays {names}")
        visible = sum(1 for i in range(block.GetNumberOfCells()) if block.IsCellVisible(i))
        sp = block.GetSpacing()
        shown += visible * sp[0] * sp[1]
        print(f"      level {level}: {block.GetNumberOfCells()} cells, {visible} shown, spacing {sp[0]:.6g}")
    d0 = expected["dims"]
    sp0 = amr.GetDataSet(0, 0).GetSpacing()
    area = d0[0] * d0[1] * sp0[0] * sp0[1]
    check(close(shown, area, 1e-9), f"amr: the shown cells cover {shown:.9g} == the domain's {area:.9g}")
    pv.Delete(reader)


def pixel_stats(path):
    r = vtkPNGReader()
    r.SetFileName(path)
    r.Update()
    img = r.GetOutput()
    px = vtk_to_numpy(img.GetPointData().GetScalars()).astype(float)[:, :3]
    white = (px > 250).all(axis=1)
    lum = px @ [0.299, 0.587, 0.114]
    colours = len({tuple(p) for p in px[::7].astype(int)})
    return {"size": img.GetDimensions()[:2], "drawn": float(1 - white.mean()), "lum_std": float(lum.std()),
            "colours": colours}


def check_image(path, what):
    check(os.path.exists(path), f"{what}: {path} written")
    if not os.path.exists(path):
        return
    s = pixel_stats(path)
    # A blank render is one flat colour; a field view covers most of the frame with many colours.
    check(s["drawn"] > 0.3 and s["lum_std"] > 5 and s["colours"] > 30,
          f"{what}: not blank (drawn {s['drawn']:.2f} > 0.3, luminance std {s['lum_std']:.1f} > 5, "
          f"{s['colours']} colours > 30)")


def check_files_and_views(run, expected_file, out):
    expected = json.load(open(expected_file))
    for fmt in ("pvd", "xdmf"):
        check_reader(run, fmt, expected)
    render_views.main([run, "--output", out, "--size", "800", "400"])
    for v in ap.VIEWS:
        check_image(os.path.join(out, v + ".png"), f"render_views {v}")


# In a process of its own: ParaView's ResetSession under Xvfb ends in a GLX error at exit.
def check_state(run, out):
    state = os.path.join(SRC, "postprocess", "paraview", "aerolbm_velocity.pvsm")
    pv.LoadState(state, data_directory=run, restrict_to_data_directory=True)
    readers = [s for (n, _), s in pv.GetSources().items() if hasattr(s, "FileName")]
    check(len(readers) == 1 and os.path.dirname(readers[0].FileName) == os.path.abspath(run),
          f"state file: its reader points into the test run ({[r.FileName for r in readers]})")
    view = pv.GetRenderViews()[0]
    path = os.path.join(out, "state.png")
    pv.SaveScreenshot(path, view, ImageResolution=[800, 400])
    check_image(path, "state file view")
    # Views from a state file live in a layout; leaving them to Python's exit ends in a GLX error under Xvfb.
    for layout in list(pv.GetLayouts().values()):
        pv.RemoveLayout(layout)
    for v in pv.GetRenderViews():
        pv.Delete(v)


# A 3D wing run: surface.pvd opens with Cp on its points (stagnation near 1, suction below 0), and
# render_wing.py draws the wing and the Q iso-surface (most of that frame is background, so fewer pixels are drawn).
def check_wing(run, out):
    surface = pv.PVDReader(FileName=os.path.join(run, "surface.pvd"))
    surface.UpdatePipeline(surface.TimestepValues[-1] if surface.TimestepValues else 0.0)
    info = surface.GetDataInformation()
    check(info.GetNumberOfPoints() > 1000, f"surface: {info.GetNumberOfPoints()} points > 1000")
    check("Cp" in surface.PointData.keys(), "surface: point array Cp")
    if "Cp" in surface.PointData.keys():
        lo, hi = surface.PointData["Cp"].GetRange(0)
        check(0.5 < hi < 1.5 and -5 < lo < 0, f"surface: Cp range ({lo:.3f}, {hi:.3f}) has a stagnation point and suction")
    for name in ("Cf", "wall_shear"):
        check(name in surface.PointData.keys(), f"surface: point array {name}")
    if "Cf" in surface.PointData.keys():
        lo, hi = surface.PointData["Cf"].GetRange(0)
        check(lo >= 0 and 0 < hi < 1, f"surface: Cf range ({lo:.4f}, {hi:.4f}) non-negative, positive somewhere")
    sys.path.insert(0, os.path.join(SRC, "postprocess", "paraview"))
    import render_wing
    path = os.path.join(out, "wing.png")
    render_wing.main([run, "--output", path, "--size", "800", "500"])
    s = pixel_stats(path)
    check(s["drawn"] > 0.05 and s["lum_std"] > 5 and s["colours"] > 30,
          f"render_wing: not blank (drawn {s['drawn']:.2f} > 0.05, luminance std {s['lum_std']:.1f} > 5, "
          f"{s['colours']} colours > 30)")
    # Anything ParaView still holds at exit under Xvfb ends in a GLX error (see check_state).
    for layout in list(pv.GetLayouts().values()):
        pv.RemoveLayout(layout)
    for v in pv.GetRenderViews():
        pv.Delete(v)


def check_mean(run, expected_file, out):
    expected = json.load(open(expected_file))
    mean = os.path.join(run, "mean")
    check(len(expected["times"]) == 1, f"mean: one frame in mean/fields.h5 ({len(expected['times'])})")
    for name in ("velocity", "velocity_rms", "pressure", "pressure_rms"):
        check(name in expected["arrays"], f"mean: mean/fields.h5 holds {name}")
    for fmt in ("pvd", "xdmf"):
        check_reader(mean, fmt, expected)
    render_views.main([mean, "--output", out, "--views", "velocity,pressure", "--size", "800", "400"])
    for v in ("velocity", "pressure"):
        check_image(os.path.join(out, v + ".png"), f"mean fields: render_views {v}")


def main():
    if sys.argv[1] == "mean":
        check_mean(*sys.argv[2:5])
    elif sys.argv[1] == "state":
        check_state(*sys.argv[2:4])
    elif sys.argv[1] == "wing":
        check_wing(*sys.argv[2:4])
    elif sys.argv[1] == "level":
        for fmt in ("pvd", "xdmf"):
            check_reader(sys.argv[2], fmt, json.load(open(sys.argv[3])))
    elif sys.argv[1] == "amr":
        check_amr(sys.argv[2], json.load(open(sys.argv[3])), int(sys.argv[4]))
    elif sys.argv[1] == "xdmf":
        check_reader(sys.argv[2], "xdmf", json.load(open(sys.argv[3])))
    else:
        check_files_and_views(*sys.argv[1:4])
    print(f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
