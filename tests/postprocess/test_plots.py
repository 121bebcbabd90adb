"""The plotting scripts on real small runs: files written, axes ranges taken from the data, bad input exit 2."""
import json
import os

import h5py
import numpy as np
import pytest

from conftest import run_script, aerolbm
import aerolbm_run as ar
import plot_cp
import plot_errors
import plot_fields
import plot_forces
import plot_polar
import plot_surface

SCRIPTS = ["plot_forces.py", "plot_cp.py", "plot_fields.py", "plot_errors.py", "plot_polar.py", "plot_surface.py"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_help(name):
    r = run_script(name, "--help")
    assert r.returncode == 0 and "usage:" in r.stdout and "--svg" in r.stdout


def test_forces_files_and_axes(run_dir, tmp_path):
    r = run_script("plot_forces.py", run_dir, "--output", tmp_path, "--svg")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "forces.png").stat().st_size > 10000 and (tmp_path / "forces.svg").exists()
    f = ar.read_forces(run_dir)
    fig = plot_forces.plot_forces([run_dir])
    ax_cd, ax_cl = fig.axes
    assert ax_cd.get_xlim() == pytest.approx((f["time"].min(), f["time"].max()))
    for ax, col in ((ax_cd, "Cd"), (ax_cl, "Cl")):
        lo, hi = ax.get_ylim()
        assert lo <= f[col].min() and hi >= f[col].max()
        # Autoscaled to the data: the margin is small against the data's spread.
        assert (hi - lo) < 1.5 * (f[col].max() - f[col].min()) + 1e-12
        np.testing.assert_allclose(ax.lines[0].get_ydata(), f[col])


def test_forces_from_time_crops(run_dir):
    f = ar.read_forces(run_dir)
    t0 = float(np.median(f["time"]))
    fig = plot_forces.plot_forces([run_dir], from_time=t0)
    assert fig.axes[0].get_xlim()[0] == pytest.approx(f["time"][f["time"] >= t0].min())


def test_surface_table_plot(run_dir, tmp_path):
    r = run_script("plot_surface.py", run_dir, "--output", tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "surface.png").stat().st_size > 10000
    s = plot_surface.read_surface(run_dir)
    fig = plot_surface.plot_surface(run_dir)
    ax_cp, ax_cf = fig.axes
    # Every point of the table is plotted, upper and lower side together, Cp and C_f as the run wrote them.
    cp = np.concatenate([l.get_ydata() for l in ax_cp.lines])
    cf = np.concatenate([l.get_ydata() for l in ax_cf.lines if len(l.get_ydata()) > 2])
    assert sorted(cp) == pytest.approx(sorted(s["Cp"])) and sorted(cf) == pytest.approx(sorted(s["Cf"]))
    assert ax_cp.yaxis_inverted()
    # A stagnation point and suction on an airfoil at 6 degrees, and skin friction along the chord.
    assert s["Cp"].max() > 0.5 and s["Cp"].min() < -0.3 and s["Cf"].max() > 0
    bad = run_script("plot_surface.py", str(tmp_path / "nothing"))
    assert bad.returncode == 2 and "surface" in bad.stderr


def test_cp_surface(run_dir, tmp_path):
    r = run_script("plot_cp.py", run_dir, "--output", tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "cp.png").stat().st_size > 10000
    fields = ar.Fields(run_dir)
    x, y, cp, nx, ny = plot_cp.surface_samples(fields)
    g = fields.frame(-1)
    mask = g["mask"][0] > 0
    # Every sample is a fluid cell touching the body, and its Cp is the field's value there.
    j = np.rint((y - fields.origin[1]) / fields.spacing[1]).astype(int)
    i = np.rint((x - fields.origin[0]) / fields.spacing[0]).astype(int)
    assert not mask[j, i].any()
    np.testing.assert_array_equal(cp, g["pressure"][0][j, i])
    assert len(cp) > 40
    xc, _ = plot_cp.chord_frame(x, y, fields.angle_deg)
    assert xc.min() + 0.25 == pytest.approx(0, abs=0.1) and xc.max() + 0.25 == pytest.approx(1, abs=0.1)
    fig = plot_cp.plot_cp([run_dir])
    ax = fig.axes[0]
    lo, hi = ax.get_ylim()
    assert lo > hi, "the Cp axis points down"
    assert hi <= cp.min() and lo >= cp.max()
    xl = ax.get_xlim()
    assert xl[0] <= xc.min() + 0.25 and xl[1] >= xc.max() + 0.25
    # Upper side of a lifting airfoil: lower Cp on average than the lower side.
    up, low = ax.lines[0].get_ydata(), ax.lines[1].get_ydata()
    assert np.mean(up) < np.mean(low)


