"""Tic-tac-toe's board as SVG (:mod:`boardlab.render`) and its stones to cut out (:mod:`boardlab.render.counters`)."""

from __future__ import annotations

from boardlab.core.cells import Piece
from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.counters import Counter, in_print_order
from boardlab.render.grids import edge_coordinates, square_cells
from boardlab.render.picture import CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import PieceStyle

LAYOUTS = ("board",)
COLOURS = ("x", "o")
STYLES = (PieceStyle("x", "#1B1B1B", "#000000", "#FFFFFF"), PieceStyle("o", "#FCFCFC", "#262626", "#000000"))
UNIT = 30.0


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    size = int(view.game.options["size"])
    contents = board_contents(view, blank)
    margin = UNIT * 1.1
    picture = Picture(2 * margin + size * UNIT, 2 * margin + size * UNIT, theme)
    cells = square_cells([c.name for c in contents], size, size, UNIT, margin, margin)
    drawings = [CellDrawing(cell, theme.board, "".join(piece_group(p.kind, p.seat, COLOURS[p.colour],
                                                                   stone(p.colour, *cell.centre))
                                                       for p in content.pieces), cell_title(content, COLOURS))
                for cell, content in zip(cells, contents, strict=True)]
    picture.add_cells(drawings, marks)
    edge_coordinates(picture, cells, size, size, UNIT, [str(size - r) for r in range(size)],
                     [chr(ord("a") + c) for c in range(size)], UNIT * 0.8)
    rule = f"a line of {view.game.options['length']} {'loses' if view.game.options['misere'] else 'wins'}"
    picture.caption([rule] if blank else [turn_text(view), rule])
    return picture, f"{view.game.name}: {size}×{size} board, {turn_text(view)}", describe(view, contents, COLOURS, [])


def stone(colour: int, cx: float, cy: float) -> str:
    return STYLES[colour].draw(cx, cy, UNIT * 0.38)


def pitch(game: Game) -> float:
    return UNIT


def counters(view: View) -> list[Counter]:
    """As many stones of each colour as the first player can place: half the cells, rounded up."""
    half = -(-len(view.game.cell_names()) // 2)
    pieces = [Piece(colour, colour, "stone") for colour in (0, 1) for _ in range(half)]
    return [Counter(COLOURS[p.colour], p.kind, stone(p.colour, 0.0, 0.0)) for p in in_print_order(pieces)]
