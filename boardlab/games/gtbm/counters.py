"""GTBM's pieces to cut out (:mod:`boardlab.render.counters`): the home rows of the start board."""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.games.gtbm.render import COLOURS, UNIT, piece
from boardlab.render.counters import Counter, board_pieces, in_print_order


def pitch(game: Game) -> float:
    return UNIT


def counters(view: View) -> list[Counter]:
    return [Counter(COLOURS[p.colour], p.kind, piece(p.colour, 0.0, 0.0)) for p in in_print_order(board_pieces(view))]
