"""Horsmeier's strength race: the 11×11 grid, every piece's strength and remaining life span at a glance.

A piece is a disc (White's white, Black's black) with its strength as a large numeral and its life
span written small beneath it; a ring of eleven pips around the disc shows the same life span as a
gauge (filled pips: turns left). Each row's strength sums, which decide strength blocking, stand
at the right as in the seed's diagram. The ``narrow`` layout, for phones, has thinner margins and
draws a piece as a tile with its strength (bold) and life span side by side, both at least
:data:`~boardlab.render.picture.BOARD_TEXT_PX` where the page says how wide it shows the board.
"""

from __future__ import annotations

import math

from boardlab.core.cells import Piece
from boardlab.core.view import View
from boardlab.games.horsmeier.face import Horsmeier
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.grids import edge_coordinates, square_cells
from boardlab.render.picture import Cell, CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import PieceStyle, element, label, number

LAYOUTS = ("board", "narrow")
COLOURS = ("White", "Black")
STYLES = (PieceStyle("White", "#FCFCFC", "#262626", "#111111"), PieceStyle("Black", "#1B1B1B", "#000000", "#FFFFFF"))
UNIT = 36.0
SIZE = 11
LIFE = 11


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, Horsmeier)
    contents = board_contents(view, blank)
    narrow = layout == "narrow"
    margin = UNIT * (0.6 if narrow else 0.9)
    sums_width = 0.0 if blank else UNIT * (1.8 if narrow else 2.2)
    picture = Picture(2 * margin + SIZE * UNIT + sums_width, 2 * margin + SIZE * UNIT, theme)
    ink = picture.legible(UNIT * 0.42) if narrow else 0.0  # the tiles' numbers
    cells = square_cells([c.name for c in contents], SIZE, SIZE, UNIT, margin, margin)
    # a printed board shows the set-up faintly: which strength starts where is not obvious
    setup = {c.name: c.pieces for c in game.cell_contents(view)} if blank else {}
    drawings = []
    for index, (cell, content) in enumerate(zip(cells, contents, strict=True)):
        row, column = divmod(index, SIZE)
        fill = theme.board_alt if (row + column) % 2 else theme.board
        pieces = "".join(piece_group(p.kind, p.seat, COLOURS[p.colour],
                                     _tile(p, cell, ink) if narrow else _piece(p, cell, theme))
                         for p in content.pieces)
        under = "".join(element("g", {"class": "setup", "opacity": 0.3}, _piece(p, cell, theme), text=False)
                        for p in setup.get(content.name, ()))
        drawings.append(CellDrawing(cell, fill, pieces, cell_title(content, COLOURS), under))
    picture.add_cells(drawings, marks)
    edge_coordinates(picture, cells, SIZE, SIZE, UNIT, [str(SIZE - r) for r in range(SIZE)],
                     [chr(ord("a") + c) for c in range(SIZE)], UNIT * 0.8)  # two-digit rows clear the edge
    if blank:
        picture.caption(["○ White moves up, ● Black down; the first on the far row wins. Faint: the pieces' "
                         "starting squares and strengths."])
    else:
        # (narrow: clear of the row numbers at the board's right edge)
        _row_sums(picture, game, view, cells, margin + SIZE * UNIT + UNIT * (1.05 if narrow else 0.95),
                  UNIT * (0.8 if narrow else 0.9))
        shows = ("its strength (bold) and the turns it has left" if narrow else
                 "its strength (large) and the turns it has left (small, and the ring)")
        picture.caption([
            turn_text(view),
            f"○ White moves up, ● Black down; the first on the far row wins. A piece shows {shows}. "
            f"Σw Σb: strength on each row (blocking)."])
    title = f"{game.name}: {turn_text(view)}"
    return picture, title, describe(view, contents, COLOURS, ["Numbers after each piece: strength/life span."])


def _piece(piece: Piece, cell: Cell, theme: Theme) -> str:
    style = STYLES[piece.colour]
    cx, cy = cell.centre
    r = UNIT * 0.33
    strength, life = piece.numbers["strength"], piece.numbers["life"]
    parts = [style.draw(cx, cy, r),
             label(cx, cy - r * 0.22, str(strength), r * 1.15, {"fill": style.ink, "font-weight": "bold",
                                                              "class": "strength"}),
             label(cx, cy + r * 0.58, str(life), r * 0.68, {"fill": style.ink, "class": "life"})]
    ring, arc = UNIT * 0.425, 2 * math.pi / LIFE
    for pip in range(LIFE):  # a gauge of eleven segments clockwise from the top: lit ones are turns left
        start, end = pip * arc + arc * 0.12, (pip + 1) * arc - arc * 0.12
        x0, y0 = cx + ring * math.sin(start), cy - ring * math.cos(start)
        x1, y1 = cx + ring * math.sin(end), cy - ring * math.cos(end)
        lit = pip < life
        d = f"M{number(x0)},{number(y0)}A{number(ring)},{number(ring)} 0 0 1 {number(x1)},{number(y1)}"
        parts.append(element("path", {"d": d, "fill": "none", "stroke": theme.text if lit else theme.muted,
                                      "stroke-width": UNIT * (0.075 if lit else 0.02),
                                      "class": "life-pip" if lit else "life-pip-spent"}))
    return "".join(parts)


def _tile(piece: Piece, cell: Cell, size: float) -> str:
    """A piece on a phone: a tile in its colour, its strength (bold) and its life span side by side."""
    style = STYLES[piece.colour]
    cx, cy = cell.centre
    strength, life = piece.numbers["strength"], piece.numbers["life"]
    tile = element("rect", {"x": cx - UNIT * 0.47, "y": cy - UNIT * 0.34, "width": UNIT * 0.94, "height": UNIT * 0.68,
                            "rx": UNIT * 0.14, "fill": style.fill, "stroke": style.stroke, "stroke-width": UNIT * 0.04})
    between = cx - UNIT * 0.06
    rule = element("line", {"x1": between, "y1": cy - UNIT * 0.2, "x2": between, "y2": cy + UNIT * 0.2,
                            "stroke": style.ink, "stroke-width": UNIT * 0.03, "opacity": 0.6})
    return "".join([tile, rule,
                    label(cx - UNIT * 0.26, cy, str(strength), size, {"fill": style.ink, "font-weight": "bold",
                                                                      "class": "strength"}),
                    label(cx + UNIT * 0.2, cy, str(life), size, {"fill": style.ink, "class": "life"})])


def _row_sums(picture: Picture, game: Horsmeier, view: View, cells: list[Cell], x: float, step: float) -> None:
    size = picture.legible(UNIT * 0.4)
    style = {"fill": picture.theme.text}
    parts = [label(x, cells[0].centre[1] - UNIT * 0.68, "Σw", size, style),
             label(x + step, cells[0].centre[1] - UNIT * 0.68, "Σb", size, style)]
    for row in range(SIZE):
        y = cells[row * SIZE].centre[1]
        number = SIZE - row
        for colour in (0, 1):
            total = game.row_sum(view.data, colour, number)
            parts.append(label(x + colour * step, y, str(total) if total else "·", size, style))
    picture.above.append(element("g", {"class": "row-sums"}, *parts, text=False))
