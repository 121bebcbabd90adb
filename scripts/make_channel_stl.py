#!/usr/bin/python3
"""Writes cases/data/channel_walls.stl: the two walls of a plane channel as two closed boxes (ASCII STL, model
units = the channel's half height h), for cases/channel_re_tau*.yaml. Placed with its pivot (the origin) at the
domain's centre, a domain 2.2 h high that is periodic in y holds one box across its low y face and one across its
high y face, 0.1 h of each inside: the fluid between them is a channel 2 h high. Both boxes reach beyond the
domain's x and z faces, which are periodic too, so the walls run through the whole domain.

Usage: /usr/bin/python3 scripts/make_channel_stl.py [output.stl]
"""
import pathlib
import sys

HALF_X, HALF_Z = 4.0, 2.4     # beyond a domain of 6.4 h × 3.2 h centred on the pivot
WALLS = [(-1.2, -1.0), (1.0, 1.2)]  # y extent of the low and the high wall (the domain: -1.1 to 1.1)


def box(lo, hi):
    """The 12 triangles of an axis-aligned box, counter-clockwise seen from outside."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (3, 7, 6, 2), (0, 4, 7, 3), (1, 2, 6, 5)]
    tris = []
    for a, b, c, d in quads:
        tris += [(v[a], v[b], v[c]), (v[a], v[c], v[d])]
    return tris


def normal(t):
    a, b, c = t
    u = [b[i] - a[i] for i in range(3)]
    w = [c[i] - a[i] for i in range(3)]
    n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
    length = sum(x * x for x in n) ** 0.5
    return [x / length for x in n]


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                       pathlib.Path(__file__).resolve().parent.parent / "cases/data/channel_walls.stl")
    lines = ["solid channel_walls"]
    for y0, y1 in WALLS:
        lo, hi = (-HALF_X, y0, -HALF_Z), (HALF_X, y1, HALF_Z)
        centre = [(lo[i] + hi[i]) / 2 for i in range(3)]
        for t in box(lo, hi):
            n = normal(t)
            mid = [sum(p[i] for p in t) / 3 - centre[i] for i in range(3)]
            assert sum(n[i] * mid[i] for i in range(3)) > 0, "a face points into its box"
            lines.append("  facet normal {:g} {:g} {:g}".format(*n))
            lines.append("    outer loop")
            lines += ["      vertex {:g} {:g} {:g}".format(*p) for p in t]
            lines.append("    endloop")
            lines.append("  endfacet")
    lines.append("endsolid channel_walls")
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
