"""GTBM: the draughts board (8×8, 16×16 or any even size), Black at the bottom moving up.

Black's pieces are black discs with a chevron pointing up the board, White's white discs with a
chevron pointing down: the way each side steps forward reads without colour.
"""

from __future__ import annotations

from boardlab.core.view import View
from boardlab.games.gtbm.face import Gtbm
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.grids import edge_coordinates, square_cells
from boardlab.render.picture import CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import PieceStyle, element, number

LAYOUTS = ("board",)
COLOURS = ("Black", "White")
STYLES = (PieceStyle("Black", "#1B1B1B", "#000000", "#FFFFFF"), PieceStyle("White", "#FCFCFC", "#262626", "#1B1B1B"))
UNIT = 24.0


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, Gtbm)
    size = int(game.options["size"])
    contents = board_contents(view, blank)
    margin = UNIT * 1.1
    picture = Picture(2 * margin + size * UNIT, 2 * margin + size * UNIT, theme)
    cells = square_cells([c.name for c in contents], size, size, UNIT, margin, margin)
    drawings = []
    for index, (cell, content) in enumerate(zip(cells, contents, strict=True)):
        row, column = divmod(index, size)
        fill = theme.board_alt if (row + column) % 2 else theme.board
        pieces = "".join(piece_group(p.kind, p.seat, COLOURS[p.colour], piece(p.colour, *cell.centre))
                         for p in content.pieces)
        drawings.append(CellDrawing(cell, fill, pieces, cell_title(content, COLOURS)))
    picture.add_cells(drawings, marks)
    edge_coordinates(picture, cells, size, size, UNIT, [str(size - r) for r in range(size)],
                     [chr(ord("a") + c) for c in range(size)], UNIT * 0.8)
    quiet = game.plies_without_capture(view.data)
    limit = game.options["no_capture_limit"]
    directions = "● Black moves up · ○ White moves down"
    picture.caption([directions] if blank else [turn_text(view), f"{directions} · {quiet} "
                    f"{'ply' if quiet == 1 else 'plies'} without a capture (limit {limit})"])
    title = f"{game.name}: {size}×{size} board, {turn_text(view)}"
    return picture, title, describe(view, contents, COLOURS, [f"{quiet} plies without a capture."])


def piece(colour: int, cx: float, cy: float) -> str:
    """A piece of ``colour`` centred on ``(cx, cy)`` (the board and the print kit's counters draw it)."""
    style = STYLES[colour]
    r = UNIT * 0.38
    tip = -1 if colour == 0 else 1  # Black moves up the board (toward smaller y), White down
    apex, wings = cy + tip * r * 0.32, cy - tip * r * 0.14
    chevron = (f"M{number(cx - r * 0.45)},{number(wings)}L{number(cx)},{number(apex)}"
               f"L{number(cx + r * 0.45)},{number(wings)}")
    return style.draw(cx, cy, r) + element("path", {"d": chevron, "fill": "none", "stroke": style.ink,
                                                    "stroke-width": r * 0.16, "stroke-linecap": "round",
                                                    "stroke-linejoin": "round", "opacity": 0.8})
