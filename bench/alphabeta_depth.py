"""Alpha-beta's cost by depth: nodes and seconds to search GTBM positions to a fixed depth.

    PYTHONPATH=. .venv/bin/python bench/alphabeta_depth.py [--depths 5 6 7 8] [--plies 10 40 80]
        [--seed 1] [--table] [-o NAME=VALUE]

The positions are those after ``--plies`` plies of a game between two level-2 players (seed
``--seed``): they search one ply, so the positions do not depend on how the search orders its
tree. Each depth is searched once, from scratch, with the root moves in legal order, so the
figures measure the search itself and not the deepening around it. Prints one line per position
and depth: nodes, seconds, nodes a second, and the best root move's value. With ``--table`` each
line also gives the nodes of the search with a fresh transposition table (``alphabeta_table``), and
of the whole iterative deepening to that depth with one table (depths 1 to the depth, as the agent
runs it), with their best values (the same as the plain search's).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import boardlab
from boardlab.ai import alphabeta_kernel as ab
from boardlab.ai import alphabeta_table as tt
from boardlab.ai.levels import make_agent
from boardlab.core import kernel


def positions(game: boardlab.Game, plies: list[int], seed: int) -> dict[int, np.ndarray]:
    agents = {0: make_agent("level2", seed=seed), 1: make_agent("level2", seed=seed + 1)}
    state = game.new_game()
    found: dict[int, np.ndarray] = {}
    while state.result is None and state.ply <= max(plies):
        if state.ply in plies:
            found[state.ply] = state.data.copy()
        seat = state.to_move
        assert seat is not None
        state = state.play(agents[seat].choose(state.view(seat)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[5, 6, 7, 8])
    parser.add_argument("--plies", type=int, nargs="+", default=[10, 40, 80])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table", action="store_true", help="also search with a transposition table")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    game = boardlab.load("gtbm", **dict(item.split("=", 1) for item in args.option))
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    for ply, data in positions(game, args.plies, args.seed).items():
        count = game.legal_kernel(data.copy(), game.spec, out)
        order = out[:count].copy()
        for depth in args.depths:
            values = np.zeros(count, np.float64)
            began = time.perf_counter()
            nodes = ab.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, game.spec,
                              depth, order, values, 10**12)
            spent = time.perf_counter() - began
            line = (f"ply {ply:3d}  depth {depth}  nodes {nodes:>11,}  {spent:7.2f} s  "
                    f"{nodes / spent:>10,.0f} nodes/s  best {values.max():.4f}")
            if args.table:
                fresh, fresh_best = _with_table(game, data, order, [depth])
                deepened, deepened_best = _with_table(game, data, order, list(range(1, depth + 1)))
                line += (f"  table: nodes {fresh:>11,} best {fresh_best:.4f}, deepening 1-{depth}: nodes "
                         f"{deepened:>11,} best {deepened_best:.4f}")
            print(line, flush=True)


def _with_table(game: boardlab.Game, data: np.ndarray, order: np.ndarray, depths: list[int]) -> tuple[int, float]:
    """The nodes of searches to ``depths`` in turn with one fresh table, and the last one's best value."""
    table = tt.Table()
    noisy = getattr(game, "noisy_kernel", tt.no_noisy_moves)
    key_field = int(getattr(game, "search_key_field", -1))
    total = 0
    values = np.zeros(len(order), np.float64)
    for depth in depths:
        values = np.zeros(len(order), np.float64)
        total += int(tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, game.spec, depth,
                               order, values, 10**12, table.keys, table.info, table.values, key_field, noisy, 0, 0.0))
    return total, float(values.max())


if __name__ == "__main__":
    main()
