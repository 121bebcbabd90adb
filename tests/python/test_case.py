"""Cases from Python: the command line's loader, overrides and messages."""
import json
import os

import pytest

import aerolbm
from conftest import DEFAULT_CASE, SMALL, cli, sets


def test_load_case_matches_check(aerolbm_bin):
    c = aerolbm.load_case(DEFAULT_CASE, set=SMALL)
    assert c.name == "naca0012_re1000_aoa5" and c.lattice == "D2Q9"
    units = c.lattice_units
    assert units["nx"] == 320 and units["ny"] == 160 and units["nz"] == 1
    assert units["tau"] == pytest.approx(3 * units["nu_lattice"] + 0.5, rel=1e-12)
    rc, out, err = cli(aerolbm_bin, "check", DEFAULT_CASE, *sets(SMALL))
    assert rc == 0, err
    # `aerolbm check` prints the same summary (then the body cells and OK).
    assert c.describe() in out, (out, c.describe())


def test_overrides_as_dict_list_and_alias():
    a = aerolbm.load_case(DEFAULT_CASE, set={"flow.angle_of_attack_deg": 8, "domain.size_chords": [8, 4],
                                            "lattice.collision": "trt", "geometry.chord_cells": 20})
    b = aerolbm.load_case(DEFAULT_CASE, set=["physics.angle_of_attack_deg=8", "domain.size_chords=[8, 4]",
                                            "lattice.collision=trt", "geometry.chord_cells=20"])
    for c in (a, b):
        assert c.lattice_units["angle_of_attack_deg"] == 8
        assert (c.lattice_units["nx"], c.lattice_units["ny"]) == (160, 80)
        assert "angle_of_attack_deg: 8" in c.yaml and "collision: trt" in c.yaml


@pytest.mark.parametrize("override, want", [
    ("physics.mahc=0.2", "Did you mean"),
    ("physics.mach=fast", "physics.mach"),
    ("physics.mach=0.9", "physics.mach"),
    ("geometry.chord_cells=-4", "geometry.chord_cells"),
])
def test_bad_override_raises_the_cli_message(aerolbm_bin, override, want):
    rc, out, err = cli(aerolbm_bin, "check", DEFAULT_CASE, "--set", override)
    assert rc == 2
    with pytest.raises(aerolbm.InputError) as e:
        aerolbm.load_case(DEFAULT_CASE, set=[override])
    assert isinstance(e.value, ValueError)
    assert want in str(e.value)
    assert err.strip() == "error: " + str(e.value).strip()


def test_bad_file_names_file_line_and_key(tmp_path, aerolbm_bin):
    text = open(DEFAULT_CASE).read().replace("  reynolds: 1000", "  reynolds: -3")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if "reynolds: -3" in t)
    with pytest.raises(aerolbm.InputError) as e:
        aerolbm.load_case(bad)
    msg = str(e.value)
    assert f"{bad}:{line}" in msg and "physics.reynolds" in msg, msg
    rc, _, err = cli(aerolbm_bin, "check", str(bad))
    assert rc == 2 and err.strip() == "error: " + msg.strip()


def test_missing_file():
    with pytest.raises(aerolbm.InputError, match="no such file"):
        aerolbm.load_case("/nonexistent/case.yaml")


def test_dict_case_is_validated_like_a_file(tmp_path):
    d = {"schema_version": 1, "case": {"name": "box"}, "physics": {"reynolds": 100, "mach": 0.1},
         "geometry": {"type": "none", "reference_cells": 32},
         "domain": {"size_chords": [1, 0.5], "body_position_chords": [0.5, 0.25]},
         "boundaries": {"inlet": "periodic", "outlet": "periodic", "lateral": "periodic"},
         "output": {"every": 0}}
    c = aerolbm.load_case(d)
    assert c.name == "box" and (c.lattice_units["nx"], c.lattice_units["ny"]) == (32, 16)
    # The same dict written as a file (JSON is YAML) gives the same case.
    f = tmp_path / "box.yaml"
    f.write_text(json.dumps(d))
    assert aerolbm.load_case(f).lattice_units == c.lattice_units
    bad = dict(d, physics={"reynolds": 100, "mach": "0.1"})  # a quoted number
    with pytest.raises(aerolbm.InputError) as e:
        aerolbm.load_case(bad)
    assert "<dict>:" in str(e.value) and "physics.mach" in str(e.value)
    with pytest.raises(aerolbm.InputError, match="(?i)did you mean"):
        aerolbm.load_case(dict(d, phyiscs={"mach": 0.1}))
    with pytest.raises(aerolbm.InputError, match="YAML cannot carry"):
        aerolbm.load_case(dict(d, physics={"reynolds": float("nan"), "mach": 0.1}))


def test_simulation_takes_a_path_or_a_dict():
    sim = aerolbm.Simulation(DEFAULT_CASE, backend="cpu", steps=10)
    assert sim.backend == "cpu" and sim.total_steps == 10 and sim.grid == (640, 320, 1)
    with pytest.raises(aerolbm.InputError, match="--backend"):
        aerolbm.Simulation(aerolbm.load_case(DEFAULT_CASE, set=SMALL), backend="gpu")


def test_build_info_and_lattice():
    info = aerolbm.build_info()
    assert info["version"] == aerolbm.__version__
    lat = aerolbm.lattice("D3Q19")
    assert lat["q"] == 19 and lat["c"].shape == (19, 3)
    assert abs(lat["w"].sum() - 1) < 1e-15
    # Opposite pairs (2k-1, 2k).
    assert (lat["c"][1::2] == -lat["c"][2::2]).all()
    with pytest.raises(aerolbm.InputError):
        aerolbm.lattice("D2Q7")
