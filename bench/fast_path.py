"""The fast path against whole turns: microseconds a decision, per game.

    PYTHONPATH=. .venv/bin/python bench/fast_path.py [--games 5]

Plays the same random games (default options, seeds 0…) three ways and prints microseconds per
decision (atomic action): ``legal_moves()`` + ``play()`` (whole turns with notation; a turn's time is
spread over its actions), the :class:`~boardlab.core.stepper.Stepper` keeping the history, and the
Stepper without history. The load average is printed too: the machine's cores are shared.
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
    began = time.perf_counter()
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state.ply, time.perf_counter() - began


def by_stepper(game: boardlab.Game, seed: int, keep: bool) -> tuple[int, float]:
    rng = random.Random(seed)
    stepper = game.new_game().stepper(keep_history=keep)
    began = time.perf_counter()
    while not stepper.is_over:
        stepper.apply(rng.choice(stepper.legal_actions()))
    return stepper.ply, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print(f"µs per decision, {args.games} random games each, default options; load {os.getloadavg()[0]:.1f}")
    print(f"{'game':10} {'legal_moves+play':>17} {'Stepper':>9} {'no history':>11}")
    for info in boardlab.games():
        game = boardlab.load(info.id)
        by_moves(game, 99)  # compile and warm the kernels
        cells = []
        for way in ("moves", "stepper", "bare"):
            plies = seconds = 0.0
            for seed in range(args.games):
                n, t = by_moves(game, seed) if way == "moves" else by_stepper(game, seed, way == "stepper")
                plies, seconds = plies + n, seconds + t
            cells.append(1e6 * seconds / plies)
        print(f"{info.id:10} {cells[0]:17.1f} {cells[1]:9.1f} {cells[2]:11.1f}", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
