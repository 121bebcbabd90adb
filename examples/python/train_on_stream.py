#!/usr/bin/env python3
"""A PyTorch model trained on fields streamed from a running aerolbm simulation, no files in between.

The simulation (the default case, coarsened) runs on the GPU when there is one: every --every steps its velocity
is handed to PyTorch without a copy (Simulation.device_fields() -> torch.from_dlpack: a view of aerolbm's own
device memory, cloned before the next step overwrites it); on the CPU backend through NumPy
(torch.from_numpy(sim.velocity())). A small convolutional network learns to step the flow forward: from the
density and velocity ((rho - 1)/U, u/U, v/U) and the body mask at step t it predicts the velocity's change to
step t + every. (The density's change is left out: it is dominated by the start-up's pressure waves, which a
snapshot does not determine.) Each new frame is first
a test (the model predicts it before seeing it: the loss is reported against persistence, predicting no change,
which the model beats once it has learned something about the flow), then joins a small buffer of recent frames
the model takes a few training steps on (the whole buffer a batch).

    python3 examples/python/train_on_stream.py [--backend auto|cpu|cuda] [--iterations 100] [--every 4]
Exit status 1 with --check when the model did not beat persistence on its last frames.
"""
import argparse
import os
import sys
import time

import torch

import aerolbm


def frames(sim, every, u_ref, mask, window):
    """Yields (input, state) tensors, one per `every` steps, on the device the simulation runs on: the state is
    the density deviation and the velocity, (rho - 1, u, v) / U (3, ny, nx); the input adds the mask."""
    while True:
        sim.step(every)
        if sim.backend == "cuda":
            d = sim.device_fields()
            rho = torch.from_dlpack(d["density"])  # zero copy: aerolbm's device buffers
            u = torch.from_dlpack(d["velocity"])   # (ny, nx, 3)
            assert u.data_ptr() == d["velocity"].ptr
        else:
            rho = torch.from_numpy(sim.density())  # zero copy of the NumPy arrays
            u = torch.from_numpy(sim.velocity())
        # Ours (a copy) before the next step overwrites the simulation's buffers.
        state = torch.cat([(rho - 1)[None], u[..., :2].permute(2, 0, 1)])[window] / u_ref
        yield torch.cat([state, mask]), state


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", default=None, help="case file (default: cases/naca0012_re1000_aoa5.yaml coarsened)")
    ap.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--chord-cells", type=int, default=20)
    ap.add_argument("--reynolds", type=float, default=200, help="physics.reynolds (the coarse grid needs a low one)")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--every", type=int, default=4, help="steps between frames (sound crosses about half a cell "
                    "per step: a few steps keep the change within the network's 7-cell reach)")
    ap.add_argument("--warmup-steps", type=int, default=200, help="steps before the first frame")
    ap.add_argument("--updates", type=int, default=2, help="training steps per frame")
    ap.add_argument("--width", type=int, default=16, help="channels of the network's hidden layers")
    ap.add_argument("--lr", type=float, default=1e-2, help="Adam's learning rate")
    ap.add_argument("--window", default="0.2,0.6,0.25,0.75",
                    help="the part of the grid trained on, as fractions x0,x1,y0,y1 (around the body), or all")
    ap.add_argument("--buffer", type=int, default=8, help="frames kept for training (the latest ones)")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="exit 1 unless the model beats persistence at the end")
    a = ap.parse_args(argv)

    case_file = a.case or os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "cases",
                                       "naca0012_re1000_aoa5.yaml")
    case = aerolbm.load_case(case_file, set={"geometry.chord_cells": a.chord_cells, "physics.reynolds": a.reynolds,
                                             "output.every": 0})
    sim = aerolbm.Simulation(case, backend=a.backend, threads=a.threads)
    dev = torch.device("cuda" if sim.backend == "cuda" else "cpu")
    torch.manual_seed(0)
    u_ref = case.lattice_units["u_lattice"]
    ny, nx = sim.shape
    if a.window == "all":
        window = (slice(None), slice(None), slice(None))
    else:
        x0, x1, y0, y1 = (float(v) for v in a.window.split(","))
        window = (slice(None), slice(int(y0 * ny), int(y1 * ny)), slice(int(x0 * nx), int(x1 * nx)))
    mask = torch.from_numpy(sim.fields(["mask"])["mask"].astype("float32"))[None].to(dev)[window]
    print(f"{case.name}: {sim.lattice} {sim.grid[0]} x {sim.grid[1]} on {sim.backend} ({sim.device}); a frame every "
          f"{a.every} steps, {a.iterations} frames, trained on {mask.shape[2]} x {mask.shape[1]} cells")
    sim.step(a.warmup_steps)

    w = a.width
    model = torch.nn.Sequential(
        torch.nn.Conv2d(4, w, 3, padding=1), torch.nn.GELU(),
        torch.nn.Conv2d(w, w, 3, padding=1), torch.nn.GELU(),
        torch.nn.Conv2d(w, 2, 3, padding=1)).to(dev)
    with torch.no_grad():  # start from persistence (no change predicted): loss / persistence = 1
        model[-1].weight.zero_()
        model[-1].bias.zero_()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    stream = frames(sim, a.every, u_ref, mask, window)
    x_prev, s_prev = next(stream)
    fluid = 1 - mask
    buffer, ratios, scale = [], [], None
    t0 = time.perf_counter()
    for it in range(a.iterations):
        x, state = next(stream)
        target = (state[1:] - s_prev[1:]) * fluid  # the velocity's change over `every` steps
        if scale is None:
            scale = float(target.std()) or 1.0  # the network works in units of the first frame's change
        with torch.no_grad():  # first a true prediction: the model has not seen this frame
            loss = torch.mean((model(x_prev[None])[0] * scale * fluid - target) ** 2)
            persistence = torch.mean(target ** 2)
        ratios.append(float(loss / persistence))
        # Then learn from it, with the last few frames (the stream's replay buffer).
        buffer = (buffer + [(x_prev, target)])[-a.buffer:]
        xb = torch.stack([b[0] for b in buffer])
        tb = torch.stack([b[1] for b in buffer]) / scale
        for _ in range(a.updates):
            train_loss = torch.mean((model(xb) * fluid - tb) ** 2)
            opt.zero_grad()
            train_loss.backward()
            opt.step()
        if it % 10 == 0 or it == a.iterations - 1:
            print(f"  frame {it:4d} (step {sim.steps_done}): prediction loss {float(loss):.3e}, persistence "
                  f"{float(persistence):.3e}, ratio {ratios[-1]:.3f}")
        x_prev, s_prev = x, state
    last = ratios[-10:]
    mean_last = sum(last) / len(last)
    print(f"{a.iterations} frames in {time.perf_counter() - t0:.1f} s; loss / persistence over the last "
          f"{len(last)} frames: {mean_last:.3f} (first frame {ratios[0]:.3f}); forces now {sim.forces()}")
    if a.check and not mean_last < 0.9:
        print("error: the model did not beat persistence", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
