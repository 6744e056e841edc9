"""GTBM's evaluation against material alone: the same alpha-beta search, two ways of scoring leaves.

    PYTHONPATH=. .venv/bin/python bench/gtbm_evaluation.py [--games 20] [--depth 4 | --seconds S]
        [--first 1] [-o NAME=VALUE]

Both sides search to the same depth (``--depth``, no time limit that matters), or for the same time
a move (``--seconds``: iterative deepening, as deep as the time allows); one scores its leaves with
GTBM's evaluation, the other with the material count it replaced (a logistic of the difference in
pieces). Seats alternate, seeds ``first``, ``first + 1``, … Prints the evaluation's wins, draws and
losses with Wilson's 95% interval, and the mean length in plies. A search on material alone prunes
far more (most leaves are equal), so at equal time it reaches deeper: ``--seconds`` weighs that.
"""

from __future__ import annotations

import argparse

import boardlab
from boardlab.ai.alphabeta import AlphaBetaAgent
from boardlab.match import play_out, score_of, wilson


def play(game: boardlab.Game, depth: int, seconds: float, index: int, first: int) -> tuple[float, int]:
    """Game ``index``: the evaluation sits at seat ``index % 2``. Its score, and the plies played."""
    seed = first + index
    seat = index % 2
    agents = {seat: AlphaBetaAgent(seconds=seconds, max_depth=depth, seed=seed * 97 + seat),
              1 - seat: AlphaBetaAgent(seconds=seconds, max_depth=depth, seed=seed * 97 + 1 - seat,
                                       evaluation="material")}
    state = play_out(game.new_game(), agents)
    assert state.result is not None
    return score_of(state.result, seat), state.ply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--depth", type=int, help="plies for both sides (default 4)")
    budget.add_argument("--seconds", type=float, help="seconds a move for both sides, as deep as they reach")
    parser.add_argument("--first", type=int, default=1, help="seed of the first game")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    game = boardlab.load("gtbm", **options)
    scores, plies = [], []
    depth, seconds = (32, args.seconds) if args.seconds else (args.depth or 4, 600.0)
    for index in range(args.games):
        score, ply = play(game, depth, seconds, index, args.first)
        scores.append(score)
        plies.append(ply)
        print(f"game {index + 1}: evaluation scored {score} in {ply} plies", flush=True)
    wins, draws = scores.count(1.0), scores.count(0.5)
    low, high = wilson(sum(scores) / len(scores), len(scores))
    told = f"{seconds} s a move" if args.seconds else f"depth {depth}"
    print(f"evaluation vs material, {told}, seeds {args.first}–{args.first + args.games - 1}, "
          f"{options or 'default options'}: "
          f"+{wins} ={draws} -{len(scores) - wins - draws}; score {sum(scores) / len(scores):.1%} "
          f"(95% CI {low:.1%}–{high:.1%}); mean length {sum(plies) / len(plies):.1f} plies")


if __name__ == "__main__":
    main()
