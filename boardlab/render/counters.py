"""Pieces to cut out, drawn as on the screen board, on a grid of cut lines at the printed cell size.

Each game's pieces come from its start position as a view shows it (and, for Mynd, the pieces still
in hand), drawn by that game's own renderer in its own units and scaled like the printed board, so
a cut-out piece fits a printed cell. Games played with pencil marks (Möbiatus, HMDG) have none.

>>> import boardlab
>>> pieces = start_pieces(boardlab.load("gtbm").new_game().view(None))
>>> len(pieces), sorted({p.colour for p in pieces})
(16, [0, 1])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardlab.core.cells import Piece
from boardlab.core.view import View
from boardlab.render import gtbm, horsmeier, mynd, ndengrod
from boardlab.render.svg import element, group, label, number

CUT = {"stroke": "#9A9A9A", "stroke-width": 0.2, "stroke-dasharray": "1.2 0.8", "fill": "none"}


@dataclass(frozen=True)
class Counter:
    """A piece to cut out: its colour's name, its kind, and its picture centred on 0,0 in board units."""

    colour: str
    kind: str
    body: str


def pitch(game_id: str) -> float:
    """The distance between neighbouring cells' centres on the game's board, in its SVG units."""
    if game_id == "ndengrod":
        return math.sqrt(3) * ndengrod.RADIUS
    units = {"gtbm": gtbm.UNIT, "horsmeier": horsmeier.UNIT, "mynd": mynd.UNIT}
    return units.get(game_id, 0.0)


def start_pieces(view: View) -> list[Piece]:
    """The pieces a game needs: those on its start board, and for Mynd each seat's supply in hand.
    Ndengrod is played from a bowl: each colour gets half the board's cells (rounded up), as many as
    a player can place before the board fills without captures. Möbiatus and HMDG use pencil marks."""
    game = view.game
    on_board = [piece for content in game.cell_contents(view) for piece in content.pieces]
    if game.id == "mynd":
        hand = game.in_hand(view.data)  # type: ignore[attr-defined]
        pieces = on_board + [Piece(seat, seat, "piece") for seat in range(game.num_seats) for _ in range(hand[seat])]
    elif game.id == "ndengrod":
        half = -(-len(game.cell_names()) // 2)
        pieces = [Piece(colour, colour, "stone") for colour in (0, 1) for _ in range(half)]
    elif game.id in ("gtbm", "horsmeier"):
        pieces = on_board
    else:
        return []
    # by colour, pegs first; within a colour in board order (Horsmeier's numbers follow it)
    return sorted(pieces, key=lambda piece: (piece.colour, piece.kind != "peg"))


def counters(view: View) -> list[Counter]:
    """Every piece of :func:`start_pieces` drawn; Horsmeier's numbered 1–11 per colour (their tracks)."""
    game_id = view.game.id
    made: list[Counter] = []
    numbers: dict[int, int] = {}
    for piece in start_pieces(view):
        if game_id == "gtbm":
            made.append(Counter(gtbm.COLOURS[piece.colour], piece.kind, gtbm._piece(piece.colour, 0.0, 0.0)))
        elif game_id == "mynd":
            body = mynd._piece(piece.colour, piece.kind, 0.0, 0.0)
            made.append(Counter(mynd.COLOURS[piece.colour], piece.kind, body))
        elif game_id == "ndengrod":
            body = ndengrod.STYLES[piece.colour].draw(0.0, 0.0, ndengrod.RADIUS * 0.68)
            made.append(Counter(ndengrod.COLOURS[piece.colour], piece.kind, body))
        elif game_id == "horsmeier":
            numbers[piece.colour] = numbers.get(piece.colour, 0) + 1
            made.append(Counter(horsmeier.COLOURS[piece.colour], piece.kind,
                                horsmeier_counter(piece.colour, numbers[piece.colour])))
    return made


def horsmeier_counter(colour: int, index: int) -> str:
    """A Horsmeier piece with its number (its row on the track sheet): strength and life change in play."""
    style = horsmeier.STYLES[colour]
    r = horsmeier.UNIT * 0.4
    return style.draw(0.0, 0.0, r) + label(0.0, 0.0, str(index), r * 1.0, {"fill": style.ink, "font-weight": "bold"})


def counter_grid(items: Sequence[Counter], size: float, scale: float, x: float, y: float,
                 columns: int) -> str:
    """``items`` in rows of ``columns`` cells ``size`` mm square from ``(x, y)``, each drawn at ``scale``
    (mm per board unit), with dashed cut lines between them."""
    parts = []
    rows = -(-len(items) // columns)
    for index, item in enumerate(items):
        row, column = divmod(index, columns)
        cx, cy = x + (column + 0.5) * size, y + (row + 0.5) * size
        parts.append(element("g", {"transform": f"translate({number(cx)} {number(cy)}) scale({scale:.5f})",
                                   "class": "counter", "data-counter": f"{item.colour} {item.kind}"},
                             item.body, text=False))
    in_row = [min(columns, len(items) - k * columns) for k in range(rows)]
    lines = "".join(f"M{number(x)},{number(y + r * size)}h{number(max(in_row[max(r - 1, 0):r + 1]) * size)}"
                    for r in range(rows + 1))
    lines += "".join(f"M{number(x + c * size)},{number(y)}v{number(sum(n >= max(c, 1) for n in in_row) * size)}"
                     for c in range(max(in_row, default=0) + 1))
    parts.append(element("path", {"d": lines, **CUT, "class": "cut-lines"}))
    return group({"class": "counters"}, parts)

