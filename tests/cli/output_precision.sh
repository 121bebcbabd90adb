#!/usr/bin/env bash
# output.precision: fp16 stores the HDF5 float datasets as IEEE half floats: h5py reads them as float16, equal to
# the fp32 run's values rounded to half precision (numpy's rounding: to nearest, ties to even), within 2^-11
# relative; the mask stays 8-bit; fields.xdmf declares them as 4-byte floats (HDF5 converts when ParaView reads);
# the VTK files stay Float32, byte for byte those of the fp32 run. summary.json counts the bytes the frames took.
# A bad value is refused (exit 2) with the usual message.
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
ARGS=(--backend cpu --threads 2 --steps 300 --set output.every=100 --set checkpoint.every=100 --set geometry.chord_cells=32
      --set "output.fields=[velocity,pressure,density,vorticity,q_criterion,mask]")

"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/fp32" > "$WORK/fp32.log" 2>&1 || { tail "$WORK/fp32.log"; fail "fp32 run"; }
"$BIN" run "$CASE" "${ARGS[@]}" --set output.precision=fp16 -o "$WORK/fp16" > "$WORK/fp16.log" 2>&1 ||
  { tail "$WORK/fp16.log"; fail "fp16 run"; }

set +e
"$BIN" check "$CASE" --set output.precision=fp8 > "$WORK/bad.log" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || fail "output.precision=fp8: exit $rc, expected 2"
grep -q "output.precision" "$WORK/bad.log" && grep -q "fp16" "$WORK/bad.log" ||
  { cat "$WORK/bad.log"; fail "the message does not name the key and the allowed values"; }

for f in "$WORK"/fp32/vtk/*.vti; do
  cmp -s "$f" "$WORK/fp16/vtk/$(basename "$f")" || fail "$(basename "$f") differs: VTK must stay Float32"
done

"$PY" - "$WORK/fp32" "$WORK/fp16" <<'PY'
import json, os, sys
import h5py
import numpy as np

a_run, b_run = sys.argv[1], sys.argv[2]
fa, fb = h5py.File(f"{a_run}/fields.h5", "r"), h5py.File(f"{b_run}/fields.h5", "r")
assert sorted(fa.keys()) == sorted(fb.keys()) == ["frame_000000", "frame_000001", "frame_000002"], list(fb.keys())
for name in fa.keys():
    ga, gb = fa[name], fb[name]
    assert sorted(ga.keys()) == sorted(gb.keys()), (list(ga.keys()), list(gb.keys()))
    assert gb.attrs["step"] == ga.attrs["step"]
    for d in ga.keys():
        a, b = ga[d][...], gb[d][...]
        assert a.shape == b.shape, d
        if d == "mask":
            assert a.dtype == b.dtype == np.uint8 and np.array_equal(a, b), d
            continue
        assert a.dtype == np.float32 and b.dtype == np.float16, (d, a.dtype, b.dtype)
        assert np.array_equal(b, a.astype(np.float16)), f"{name}/{d}: not the fp32 values rounded to half"
        normal = np.abs(a) >= 2.0 ** -14
        rel = np.abs(b[normal].astype(np.float64) - a[normal]) / np.abs(a[normal])
        assert rel.max() <= 2.0 ** -11, (d, rel.max())
        assert np.isfinite(b).all(), d
    print(f"{name}: {len(ga.keys())} datasets, float16 = float32 rounded to half")

xdmf = open(f"{b_run}/fields.xdmf").read()
assert 'NumberType="Float" Precision="4"' in xdmf and 'Precision="2"' not in xdmf

def frame_files(run):
    total = 0
    for sub in ("fields", "vtk", "surface"):  # surface: the 2D body's surface table beside each frame
        for f in os.listdir(f"{run}/{sub}"):
            total += os.path.getsize(f"{run}/{sub}/{f}")
    return total

index = ("fields.h5", "fields.xdmf", "fields.pvd")
for run in (a_run, b_run):
    s = json.load(open(f"{run}/summary.json"))
    out = s["output"]
    written = out["frame_bytes_written"]
    files = frame_files(run)
    final_index = sum(os.path.getsize(f"{run}/{f}") for f in index)
    # Every index file is rewritten after each frame: between one and three (frames) rewrites of the final ones.
    assert files + final_index <= written <= files + 3 * final_index, (run, written, files, final_index)
    assert out["checkpoint_bytes_written"] >= os.path.getsize(f"{run}/checkpoint.h5"), out
    assert out["frames_in_flight_max"] >= 2 and out["fields_computed_on"] == "host", out
print("fp32 frames", json.load(open(f"{a_run}/summary.json"))["output"]["frame_bytes_written"], "bytes, fp16",
      json.load(open(f"{b_run}/summary.json"))["output"]["frame_bytes_written"])
assert json.load(open(f"{b_run}/summary.json"))["output"]["precision"] == "fp16"
h5a = sum(os.path.getsize(f"{a_run}/fields/{f}") for f in os.listdir(f"{a_run}/fields"))
h5b = sum(os.path.getsize(f"{b_run}/fields/{f}") for f in os.listdir(f"{b_run}/fields"))
assert h5b < 0.6 * h5a, (h5a, h5b)
PY
echo "ok: fp16 HDF5 frames read back as float16 at half precision; VTK unchanged; bytes counted"
