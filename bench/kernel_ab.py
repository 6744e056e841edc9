"""Two source trees' random playouts side by side: their kernels alternate in short slices, interleaved.

    python bench/kernel_ab.py TREE_A TREE_B [--game mobiatus] [--rounds 20] [--seconds 1]

Each tree runs in its own Python process (``PYTHONPATH`` set to the tree, so each loads its own
``boardlab`` and compiles its own kernels into its own numba cache), playing uniformly random
games from the start with ``kernel.random_playouts`` for ``--seconds`` of its CPU time a slice;
the two take turns, A then B, round after round, so that other work on the machine's shared cores
falls on both alike. Prints each round's random moves a second and B / A, then the median ratio
and the load average. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = """
import sys, time
import numpy as np
import boardlab
from boardlab.core import kernel
game = boardlab.load(sys.argv[1])
start = game.new_game().data.copy()
tally = np.zeros(kernel.MAX_SEATS, np.int64)
kernel.seed_kernels(int(sys.argv[2]))
kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, 20, tally)  # compile, warm
print("ready", flush=True)
for line in sys.stdin:
    seconds = float(line)
    moves = 0
    began = time.process_time()
    while (used := time.process_time() - began) < seconds:
        moves += kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, 20, tally)
    print(moves / used, flush=True)
"""


def start_worker(tree: Path, game: str, seed: int, script: str = WORKER) -> subprocess.Popen[str]:
    """A process running ``script`` (``WORKER``'s protocol: ``ready``, then a rate for each slice asked)
    on ``tree``'s code."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    worker = subprocess.Popen([sys.executable, "-c", script, game, str(seed)], cwd=tree, env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert worker.stdout is not None
    if worker.stdout.readline().strip() != "ready":
        raise SystemExit(f"{tree}: the worker did not start")
    return worker


def slice_rate(worker: subprocess.Popen[str], seconds: float) -> float:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(f"{seconds}\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def alternate(workers: list[subprocess.Popen[str]], rounds: int, seconds: float
              ) -> tuple[list[float], list[float], list[float], list[float]]:
    """Slices from the two ``workers`` (old, new) in turns, the first of a pair flipped each round so that
    neither always runs right after the other; then the workers are stopped. Returns the old and new
    rates, their ratios new/old and the load average after each round."""
    olds, news, ratios, loads = [], [], [], []
    for turn in range(rounds):
        if turn % 2 == 0:
            old, new = slice_rate(workers[0], seconds), slice_rate(workers[1], seconds)
        else:
            new, old = slice_rate(workers[1], seconds), slice_rate(workers[0], seconds)
        olds.append(old)
        news.append(new)
        ratios.append(new / old)
        loads.append(os.getloadavg()[0])
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    return olds, news, ratios, loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree_a", type=Path)
    parser.add_argument("tree_b", type=Path)
    parser.add_argument("--game", default="mobiatus")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    workers = [start_worker(tree.resolve(), args.game, args.seed) for tree in (args.tree_a, args.tree_b)]
    loads = [os.getloadavg()[0]]
    ratios = []
    print(f"{'round':>5} {'A moves/s':>12} {'B moves/s':>12} {'B/A':>6}")
    for round_ in range(args.rounds):
        a = slice_rate(workers[0], args.seconds)
        b = slice_rate(workers[1], args.seconds)
        ratios.append(b / a)
        loads.append(os.getloadavg()[0])
        print(f"{round_ + 1:5} {a:12,.0f} {b:12,.0f} {b / a:6.3f}", flush=True)
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    print(f"median B/A {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}); "
          f"load {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    main()
