"""Playtest throughput: games per second with 1 and 2 worker processes and with Ray on this machine.

    .venv/bin/python bench/playtest_throughput.py [--games 24] [--agent uct:iterations=300] [--size 4]

Plays the same games (Ndengrod, side 4 and lines of 4 unless ``--size``; the same seeds) each way into a fresh folder
and prints games/s with the load average before and after, since other work on the machine shares
its cores. Start-up is included (a pool spawns its processes; Ray starts a local cluster), as a
designer running ``boardlab playtest`` would see it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from boardlab.playtest.run import Plan, run_plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--agent", default="uct:iterations=300")
    parser.add_argument("--size", type=int, default=4, help="Ndengrod's side (lines as long as the side)")
    args = parser.parse_args()
    plan = Plan("ndengrod", {"size": args.size, "length": args.size}, {}, (args.agent,), args.games, seed=1)
    print(f"{args.games} games of ndengrod size={args.size} length={args.size}, {args.agent} in both seats; "
          f"cores: {os.cpu_count()}")
    for label, kwargs in (("1 worker", {"workers": 1}), ("2 workers", {"workers": 2}),
                          ("Ray local (2 CPUs)", {"workers": 2, "ray_address": "local"})):
        with tempfile.TemporaryDirectory() as folder:
            before = os.getloadavg()
            began = time.perf_counter()
            traces = run_plan(plan, Path(folder), **kwargs)  # type: ignore[arg-type]
            seconds = time.perf_counter() - began
            after = os.getloadavg()
        turns = sum(t.turns for t in traces)
        print(f"{label:>20}: {len(traces) / seconds:6.2f} games/s ({seconds:5.1f} s, {turns} turns); "
              f"load average {before[0]:.2f} before, {after[0]:.2f} after")


if __name__ == "__main__":
    main()
