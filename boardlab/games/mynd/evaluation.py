"""Mynd's heuristic evaluation, for search that stops its playouts early (``evaluate`` kernel).

Territory decides Mynd, but little is enclosed until late, so the estimate adds half of each seat's
*reach*: the empty points nearer (in orthogonal steps) to its pieces than to anyone else's, the usual
Voronoi estimate of territory-to-be. Seats' chances are a softmax of territory + reach / 2.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from boardlab.core.kernel import EVALUATE_SIG, MAX_SEATS, SCORE
from boardlab.games.mynd.layout import BOARD, S_CELLS, S_NEIGH, S_PLAYERS
from boardlab.games.mynd.territory import territory_scores

SHARPNESS = 0.15  # a lead of about 7 points is worth 3:1 odds


@njit(cache=True)
def reach(state, spec, counts):  # type: ignore[no-untyped-def]
    """Add to ``counts[seat]`` the empty points strictly nearest to that seat's pieces."""
    cells = spec[S_CELLS]
    neigh = spec[S_NEIGH]
    distance = np.full(cells, -1, np.int64)
    owner = np.full(cells, -1, np.int64)
    queue = np.empty(cells, np.int64)
    tail = 0
    for cell in range(cells):
        value = state[BOARD + cell]
        if value:
            distance[cell] = 0
            owner[cell] = (value - 1) % 4
            queue[tail] = cell
            tail += 1
    head = 0
    while head < tail:
        cell = queue[head]
        head += 1
        for k in range(4):
            other = spec[neigh + cell * 8 + k]
            if other < 0 or state[BOARD + other]:
                continue
            if distance[other] < 0:
                distance[other] = distance[cell] + 1
                owner[other] = owner[cell]
                queue[tail] = other
                tail += 1
            elif distance[other] == distance[cell] + 1 and owner[other] != owner[cell]:
                owner[other] = -2  # equally near to two seats: nobody's
    for cell in range(cells):
        if state[BOARD + cell] == 0 and owner[cell] >= 0:
            counts[owner[cell]] += 1.0


@njit(EVALUATE_SIG, cache=True)
def evaluate(state, spec, values):  # type: ignore[no-untyped-def]
    players = spec[S_PLAYERS]
    share = np.zeros(MAX_SEATS, np.float64)
    territory_scores(state, spec)
    for seat in range(players):
        share[seat] = state[SCORE + seat]
        state[SCORE + seat] = 0  # the game is not over: its result fields stay empty
    values[:] = 0.0
    reach(state, spec, values)
    top = -1e300
    for seat in range(players):
        share[seat] += 0.5 * values[seat]
        top = max(top, share[seat])
    total = 0.0
    for seat in range(players):
        values[seat] = math.exp(SHARPNESS * (share[seat] - top))
        total += values[seat]
    for seat in range(players):
        values[seat] /= total
