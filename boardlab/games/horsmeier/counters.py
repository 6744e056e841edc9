"""Horsmeier's pieces to cut out (:mod:`boardlab.render.counters`), numbered 1–11 per colour: each
number is the piece's row on the track sheet (strength and life change in play)."""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.games.horsmeier.render import COLOURS, STYLES, UNIT
from boardlab.render.counters import Counter, board_pieces, in_print_order
from boardlab.render.svg import label

NOTE = "Numbers match the track sheet."


def pitch(game: Game) -> float:
    return UNIT


def counters(view: View) -> list[Counter]:
    made = []
    numbers: dict[int, int] = {}
    for piece in in_print_order(board_pieces(view)):
        numbers[piece.colour] = numbers.get(piece.colour, 0) + 1
        made.append(Counter(COLOURS[piece.colour], piece.kind, numbered(piece.colour, numbers[piece.colour])))
    return made


def numbered(colour: int, index: int) -> str:
    """A piece with its number (its row on the track sheet)."""
    style = STYLES[colour]
    r = UNIT * 0.4
    return style.draw(0.0, 0.0, r) + label(0.0, 0.0, str(index), r * 1.0, {"fill": style.ink, "font-weight": "bold"})