def test_fields_images(run_dir, tmp_path):
    r = run_script("plot_fields.py", run_dir, "--output", tmp_path, "--fields", "velocity,vorticity,pressure")
    assert r.returncode == 0, r.stderr
    for n in ("velocity", "vorticity", "pressure"):
        assert (tmp_path / f"{n}.png").stat().st_size > 10000
    fields = ar.Fields(run_dir)
    v = fields.frame(-1)["velocity"][0]
    fig = plot_fields.plot_field(run_dir, "velocity")
    ax = fig.axes[0]
    im = ax.images[0]
    assert im.get_clim() == pytest.approx((0, np.linalg.norm(v, axis=-1).max()), rel=1e-6)
    ext = fields.extent()
    assert ax.get_xlim() == pytest.approx((ext[0], ext[1])) and ax.get_ylim() == pytest.approx((ext[2], ext[3]))
    assert len(ax.images) == 2, "the body is drawn over the field"
    w = plot_fields.plot_field(run_dir, "vorticity").axes[0].images[0].get_clim()
    assert w[0] == pytest.approx(-w[1]) and w[1] > 0


def test_error_maps(run_dir, tmp_path):
    import shutil
    import subprocess

    b = tmp_path / "b"
    shutil.copytree(run_dir, b)
    with h5py.File(b / "fields.h5", "r+") as f:
        for g in f:
            if g.startswith("frame_"):
                f[g]["pressure"][...] = f[g]["pressure"][...] + 0.1
    out = tmp_path / "cmp"
    r = subprocess.run([aerolbm(), "compare", run_dir, str(b), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (out / "images" / "errors.png").exists() and (out / "images" / "forces.png").exists()
    assert "images/errors.png" in (out / "report.md").read_text()
    fig = plot_errors.plot_errors(str(out))
    titles = [ax.get_title() for ax in fig.axes]
    assert any("pressure" in t and "1.000e-01" in t for t in titles), titles
    assert any("velocity: identical" in t for t in titles), titles
    rep = json.load(open(out / "report.json"))
    assert rep["frames"][-1]["fields"]["pressure"]["max_abs"] == pytest.approx(0.1, rel=1e-5)


def test_polar(polar_runs, tmp_path):
    r = run_script("plot_polar.py", polar_runs, "--output", tmp_path, "--svg")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "polar.png").exists() and (tmp_path / "polar.svg").exists()
    fig = plot_polar.plot_polar([polar_runs])
    ax1, ax2, ax3 = fig.axes  # runs of a section report their pitching moment: a C_m(α) panel
    s0 = json.load(open(os.path.join(polar_runs, "aoa0", "summary.json")))
    assert ax3.lines[0].get_ydata()[0] == pytest.approx(s0["coefficients"]["cpitch_mean"])
    alpha = ax1.lines[0].get_xdata()
    np.testing.assert_array_equal(alpha, [0, 4, 8])
    cl = ax1.lines[0].get_ydata()
    s = json.load(open(os.path.join(polar_runs, "aoa8", "summary.json")))
    assert cl[2] == pytest.approx(s["coefficients"]["cl_mean"])
    assert cl[0] < cl[1] < cl[2], "lift grows with the angle of attack"
    lo, hi = ax1.get_xlim()
    assert lo <= 0 and hi >= 8


def test_polar_from_a_predicted_table(tmp_path):
    # aerolbm predict --polar writes polar.csv (one row per angle); the plot reads it in the order of the angles.
    (tmp_path / "polar.csv").write_text("alpha_deg,cl,cd,cl_pressure,cd_pressure,inference_s\n"
                                        "4,0.45,0.021,0.44,0.015,0.001\n-2,-0.2,0.018,-0.19,0.012,0.001\n"
                                        "0,0.01,0.017,0.01,0.011,0.001\n")
    alpha, cd, cl, cm = plot_polar.polar_points(plot_polar.collect([str(tmp_path)]))
    assert np.all(np.isnan(cm))  # a table without a cm column
    assert len(plot_polar.plot_polar([str(tmp_path)]).axes) == 2
    np.testing.assert_array_equal(alpha, [-2, 0, 4])
    np.testing.assert_allclose(cl, [-0.2, 0.01, 0.45])
    np.testing.assert_allclose(cd, [0.018, 0.017, 0.021])
    r = run_script("plot_polar.py", str(tmp_path), "--output", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "polar.png").exists()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "polar.csv").write_text("angle,lift\n1,2\n")
    r = run_script("plot_polar.py", str(tmp_path / "bad"), "--output", tmp_path / "out2")
    assert r.returncode != 0 and "not a polar table" in r.stderr


