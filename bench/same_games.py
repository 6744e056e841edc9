"""Seeded random games under several rule sets, digested: run it on two trees and compare the lines.

    python bench/same_games.py [--game mobiatus] [--games 200]

For each rule set (``RULE_SETS`` for the game, else its defaults) it plays ``--games`` random games
with the game's kernels (numba's generator seeded once per rule set), recording every legal action
list and the action drawn from it, each game's end and final state vector's header, and prints a
SHA-256 of all of it with the plies played; then the same for ``kernel.random_playouts`` (total
plies and each seat's points). A kernel change that keeps the rules and the order of the legal
actions prints the same lines. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

import numpy as np
from numba import njit

import boardlab
from boardlab.core import kernel
from boardlab.core.kernel import HEADER, MAX_ACTIONS, TO_MOVE

RULE_SETS: dict[str, list[dict[str, Any]]] = {
    "mobiatus": [
        {},
        {"mandatory_capture": "on"},
        {"mandatory_capture": "maximal"},
        {"chain_capture": "must_continue_capturing"},
        {"origin_joins_slide_group": True},
        {"first_player": "pie", "limit_result": "more_pieces_wins", "move_pair_limit": 30},
        {"movement": "knight_wazir", "length": 16, "blue_offset": 8},
        {"movement": "camel", "width": 4, "length": 12, "blue_offset": 6, "mandatory_capture": "maximal"},
    ],
}


@njit(cache=True)
def play(legal, apply, start, spec, games, seed):  # type: ignore[no-untyped-def]
    """Play ``games`` random games; return every legal list, action drawn and final header, in one array."""
    np.random.seed(seed)
    out = np.empty(MAX_ACTIONS, np.int64)
    log = np.empty(1 << 16, np.int64)
    n = 0
    for _ in range(games):
        state = start.copy()
        while state[TO_MOVE] >= 0:
            count = legal(state, spec, out)
            pick = np.random.randint(count)
            while n + count + 2 > log.shape[0]:
                log = np.concatenate((log, np.empty(log.shape[0], np.int64)))
            log[n] = count
            log[n + 1:n + 1 + count] = out[:count]
            log[n + 1 + count] = pick
            n += count + 2
            apply(state, spec, out[pick])
        while n + HEADER > log.shape[0]:
            log = np.concatenate((log, np.empty(log.shape[0], np.int64)))
        log[n:n + HEADER] = state[:HEADER]
        n += HEADER
    return log[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mobiatus")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    for seed, options in enumerate(RULE_SETS.get(args.game, [{}])):
        game = boardlab.load(args.game, **options)
        start = game.new_game().data.copy()
        log = play(game.legal_kernel, game.apply_kernel, start, game.spec, args.games, seed + 1)
        digest = hashlib.sha256(log.tobytes()).hexdigest()[:16]
        kernel.seed_kernels(seed + 1)
        tally = np.zeros(kernel.MAX_SEATS, np.int64)
        total = kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, args.games, tally)
        print(f"{options}: {args.games} games, log {digest} ({len(log)} numbers); "
              f"random_playouts {total} plies, points {tally.tolist()}")


if __name__ == "__main__":
    main()
