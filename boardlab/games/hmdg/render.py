"""Hidden Move Double Gomoku: the grid as one seat sees it, and the referee's announcements beside it.

x plays crosses, o rings. A hidden stone (only ever the seat's own: the view erases the others)
is drawn faint inside a dashed circle; a revealed stone stands solid on a disc, its point closed.
While the responder decides, the announced line is shaded, and the mover sees a bullseye on their
own secret target. The list beside the board (``beside``; ``below`` for narrow screens) is the game
so far as this seat knows it: the moves and the referee's announcements.
"""

from __future__ import annotations

from boardlab.core.cells import CellContent
from boardlab.core.view import View
from boardlab.games.hmdg.face import HiddenMoveDoubleGomoku
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.grids import edge_coordinates, grid_lines, point_cells
from boardlab.render.picture import Cell, CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import OKABE_ITO, PieceStyle, element

LAYOUTS = ("beside", "below")
COLOURS = ("x", "o")
STYLES = (PieceStyle("x", OKABE_ITO["blue"], "#00385A", "#FFFFFF", "cross"),
          PieceStyle("o", OKABE_ITO["vermillion"], "#5C2300", "#FFFFFF", "circle"))
ROW_LETTERS = "ABCDEFGHJKLM"
UNIT = 30.0
SHOWN_ANNOUNCEMENTS = 16


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, HiddenMoveDoubleGomoku)
    size = int(game.options["size"])
    contents = board_contents(view, blank)
    margin = UNIT * 1.3
    board = 2 * margin + (size - 1) * UNIT
    beside = layout == "beside" and not blank
    picture = Picture(board + UNIT * 8.5 if beside else board, board, theme)
    announced = None if blank else game.announced_line(view)
    cells = point_cells([c.name for c in contents], size, size, UNIT, margin, margin)
    grid_lines(picture, size, size, UNIT, margin, margin)
    if announced is not None:
        _shade_line(picture, [cell for cell in cells if cell.name in announced[1]])
    drawings = []
    for cell, content in zip(cells, contents, strict=True):
        title = cell_title(content, COLOURS)
        under = _target(cell, theme) if "target" in content.marks else ""
        pieces = _stones(cell, content)
        drawings.append(CellDrawing(cell, None, pieces, title.replace("target", "your secret target"), under))
    picture.add_cells(drawings, marks)
    edge_coordinates(picture, cells, size, size, UNIT, list(ROW_LETTERS[:size]),
                     [str(c + 1) for c in range(size)], UNIT * 0.95)
    if blank:
        picture.caption(["✕ x · ◯ o"], css="legend")
        return picture, f"{game.name}: {size}×{size} grid", describe(view, contents, COLOURS)
    status = game.status_lines(view)
    if announced is not None:
        status.insert(0, f"Announced: {announced[0]}.")
    history = [f"{ply}. {move}" for ply, move in enumerate(view.history(), start=1)]
    x, y = (board + UNIT * 0.1, margin * 0.3) if beside else (margin * 0.4, board)
    if theme.moves_listed:
        shown = history[-SHOWN_ANNOUNCEMENTS:]
        heading = "Moves and the referee's announcements" + (" (the latest)" if len(history) > len(shown) else "")
        y = picture.text_lines(x, y, [heading], UNIT * 0.42, css="announcements-heading")
        y = picture.text_lines(x, y, shown or ["(none yet)"], UNIT * 0.38, css="announcements")
    y = picture.text_lines(x, y + UNIT * 0.3, status, UNIT * 0.38, css="status")
    legend = ("✕ x · ◯ o · in a dashed circle: hidden (only yours are shown) · on a solid disc: revealed "
              "(the point is closed)")
    picture.height = max(y, board)
    picture.caption([turn_text(view), legend], css="legend")
    who = "a spectator" if view.seat is None else f"seat {view.seat}"
    title = f"{game.name}, as {who} sees it: {turn_text(view)}"
    return picture, title, describe(view, contents, COLOURS, [f"Announcements: {'; '.join(history) or 'none'}."])


def _stones(cell: Cell, content: CellContent) -> str:
    cx, cy = cell.centre
    stacked = len(content.pieces) == 2
    parts = []
    for index, piece in enumerate(content.pieces):
        shift = (index * 2 - 1) * UNIT * 0.16 if stacked else 0.0
        x, y = cx + shift, cy + shift
        r = UNIT * (0.27 if stacked else 0.36)
        style = STYLES[piece.colour]
        if piece.kind == "hidden":
            body = element("circle", {"cx": x, "cy": y, "r": r * 1.08, "fill": "#FFFFFF", "fill-opacity": 0.55,
                                      "stroke": "#3A3A3A", "stroke-width": r * 0.1,
                                      "stroke-dasharray": f"{r * 0.3:.2f} {r * 0.2:.2f}", "class": "hidden-outline"})
            body += element("g", {"opacity": 0.75}, style.draw(x, y, r * 0.72, hollow=True), text=False)
        else:
            body = element("circle", {"cx": x, "cy": y, "r": r * 1.08, "fill": "#FFFFFF", "stroke": "#1F1F1F",
                                      "stroke-width": r * 0.12, "class": "revealed-disc"})
            body += style.draw(x, y, r * 0.72, hollow=True)
        parts.append(piece_group(piece.kind, piece.seat, COLOURS[piece.colour], body))
    return "".join(parts)


def _target(cell: Cell, theme: Theme) -> str:
    cx, cy = cell.centre
    rings = [element("circle", {"cx": cx, "cy": cy, "r": UNIT * r, "fill": "none", "stroke": theme.selected,
                                "stroke-width": UNIT * 0.05}) for r in (0.44, 0.28, 0.1)]
    return element("g", {"class": "secret-target"}, *rings, text=False)


def _shade_line(picture: Picture, cells: list[Cell]) -> None:
    xs = [x for cell in cells for x, _ in cell.outline]
    ys = [y for cell in cells for _, y in cell.outline]
    picture.below.append(element("rect", {"x": min(xs), "y": min(ys), "width": max(xs) - min(xs),
                                          "height": max(ys) - min(ys), "fill": OKABE_ITO["yellow"],
                                          "fill-opacity": 0.55, "stroke": "#8A7A00", "stroke-width": UNIT * 0.04,
                                          "stroke-dasharray": f"{UNIT * 0.2} {UNIT * 0.12}",
                                          "class": "announced-line"}))
