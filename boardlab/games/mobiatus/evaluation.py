"""Möbiatus's heuristic evaluation, for search that stops its playouts early (``evaluate`` kernel).

Two things decide most games (rules-notes §5, B11): pieces, which are mobility, and the filling of
the strip. Every turn fills exactly one free paper square, and a player who must move when none is
left has no move and loses, so with ``k`` free squares left the player to move is on the losing
side of the count when ``k`` is even. The estimate is a logistic of the piece lead plus that parity.
"""

from __future__ import annotations

import math

from numba import njit

from boardlab.core.kernel import EVALUATE_SIG
from boardlab.games.mobiatus.layout import F_COLOUR, F_COUNT, F_FREE_COUNT, F_SWAPPED

PIECE_WEIGHT = 0.8
PARITY_WEIGHT = 0.6


@njit(EVALUATE_SIG, cache=True)
def evaluate(state, spec, values):  # type: ignore[no-untyped-def]
    mover = state[F_COLOUR]
    lead = PIECE_WEIGHT * (state[F_COUNT + mover] - state[F_COUNT + 1 - mover])
    squares = state[F_FREE_COUNT] // 2  # both faces of a free paper square are free
    lead += PARITY_WEIGHT if squares % 2 == 1 else -PARITY_WEIGHT
    chance = 1.0 / (1.0 + math.exp(-lead))  # the colour to move's
    seat = mover ^ state[F_SWAPPED]
    values[seat] = chance
    values[1 - seat] = 1.0 - chance
