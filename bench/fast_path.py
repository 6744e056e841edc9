"""The fast path against whole turns: microseconds a decision, per game.

    PYTHONPATH=. .venv/bin/python bench/fast_path.py [--games 5] [--repeat 3]

Plays the same random games (default options, seeds 0…, new ones each round) three ways and prints microseconds per
decision (atomic action): ``legal_moves()`` + ``play()`` (whole turns with notation; a turn's time is
spread over its actions), the :class:`~boardlab.core.stepper.Stepper` keeping the history, and the
Stepper without history; then the first as a multiple of the second. Times are CPU seconds of this
process (``time.process_time``), the best of ``--repeat`` rounds in which the three ways take turns,
so that other work on the machine's shared cores disturbs them less; the load average is printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import boardlab


def by_moves(game: boardlab.Game, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    state = game.new_game()
    began = time.process_time()
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state.ply, time.process_time() - began


def by_stepper(game: boardlab.Game, seed: int, keep: bool) -> tuple[int, float]:
    rng = random.Random(seed)
    stepper = game.new_game().stepper(keep_history=keep)
    began = time.process_time()
    while not stepper.is_over:
        stepper.apply(rng.choice(stepper.legal_actions()))
    return stepper.ply, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="game ids (default: every game)")
    args = parser.parse_args()
    print(f"µs per decision (CPU), {args.games} random games each, default options, best of {args.repeat}; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'game':10} {'legal_moves+play':>17} {'Stepper':>9} {'no history':>11} {'ratio':>6}")
    for info in boardlab.games():
        if args.only and info.id not in args.only:
            continue
        game = boardlab.load(info.id)
        by_moves(game, 99)  # compile and warm the kernels
        best = [float("inf")] * 3
        for round_ in range(args.repeat):
            for index, way in enumerate(("moves", "stepper", "bare")):
                plies = seconds = 0.0
                # Fresh games each round (the three ways play the same ones), so that no round replays
                # positions whose moves an earlier round left in the game's tables.
                for seed in range(round_ * args.games, (round_ + 1) * args.games):
                    n, t = by_moves(game, seed) if way == "moves" else by_stepper(game, seed, way == "stepper")
                    plies, seconds = plies + n, seconds + t
                best[index] = min(best[index], 1e6 * seconds / plies)
        print(f"{info.id:10} {best[0]:17.1f} {best[1]:9.1f} {best[2]:11.1f} {best[0] / best[1]:6.1f}", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
