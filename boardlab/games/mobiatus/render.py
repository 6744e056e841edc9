"""Möbiatus: the strip as two flat boards (``faces``; ``bands``: cut into bands of at most ten columns,
for narrow screens) or as a Möbius strip in perspective (``strip``).

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
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.picture import Cell, CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import OKABE_ITO, PieceStyle, element, label, square_corners

LAYOUTS = ("faces", "strip", "bands")
COLOURS = ("Red", "Blue")
STYLES = (PieceStyle("Red", OKABE_ITO["vermillion"], "#5C2300", "#FFFFFF", "circle"),
          PieceStyle("Blue", OKABE_ITO["blue"], "#00385A", "#FFFFFF", "square"))
SINGULAR = "#4D4D4D"
UNIT = 22.0


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, Mobiatus)
    strip: MobiusStrip = game.strip
    contents = board_contents(view, blank)
    if layout == "strip":
        from boardlab.games.mobiatus.strip_render import draw_strip

        picture = draw_strip(strip, contents, marks, theme, cell_drawing)
    else:
        bands = -(-strip.length // 10) if layout == "bands" else 1
        picture = _faces(strip, contents, marks, theme, -(-strip.length // bands))
    turns, red, blue = game.turn_counts(view.data)
    lines = [f"{turn_text(view)} · turn {turns} · Red {red} pieces, Blue {blue} pieces",
             "● ■ a piece (its dot) · ○ □ its circle, on the opposite face (the other side of the same "
             "paper square) · dark ×: a singularity"]
    picture.caption(lines[1:] if blank else lines)
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


def _faces(strip: MobiusStrip, contents: list[CellContent], marks: Marks, theme: Theme, band: int) -> Picture:
    """Front board above back board, each cut into bands of ``band`` columns (all of them: one band)."""
    length, width = strip.length, strip.width
    bands = [(start, min(start + band, length)) for start in range(0, length, band)]
    left, band_height, title_height = UNIT * 2.0, width * UNIT + UNIT * 0.9, UNIT * 1.3
    tops: dict[tuple[str, int], float] = {}
    y = UNIT * 0.4
    for board in ("F", "B"):
        y += title_height
        for start, _ in bands:
            tops[board, start] = y
            y += band_height
        y += UNIT * 0.3
    picture = Picture(left + band * UNIT + UNIT * 3.2, y, theme)
    drawings = []
    for face, content in enumerate(contents):
        board, column, row = strip.picture(face)
        start = column - column % band
        centre = (left + (column - start + 0.5) * UNIT, tops[board, start] + (row + 0.5) * UNIT)
        cell = Cell(content.name, centre, tuple(square_corners(*centre, UNIT / 2)), UNIT * 0.42)
        drawings.append(cell_drawing(cell, content, theme))
    picture.add_cells(drawings, marks)
    muted = {"fill": theme.muted}
    for board, title in (("F", "Front board F"), ("B", "Back board B (the paper's other side)")):
        other = "B" if board == "F" else "F"
        picture.above.append(element("text", {"x": left, "y": tops[board, 0] - UNIT * 0.85, "font-size": UNIT * 0.55,
                                              "fill": theme.text, "font-weight": "bold"}, title))
        for start, end in bands:
            top = tops[board, start]
            for column in range(start, end):
                if column in (start, end - 1) or (column + 1) % 5 == 0 or band <= 16:
                    picture.above.append(label(left + (column - start + 0.5) * UNIT, top - UNIT * 0.28,
                                               str(column + 1), picture.legible(UNIT * 0.4), muted))
            for row in range(width):
                picture.above.append(label(left - UNIT * 0.5, top + (row + 0.5) * UNIT, ROW_LETTERS[row],
                                           picture.legible(UNIT * 0.45), muted))
        top, right = tops[board, bands[-1][0]], left + (bands[-1][1] - bands[-1][0]) * UNIT
        for row in range(width):
            onward = f"→ {other}1{ROW_LETTERS[width - 1 - row]}"
            picture.above.append(element("text", {"x": right + UNIT * 0.3, "y": top + (row + 0.5) * UNIT,
                                                  "font-size": picture.legible(UNIT * 0.42),
                                                  "dominant-baseline": "central",
                                                  "fill": theme.muted}, onward))
        picture.above.append(element("line", {"x1": right, "y1": top - UNIT * 0.1, "x2": right,
                                              "y2": top + width * UNIT + UNIT * 0.1, "stroke": OKABE_ITO["purple"],
                                              "stroke-width": UNIT * 0.16, "class": "seam",
                                              "stroke-dasharray": f"{UNIT * 0.3} {UNIT * 0.15}"}))
    picture.caption([f"Seam (dashed): past a board's last column the strip goes on at the other board's first "
                     f"column, rows flipped (a ↔ {ROW_LETTERS[width - 1]})."], css="seam-note")
    return picture
