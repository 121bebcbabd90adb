#!/usr/bin/python3
"""Writes cases/data/spheroid.stl: a closed prolate spheroid (length 200, diameter 60, model units = mm) as a
binary STL, for cases/stl_example.yaml. Vertices are shared exactly between neighbouring triangles (computed once,
rounded to float32 as STL stores them), so the mesh is closed and consistently oriented (outward normals).

Usage: /usr/bin/python3 scripts/make_example_stl.py [output.stl]
"""
import math
import pathlib
import struct
import sys

A, B = 100.0, 30.0        # semi-axes: x (length / 2), y and z (diameter / 2)
N_LAT, N_LON = 24, 48     # rings from nose to tail, points around


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def vertices():
    nose, tail = (-A, 0.0, 0.0), (A, 0.0, 0.0)
    rings = []
    for i in range(1, N_LAT):
        # Cosine spacing along x puts more rings near the blunt ends.
        t = math.pi * i / N_LAT
        x, r = -A * math.cos(t), B * math.sin(t)
        rings.append([(f32(x), f32(r * math.cos(2 * math.pi * j / N_LON)), f32(r * math.sin(2 * math.pi * j / N_LON)))
                      for j in range(N_LON)])
    return nose, rings, tail


def triangles():
    nose, rings, tail = vertices()
    tris = []
    # Outward normals: going round +x by the right-hand rule, (a, b, c) with b−a, c−a counter-clockwise seen from
    # outside.
    first, last = rings[0], rings[-1]
    for j in range(N_LON):
        k = (j + 1) % N_LON
        tris.append((nose, first[k], first[j]))
        tris.append((tail, last[j], last[k]))
    for ring, nxt in zip(rings, rings[1:]):
        for j in range(N_LON):
            k = (j + 1) % N_LON
            tris.append((ring[j], ring[k], nxt[k]))
            tris.append((ring[j], nxt[k], nxt[j]))
    return tris


def normal(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    s = math.sqrt(sum(x * x for x in n)) or 1.0
    return [x / s for x in n]


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "cases" / "data" / "spheroid.stl"
    tris = triangles()
    # Sanity: the centroid-to-face vector and the normal agree for every face (outward).
    for a, b, c in tris:
        n = normal(a, b, c)
        m = [(a[i] + b[i] + c[i]) / 3 for i in range(3)]
        assert sum(n[i] * m[i] for i in range(3)) > 0, "inward face"
    data = bytearray(b"aerolbm example: prolate spheroid 200 x 60 mm".ljust(80, b" "))
    data += struct.pack("<I", len(tris))
    for a, b, c in tris:
        data += struct.pack("<3f", *normal(a, b, c))
        for v in (a, b, c):
            data += struct.pack("<3f", *v)
        data += b"\0\0"
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(bytes(data))
    tmp.replace(out)
    print(f"{out}: {len(tris)} triangles, {len(data)} bytes")


if __name__ == "__main__":
    main()
