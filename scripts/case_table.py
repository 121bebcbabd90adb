#!/usr/bin/env python3
"""Markdown table of `aerolbm bench --case ... --json FILE` results: one row per case, variant and storage.

Usage: case_table.py FILE.json [FILE.json ...]  (prints to standard output)
"""
import json
import sys


def mode(kernel):
    """How the step reached the boundary cells (the CUDA backend's kernel description)."""
    for words, label in (("overlapping its tail", "split"), ("interior blocks", "roles"), ("one pass", "one")):
        if words in kernel:
            return f" ({label}, open faces in plane)" if "open faces in the plane" in kernel else f" ({label})"
    return ""


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print("| case | lattice | grid | near-wall cells | variant | storage | box MLUPs | case MLUPs | case / box | % of copy |")
    print("| --- | --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: |")
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        grid = f"{doc['nx']} × {doc['ny']} × {doc['nz']}"
        for r in doc["results"]:
            flag = "" if r.get("forces_finite", True) else " (diverged)"
            print(f"| {doc['case']} | {doc['lattice']} | {grid} | {doc['near_wall_cells']:,} | {r['variant']}{mode(r.get('kernel', ''))} | "
                  f"{r['storage']} | {r['box_mlups']:,.0f} | {r['case_mlups']:,.0f}{flag} | "
                  f"{100 * r['ratio']:.1f} % | {r['percent_of_copy']:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
