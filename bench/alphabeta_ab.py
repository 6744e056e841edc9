"""Two source trees' alpha-beta searches side by side: nodes a second, in alternating slices of CPU time.

    python bench/alphabeta_ab.py OLD_TREE NEW_TREE gtbm --depth 6 [--table] --rounds 10 --seconds 1

Each tree gets a process of its own (``PYTHONPATH`` set to the tree) that searches fixed positions of the
game (after 10, 40 and 80 turns of moves drawn at random, seed 1; those the game reaches) to ``--depth``
for a slice of its own CPU time (``time.process_time``), over and over: with ``alphabeta_kernel.search``
from scratch, or with ``--table`` as the agent deepens, depths 1 to ``--depth`` with one transposition table
emptied before each position (quiescence 2 where the game names its captures). The two take turns, the
order turned round every round, so that whatever else the machine runs weighs on both alike. Each worker
prints (to stderr) the nodes of one pass over the positions, which must be the same for both trees if they
search the same trees. Printed: each tree's median nodes a second and the median new/old over the rounds.
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from kernel_ab import alternate, start_worker  # the same workers' protocol: ready, then a rate a slice

# The worker's first argument is GAME:DEPTH:MODE (start_worker passes a game and a seed).
WORKER = """
import os, random, sys, time
import numpy as np
import boardlab
from boardlab.ai import alphabeta_kernel as ab
from boardlab.ai import alphabeta_table as tt
from boardlab.core import kernel
game_id, depth, mode = sys.argv[1].split(":")
depth = int(depth)
game = boardlab.load(game_id)
rng = random.Random(int(sys.argv[2]))
state = game.new_game()
positions = []
while not state.is_over and state.ply <= 80:
    if state.ply in (10, 40, 80):
        positions.append(state.data.copy())
    state = state.play(rng.choice(state.legal_moves()))
out = np.empty(kernel.MAX_ACTIONS, np.int64)
orders = [out[:game.legal_kernel(data.copy(), game.spec, out)].copy() for data in positions]
table = tt.Table(1 << 18)
noisy = game.noisy_kernel or tt.no_noisy_moves
quiescence = 2 if game.noisy_kernel is not None else 0

def one_pass():
    nodes = 0
    for data, order in zip(positions, orders):
        values = np.zeros(len(order))
        if mode == "plain":
            nodes += ab.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, game.spec, depth,
                               order, values, 10**12)
            continue
        table.keys[:] = 0
        for iteration in range(1, depth + 1):
            nodes += tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, game.spec,
                               iteration, order, values, 10**12, table.keys, table.info, table.values,
                               game.search_key_field, noisy, quiescence, 0.0)
    return nodes

print(f"{os.getcwd()}: {len(positions)} positions, {one_pass():,} nodes a pass", file=sys.stderr, flush=True)
print("ready", flush=True)
for line in sys.stdin:
    seconds = float(line)
    nodes = 0
    began = time.process_time()
    while (used := time.process_time() - began) < seconds:
        nodes += one_pass()
    print(nodes / used, flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the tree measured first (its repository root)")
    parser.add_argument("new", help="the tree compared with it")
    parser.add_argument("game", help="a game alpha-beta can search (gtbm, horsmeier, mynd, mobiatus)")
    parser.add_argument("--depth", type=int, default=6, help="plies searched (6)")
    parser.add_argument("--table", action="store_true", help="deepen with a transposition table, as the agent")
    parser.add_argument("--rounds", type=int, default=10, help="turns of each tree (10)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a slice (1)")
    args = parser.parse_args()
    task = f"{args.game}:{args.depth}:{'table' if args.table else 'plain'}"
    workers = [start_worker(Path(tree).resolve(), task, 1, WORKER) for tree in (args.old, args.new)]

    olds, news, ratios, loads = alternate(workers, args.rounds, args.seconds)
    print(f"{task}: median old {statistics.median(olds):,.0f} nodes/s, new {statistics.median(news):,.0f} nodes/s, "
          f"median new/old {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}; "
          f"{args.rounds} rounds of {args.seconds} s of CPU), load {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    main()
