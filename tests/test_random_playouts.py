"""``kernel.random_playouts`` (one reused state buffer, views holding no reference) plays the very games a
plain loop does: a fresh copy of the start each game, the game's own arrays passed to its kernels."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import boardlab
from boardlab.core import kernel
from boardlab.core.kernel import MAX_ACTIONS, MAX_SEATS, SCORE, TO_MOVE
from boardlab.core.registry import game_ids


@njit(cache=True)
def _plain_playouts(legal, apply, start, spec, count, tally, plies):  # type: ignore[no-untyped-def]
    """The loop random_playouts stands for, each game's length in ``plies``; returns the total."""
    out = np.empty(MAX_ACTIONS, np.int64)
    total = 0
    for game in range(count):
        state = start.copy()
        while state[TO_MOVE] >= 0:
            n = legal(state, spec, out)
            apply(state, spec, out[np.random.randint(n)])
            plies[game] += 1
        total += plies[game]
        for seat in range(MAX_SEATS):
            tally[seat] += state[SCORE + seat]
    return total


@pytest.mark.parametrize("game_id", game_ids())
def test_random_playouts_play_the_games_of_a_plain_loop(game_id: str) -> None:
    game = boardlab.load(game_id)
    start = game.new_game().data.copy()
    before = start.copy()
    games = 12
    expected_tally = np.zeros(MAX_SEATS, np.int64)
    plies = np.zeros(games, np.int64)
    kernel.seed_kernels(5)
    expected = _plain_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, games, expected_tally, plies)
    tally = np.zeros(MAX_SEATS, np.int64)
    kernel.seed_kernels(5)
    total = kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, games, tally)
    assert total == expected
    assert tally.tolist() == expected_tally.tolist()
    assert total > 0 and (plies > 0).all()
    assert (start == before).all()  # the start is not modified
