"""Ndengrod's stones to cut out (:mod:`boardlab.render.counters`). It is played from a bowl: each colour
gets half the board's cells (rounded up), as many as a player can place before the board fills
without captures."""

from __future__ import annotations

import math

from boardlab.core.cells import Piece
from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.games.ndengrod.render import COLOURS, RADIUS, STYLES
from boardlab.render.counters import Counter, in_print_order


def pitch(game: Game) -> float:
    return math.sqrt(3) * RADIUS


def counters(view: View) -> list[Counter]:
    half = -(-len(view.game.cell_names()) // 2)
    pieces = [Piece(colour, colour, "stone") for colour in (0, 1) for _ in range(half)]
    return [Counter(COLOURS[p.colour], p.kind, STYLES[p.colour].draw(0.0, 0.0, RADIUS * 0.68))
            for p in in_print_order(pieces)]
