"""Möbiatus's heuristic evaluation, for search that stops its playouts early (``evaluate`` kernel).

Three things decide games (rules-notes §5, B11): pieces; the filling of the strip; and mobility.
Every turn fills exactly one free paper square, and a player who must move when none is left has
no move and loses, so the count's parity favours one colour for the whole game: it says who is
ahead, never which move is better. The other colour wins only by capturing everything or by
leaving the opponent with no move before the strip is full, and the favoured colour must keep its
knights free to avoid that. So the estimate is a logistic of the piece lead, the mobility lead
(leaps that land somewhere: a free face, a singularity to slide out of, or an enemy circle; knight
moves by default, the ``movement`` option's leaps otherwise) and the parity. Parity and pieces
alone were constant until the first capture, some 80 turns into a game on the seed's strip, so
every root move scored the same and the search played at random.
"""

from __future__ import annotations

import math

from numba import njit

from boardlab.core.kernel import EVALUATE_SIG
from boardlab.games.mobiatus.layout import (
    BOARD,
    CIRCLE,
    F_COLOUR,
    F_COUNT,
    F_FREE_COUNT,
    F_SWAPPED,
    FREE,
    S_KNIGHT,
    S_LIST,
    S_SIDE_CAP,
    S_STEPS,
    SING,
)

PIECE_WEIGHT = 0.8
PARITY_WEIGHT = 0.6
MOBILITY_WEIGHT = 0.08


@njit(cache=True)
def mobility(state, spec, colour):  # type: ignore[no-untyped-def]
    """Leaps of ``colour``'s pieces that land somewhere (legality of slides and chains aside)."""
    knight = spec[S_KNIGHT]
    steps = spec[S_STEPS]
    pieces = spec[S_LIST] + colour * spec[S_SIDE_CAP]
    enemy_circle = CIRCLE + 1 - colour
    total = 0
    for i in range(state[F_COUNT + colour]):
        at = knight + state[pieces + i] * steps
        for k in range(steps):
            target = spec[at + k]
            if target >= 0:
                code = state[BOARD + target]
                if code in (FREE, SING, enemy_circle):
                    total += 1
    return total


@njit(EVALUATE_SIG, cache=True)
def evaluate(state, spec, values):  # type: ignore[no-untyped-def]
    mover = state[F_COLOUR]
    lead = PIECE_WEIGHT * (state[F_COUNT + mover] - state[F_COUNT + 1 - mover])
    lead += MOBILITY_WEIGHT * (mobility(state, spec, mover) - mobility(state, spec, 1 - mover))
    squares = state[F_FREE_COUNT] // 2  # both faces of a free paper square are free
    lead += PARITY_WEIGHT if squares % 2 == 1 else -PARITY_WEIGHT
    chance = 1.0 / (1.0 + math.exp(-lead))  # the colour to move's
    seat = mover ^ state[F_SWAPPED]
    values[seat] = chance
    values[1 - seat] = 1.0 - chance
