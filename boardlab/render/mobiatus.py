"""Möbiatus: the strip as two flat boards (``faces``) or as a Möbius strip in perspective (``strip``).

A piece is its colour's *dot* (Red a disc, Blue a square) on one face and its *circle* (the same
shape hollow) on the opposite face, the other side of the same paper square. Singular faces are
dark with a white ×. In ``faces`` the front board F stands above the back board B; each row says
where it goes on past the seam (the strip's taped join): off the right end of F into B's first
column with the rows flipped, as the seed's left–right flip. ``strip`` draws the twisted loop
twice, from above and from below, each paper square showing the face turned toward the viewer,
so every face is drawn once; the seam is a dashed line across the strip.
"""

from __future__ import annotations

from boardlab.core.cells import CellContent
from boardlab.core.mobius import ROW_LETTERS, MobiusStrip
from boardlab.core.view import View
from boardlab.games.mobiatus.face import Mobiatus
from boardlab.render.common import cell_title, describe, turn_text
from boardlab.render.picture import Cell, CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import OKABE_ITO, PieceStyle, element, label, square_corners

LAYOUTS = ("faces", "strip")
COLOURS = ("Red", "Blue")
STYLES = (PieceStyle("Red", OKABE_ITO["vermillion"], "#5C2300", "#FFFFFF", "circle"),
          PieceStyle("Blue", OKABE_ITO["blue"], "#00385A", "#FFFFFF", "square"))
SINGULAR = "#4D4D4D"
UNIT = 22.0


def draw(view: View, marks: Marks, theme: Theme, layout: str) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, Mobiatus)
    strip: MobiusStrip = game.strip
    contents = game.cell_contents(view)
    if layout == "strip":
        from boardlab.render.mobius_strip import draw_strip

        picture = draw_strip(strip, contents, marks, theme, cell_drawing)
    else:
        picture = _faces(strip, contents, marks, theme)
    turns, red, blue = game.turn_counts(view.data)
    lines = [f"{turn_text(view)} · turn {turns} · Red {red} pieces, Blue {blue} pieces",
             "● ■ a piece (its dot) · ○ □ its circle, on the opposite face (the other side of the same "
             "paper square) · dark ×: a singularity"]
    font = max(UNIT * 0.5, picture.width / 60)
    y = picture.text_lines(font, picture.height, lines, font, css="status")
    picture.height = y + UNIT * 0.3
    title = f"{game.name}: {strip.length}×{strip.width} strip ({layout}), {turn_text(view)}"
    return picture, title, describe(view, contents, COLOURS, [f"Turn {turns}."])


def cell_drawing(cell: Cell, content: CellContent, theme: Theme) -> CellDrawing:
    """A face: free (the board's colour), singular (dark, ×), or holding a dot or a circle."""
    cx, cy = cell.centre
    title = cell_title(content, COLOURS)
    if "singularity" in content.marks:
        r = cell.radius * 0.55
        cross = element("path", {"d": f"M{cx - r:.2f},{cy - r:.2f}L{cx + r:.2f},{cy + r:.2f}"
                                      f"M{cx + r:.2f},{cy - r:.2f}L{cx - r:.2f},{cy + r:.2f}",
                                 "stroke": "#FFFFFF", "stroke-width": cell.radius * 0.16, "opacity": 0.8})
        fill = "#262626" if "touched" in content.marks else SINGULAR
        return CellDrawing(cell, fill, "", title, cross)
    pieces = ""
    for piece in content.pieces:
        body = STYLES[piece.colour].draw(cx, cy, cell.radius * 0.78, hollow=piece.kind == "circle")
        pieces += piece_group(piece.kind, piece.seat, COLOURS[piece.colour], body)
    return CellDrawing(cell, theme.board, pieces, title)


def _faces(strip: MobiusStrip, contents: list[CellContent], marks: Marks, theme: Theme) -> Picture:
    length, width = strip.length, strip.width
    left, gap = UNIT * 2.0, UNIT * 1.6
    top_of = {"F": UNIT * 1.6, "B": UNIT * 1.6 + width * UNIT + gap + UNIT * 0.6}
    picture = Picture(left + length * UNIT + UNIT * 3.2, top_of["B"] + width * UNIT + UNIT * 0.4, theme)
    drawings = []
    for face, content in enumerate(contents):
        board, column, row = strip.picture(face)
        centre = (left + (column + 0.5) * UNIT, top_of[board] + (row + 0.5) * UNIT)
        cell = Cell(content.name, centre, tuple(square_corners(*centre, UNIT / 2)), UNIT * 0.42)
        drawings.append(cell_drawing(cell, content, theme))
    picture.add_cells(drawings, marks)
    muted = {"fill": theme.muted}
    right = left + length * UNIT
    for board, title in (("F", "Front board F"), ("B", "Back board B (the other side of the paper)")):
        top = top_of[board]
        other = "B" if board == "F" else "F"
        picture.above.append(element("text", {"x": left, "y": top - UNIT * 0.75, "font-size": UNIT * 0.5,
                                              "fill": theme.text, "font-weight": "bold"}, title))
        for column in range(length):
            if column == 0 or (column + 1) % 5 == 0 or length <= 16:
                picture.above.append(label(left + (column + 0.5) * UNIT, top - UNIT * 0.25, str(column + 1),
                                           UNIT * 0.38, muted))
        for row in range(width):
            y = top + (row + 0.5) * UNIT
            picture.above.append(label(left - UNIT * 0.5, y, ROW_LETTERS[row], UNIT * 0.45, muted))
            onward = f"→ {other}1{ROW_LETTERS[width - 1 - row]}"
            picture.above.append(element("text", {"x": right + UNIT * 0.3, "y": y, "font-size": UNIT * 0.42,
                                                  "dominant-baseline": "central", "fill": theme.muted}, onward))
        seam = element("line", {"x1": right, "y1": top - UNIT * 0.1, "x2": right, "y2": top + width * UNIT + UNIT * 0.1,
                                "stroke": OKABE_ITO["purple"], "stroke-width": UNIT * 0.16,
                                "stroke-dasharray": f"{UNIT * 0.3} {UNIT * 0.15}", "class": "seam"})
        picture.above.append(seam)
    picture.text_lines(left, top_of["F"] + width * UNIT + UNIT * 0.05,
                       ["Seam (dashed): going on past a board's end leads to the other board's first column, "
                        "rows flipped (a ↔ " + ROW_LETTERS[width - 1] + ")."], UNIT * 0.42)
    return picture
