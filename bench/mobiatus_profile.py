"""Where a Möbiatus ply's time goes: listing (by phase) against playing, over recorded random games.

    PYTHONPATH=. .venv/bin/python bench/mobiatus_profile.py [--games 300] [--rounds 3]

Random games are recorded once (numba's RNG, seeded), then replayed by small njit drivers: playing
the recorded actions alone (``apply``, which at a turn's end keeps the groups up to date and asks
whether the next player has a move), and again with ``legal`` called before the steps of one phase
(START: a piece and its leap; SLIDE: where a slide comes to rest; CHAIN: the next hop after a
capture). The difference is that phase's listing, in ns for each ply of the games. Then each
phase's listing is called ten times over on each of its positions: the cost of one call with the
caches warm and the branches learnt. CPU time, best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

import boardlab
from boardlab.core.kernel import TO_MOVE
from boardlab.games.mobiatus.layout import F_PHASE

PHASES = ("START", "SLIDE", "CHAIN")


@njit(cache=True)
def record(legal, apply, start, spec, games, seed):  # type: ignore[no-untyped-def]
    """Play ``games`` random games from ``start``; return their actions and each game's length."""
    np.random.seed(seed)
    out = np.empty(4096, np.int64)
    actions = np.empty(games * 400, np.int64)
    lengths = np.zeros(games, np.int64)
    n = 0
    for game in range(games):
        state = start.copy()
        while state[TO_MOVE] >= 0:
            count = legal(state, spec, out)
            action = out[np.random.randint(count)]
            if n == actions.shape[0]:
                actions = np.concatenate((actions, np.empty(actions.shape[0], np.int64)))
            actions[n] = action
            n += 1
            apply(state, spec, action)
            lengths[game] += 1
    return actions[:n], lengths


@njit(cache=True)
def replay(legal, apply, start, spec, actions, lengths, phase, repeats):  # type: ignore[no-untyped-def]
    """Play the recorded games again, calling ``legal`` ``repeats`` times before each step of ``phase``
    (-1: none); return how many positions of that phase there were."""
    out = np.empty(4096, np.int64)
    n = 0
    positions = 0
    for game in range(lengths.shape[0]):
        state = start.copy()
        for _ in range(lengths[game]):
            if state[F_PHASE] == phase:
                positions += 1
                for _ in range(repeats):
                    legal(state, spec, out)
            apply(state, spec, actions[n])
            n += 1
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    game = boardlab.load("mobiatus")
    legal, apply, spec = game.legal_kernel, game.apply_kernel, game.spec
    start = game.new_game().data.copy()
    actions, lengths = record(legal, apply, start, spec, args.games, 7)
    plies = len(actions)

    def best(phase: int, repeats: int) -> float:
        replay(legal, apply, start, spec, actions, lengths, phase, repeats)
        times = []
        for _ in range(args.rounds):
            began = time.process_time()
            replay(legal, apply, start, spec, actions, lengths, phase, repeats)
            times.append(time.process_time() - began)
        return min(times)

    playing = best(-1, 0)
    print(f"{args.games} random games, {plies} plies ({plies / args.games:.0f} a game); "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"playing (apply alone): {playing / plies * 1e9:.0f} ns a ply")
    for phase, name in enumerate(PHASES):
        positions = replay(legal, apply, start, spec, actions, lengths, phase, 0)
        listing = best(phase, 1) - playing
        repeated = (best(phase, 10) - playing) / 10
        print(f"listing {name}: {listing / plies * 1e9:.0f} ns a ply ({positions} positions, "
              f"{listing / max(positions, 1) * 1e9:.0f} ns each; called again and again "
              f"{repeated / max(positions, 1) * 1e9:.0f} ns each)")


if __name__ == "__main__":
    main()
