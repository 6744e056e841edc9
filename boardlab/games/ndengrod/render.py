"""Ndengrod: the hexhex or trapezoid board of hexagons, pbmserv coordinates along the edges.

Row letters stand at both ends of each row; the numbers of the ``/`` diagonals at both ends of each
diagonal (the seed writes them above and to the right). x's stones are black, o's white.
"""

from __future__ import annotations

import math

from boardlab.core.view import View
from boardlab.games.ndengrod.face import Ndengrod
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.picture import Cell, CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import PieceStyle, hex_corners

LAYOUTS = ("board",)
COLOURS = ("x", "o")
STYLES = (PieceStyle("x", "#1B1B1B", "#000000", "#FFFFFF"), PieceStyle("o", "#FCFCFC", "#262626", "#000000"))
RADIUS = 10.0  # a hexagon's circumradius, in user units
MARGIN = 22.0


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, Ndengrod)
    topology = game.topology
    contents = board_contents(view, blank)
    step_x = math.sqrt(3) * RADIUS

    def place(row: int, diag: int) -> tuple[float, float]:
        return (diag - row / 2) * step_x, row * 1.5 * RADIUS

    raw = [place(row, diag) for row, diag in topology.coords]
    left = min(x for x, _ in raw) - MARGIN
    top = min(y for _, y in raw) - MARGIN
    centres = [(x - left, y - top) for x, y in raw]
    width = max(x for x, _ in centres) + MARGIN
    height = max(y for _, y in centres) + MARGIN
    picture = Picture(width, height, theme)

    drawings = []
    for content, centre in zip(contents, centres, strict=True):
        cell = Cell(content.name, centre, tuple(hex_corners(*centre, RADIUS)), RADIUS * 0.8)
        pieces = "".join(piece_group(p.kind, p.seat, COLOURS[p.colour],
                                     STYLES[p.colour].draw(*centre, RADIUS * 0.68)) for p in content.pieces)
        drawings.append(CellDrawing(cell, theme.board, pieces, cell_title(content, COLOURS)))
    picture.add_cells(drawings, marks)
    _edge_labels(picture, topology.coords, centres, step_x)

    swapped = " (the players have swapped colours)" if any(
        p.colour != p.seat for c in contents for p in c.pieces) else ""
    legend = "● x (black) · ○ o (white)"
    picture.caption([legend] if blank else [f"{turn_text(view)}{swapped}", legend])
    board = f"{game.options['board']} board of side {game.options['size']}"
    title = f"{game.name}: {board}, {turn_text(view)}"
    return picture, title, describe(view, contents, COLOURS)


def _edge_labels(picture: Picture, coords: tuple[tuple[int, int], ...], centres: list[tuple[float, float]],
                 step_x: float) -> None:
    """Row letters at the left, diagonal numbers at the top ends, then the other ends where room is left."""
    rows: dict[int, list[int]] = {}
    diagonals: dict[int, list[int]] = {}
    for cell, (row, diag) in enumerate(coords):
        rows.setdefault(row, []).append(cell)
        diagonals.setdefault(diag, []).append(cell)
    left = [(centres[c[0]][0] - step_x * 0.95, centres[c[0]][1], chr(ord("a") + r)) for r, c in rows.items()]
    right = [(centres[c[-1]][0] + step_x * 0.95, centres[c[-1]][1], chr(ord("a") + r)) for r, c in rows.items()]
    # along a "/" diagonal one step up is (+step_x / 2, -1.5 RADIUS)
    tops = [(centres[c[0]][0] + step_x * 0.45, centres[c[0]][1] - RADIUS * 1.35, str(d + 1))
            for d, c in diagonals.items()]
    bottoms = [(centres[c[-1]][0] - step_x * 0.45, centres[c[-1]][1] + RADIUS * 1.35, str(d + 1))
               for d, c in diagonals.items()]
    picture.labels([*left, *tops, *bottoms, *right], RADIUS * 0.85, RADIUS * 1.2)
