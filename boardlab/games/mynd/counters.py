"""Mynd's pieces to cut out (:mod:`boardlab.render.counters`): the starting pegs and each seat's supply."""

from __future__ import annotations

from boardlab.core.cells import Piece
from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.games.mynd.face import Mynd
from boardlab.games.mynd.render import COLOURS, UNIT, piece
from boardlab.render.counters import Counter, board_pieces, in_print_order

NOTE = "A ring marks each player's starting peg."


def pitch(game: Game) -> float:
    return UNIT


def counters(view: View) -> list[Counter]:
    game = view.game
    assert isinstance(game, Mynd)
    hand = game.in_hand(view.data)
    pieces = board_pieces(view) + [Piece(seat, seat, "piece") for seat in range(game.num_seats)
                                   for _ in range(hand[seat])]
    return [Counter(COLOURS[p.colour], p.kind, piece(p.colour, p.kind, 0.0, 0.0)) for p in in_print_order(pieces)]
