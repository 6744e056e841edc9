"""Two source trees' MCTS searches side by side: iterations a second, in alternating slices of CPU time.

    python bench/search_ab.py OLD_TREE NEW_TREE ndengrod --rounds 10 --seconds 0.5

Each tree gets a process of its own (``PYTHONPATH`` set to the tree) that searches the game's start
position with level 5's settings as plain MCTS (no tree kept between analyses, 1,000 iterations each)
for a slice of its own CPU time (``time.process_time``); the two take turns, the order turned round
every round, so that whatever else the machine runs weighs on both alike. Printed: each tree's median
iterations a second and the median new/old over the rounds. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from kernel_ab import alternate, start_worker  # the same workers' protocol: ready, then a rate a slice

WORKER = """
import sys, time
from dataclasses import replace
import boardlab
from boardlab.ai.levels import make_agent
from boardlab.ai.mcts import MCTSAgent
game = boardlab.load(sys.argv[1])
view = game.new_game().view(0)
settings = replace(make_agent("level5").settings_for(game), algorithm="mcts", reuse_tree=False)
MCTSAgent(replace(settings, iterations=200, seconds=None), seed=1).analyse(view)  # compiled before timing
print("ready", flush=True)
for line in sys.stdin:
    seconds = float(line)
    agent = MCTSAgent(replace(settings, seconds=None, iterations=1000), seed=1)
    done = 0
    began = time.process_time()
    while (used := time.process_time() - began) < seconds:
        agent.analyse(view)
        done += agent.iterations_done
    print(done / used, flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the tree measured first (its repository root)")
    parser.add_argument("new", help="the tree compared with it")
    parser.add_argument("game", help="the game (ndengrod, horsmeier, …)")
    parser.add_argument("--rounds", type=int, default=10, help="turns of each tree (10)")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds a slice (0.5)")
    args = parser.parse_args()
    workers = [start_worker(Path(tree).resolve(), args.game, 1, WORKER) for tree in (args.old, args.new)]

    olds, news, ratios, loads = alternate(workers, args.rounds, args.seconds)
    print(f"{args.game}: median old {statistics.median(olds):,.0f} it/s, new {statistics.median(news):,.0f} it/s, "
          f"median new/old {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}; "
          f"{args.rounds} rounds of {args.seconds} s of CPU), load {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    main()