def test_polar_beside_measured_data(tmp_path):
    # --reference draws measured data (the shipped Ladson polar) beside the runs, adds C_D(alpha), and prints the
    # runs against the data interpolated to their angles.
    ref_file = os.path.join(os.path.dirname(__file__), "..", "..", "cases", "data", "ladson_naca0012_re6e6.dat")
    ref = plot_polar.read_reference(ref_file)
    label, ra, rcl, rcd = ref
    assert "80 grit" in label and len(ra) == 17, "the first zone only"
    assert ra[0] == pytest.approx(-4.04) and rcd[7] == pytest.approx(0.01201)
    (tmp_path / "polar.csv").write_text("alpha_deg,cl,cd\n0,0.0,0.0090\n10.12,1.0707,0.01201\n")
    alpha, cd, cl, _ = plot_polar.polar_points(plot_polar.collect([str(tmp_path)]))
    fig = plot_polar.plot_polar([str(tmp_path)], ref)
    assert len(fig.axes) == 3
    axd = fig.axes[-1]
    near = (ra >= -5) & (ra <= 15.12)  # the data within 5 degrees of the runs' 0 to 10.12
    np.testing.assert_allclose(axd.lines[1].get_ydata(), rcd[near])
    assert axd.lines[1].get_ydata().max() < 0.02, "no post-stall points beyond the runs' angles"
    text = plot_polar.against_reference(alpha, cd, cl, ref)
    row = [ln for ln in text.splitlines() if ln.strip().startswith("10.1")][0]
    assert row.count("+0.0 %") == 2, row  # the data's own point: Cl and Cd both +0.0 %
    # at 0 degrees the data's Cd interpolates to 0.008097: the run's 0.0090 is +11.2 %
    assert "+11.2 %" in text.splitlines()[1]
    bad = tmp_path / "bad.dat"
    bad.write_text("zone\n1 2\n")
    with pytest.raises(plot_polar.ar.RunError, match="three numbers"):
        plot_polar.read_reference(str(bad))
    r = run_script("plot_polar.py", str(tmp_path), "--reference", ref_file, "--output", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert "Cd data" in r.stdout and (tmp_path / "out" / "polar.png").exists()


@pytest.mark.parametrize("name", ["plot_forces.py", "plot_cp.py", "plot_fields.py", "plot_polar.py"])
def test_bad_folder_exits_2(name, tmp_path):
    r = run_script(name, tmp_path / "nothing")
    assert r.returncode == 2 and "error:" in r.stderr, (r.returncode, r.stderr)
    assert not list(tmp_path.iterdir()), "nothing written"


def test_corrupt_hdf5_exits_2(run_dir, tmp_path):
    import shutil

    b = tmp_path / "b"
    shutil.copytree(run_dir, b)
    (b / "fields.h5").write_bytes(b"not hdf5")
    r = run_script("plot_fields.py", b, "--output", tmp_path / "img")
    assert r.returncode == 2 and "not a readable HDF5 file" in r.stderr
    assert not (tmp_path / "img").exists()
