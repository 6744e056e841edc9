"""Mynd: the Go board with 2 to 4 colours, pegs marked, each seat's territory shaded.

Each seat has a colour and a shape (black disc, white disc, red square, green diamond), so four
players read apart without colour. A starting peg carries a ring. An empty point that a seat would
score now (its territory, as the face's ``claims`` decide by the territory rule) is tinted and holds
a small mark of that seat's shape; ``?`` marks a point several seats claim.
"""

from __future__ import annotations

from boardlab.core.view import View
from boardlab.games.mynd.face import Mynd
from boardlab.render.common import board_contents, cell_title, describe, turn_text
from boardlab.render.grids import edge_coordinates, grid_lines, point_cells
from boardlab.render.picture import CellDrawing, Marks, Picture, Theme, piece_group
from boardlab.render.svg import OKABE_ITO, PieceStyle, element, label, number, shrink

LAYOUTS = ("board",)
COLOURS = ("black", "white", "red", "green")
STYLES = (
    PieceStyle("black", "#1B1B1B", "#000000", "#FFFFFF", "circle"),
    PieceStyle("white", "#FCFCFC", "#262626", "#1B1B1B", "circle"),
    PieceStyle("red", OKABE_ITO["vermillion"], "#5C2300", "#FFFFFF", "square"),
    PieceStyle("green", OKABE_ITO["green"], "#003D2B", "#FFFFFF", "diamond"),
)
TINTS = ("#3A3A3A", "#FFFFFF", OKABE_ITO["vermillion"], OKABE_ITO["green"])
TRUNK_LINES = ("#1B1B1B", "#8C8C8C", OKABE_ITO["vermillion"], OKABE_ITO["green"])
SYMBOLS = ("●", "○", "■", "◆")
GO_COLUMNS = "abcdefghjklmnopqrstuvwxyz"
UNIT = 26.0


def draw(view: View, marks: Marks, theme: Theme, layout: str, blank: bool = False) -> tuple[Picture, str, str]:
    game = view.game
    assert isinstance(game, Mynd)
    size, seats = int(game.options["size"]), game.num_seats
    contents = board_contents(view, blank)
    claims = [-1] * len(contents) if blank else game.claims(view.data)
    # a printed board shows where the pegs start (the options move them): each peg drawn faint
    starts = {c.name: p.colour for c in game.cell_contents(view) for p in c.pieces if p.kind == "peg"} if blank else {}
    margin = UNIT * 1.5
    picture = Picture(2 * margin + (size - 1) * UNIT, 2 * margin + (size - 1) * UNIT, theme)
    grid_lines(picture, size, size, UNIT, margin, margin)
    cells = point_cells([c.name for c in contents], size, size, UNIT, margin, margin)
    _trunk_lines(picture, [] if blank else game.trunks(view), {cell.name: cell.centre for cell in cells})
    drawings = []
    for cell, content, claim in zip(cells, contents, claims, strict=True):
        under, title = "", cell_title(content, COLOURS)
        if claim >= 0:
            tint = shrink(cell.outline, cell.centre, 0.98)
            under = element("polygon", {"points": " ".join(f"{x:.2f},{y:.2f}" for x, y in tint),
                                        "fill": TINTS[claim], "fill-opacity": 0.32, "class": "territory"})
            if not content.pieces:
                under += STYLES[claim].draw(*cell.centre, UNIT * 0.13, width=UNIT * 0.03)
            title += f"; {COLOURS[claim]}'s territory"
        elif claim == -2:
            under = label(*cell.centre, "?", UNIT * 0.4, {"fill": theme.muted})
            title += "; claimed by several: scores for nobody"
        if content.name in starts:
            under += element("g", {"class": "peg-start", "opacity": 0.35},
                             piece(starts[content.name], "peg", *cell.centre), text=False)
            title += f"; {COLOURS[starts[content.name]]}'s peg starts here"
        pieces = "".join(piece_group(p.kind, p.seat, COLOURS[p.colour], piece(p.colour, p.kind, *cell.centre))
                         for p in content.pieces)
        drawings.append(CellDrawing(cell, None, pieces, title, under))
    picture.add_cells(drawings, marks)
    edge_coordinates(picture, cells, size, size, UNIT, [str(size - r) for r in range(size)],
                     list(GO_COLUMNS[:size]), UNIT * 1.05)
    hand = game.in_hand(view.data)
    scores = game.scores(view.data) or ()
    counts = [f"{SYMBOLS[s]} {COLOURS[s]} {hand[s]} in hand, territory {int(scores[s])}" for s in range(seats)]
    lines = [turn_text(view), " · ".join(counts),
             "A ring marks each starting peg, thick lines join each trunk (the pieces joined to the peg); "
             "small marks and shading: the territory each would score now."]
    legend = " · ".join(f"{SYMBOLS[s]} {COLOURS[s]}" for s in range(seats))
    picture.caption([f"{legend} · faint pegs: where the pegs start"] if blank else lines)
    title = f"{game.name}: {size}×{size}, {seats} players, {turn_text(view)}"
    territory = "; ".join(f"{COLOURS[s]} territory {int(scores[s])}" for s in range(seats))
    return picture, title, describe(view, contents, COLOURS, [f"{territory}."])


def piece(colour: int, kind: str, cx: float, cy: float) -> str:
    """A piece (or a starting peg, ringed) of ``colour`` centred on ``(cx, cy)``: the board and the counters."""
    style = STYLES[colour]
    r = UNIT * 0.42
    body = style.draw(cx, cy, r)
    if kind == "peg":
        body += element("circle", {"cx": cx, "cy": cy, "r": r * 0.42, "fill": "none", "stroke": style.ink,
                                   "stroke-width": r * 0.18, "class": "peg"})
    return body


def _trunk_lines(picture: Picture, trunks: list[tuple[str, ...]], centres: dict[str, tuple[float, float]]) -> None:
    """A thick line between each two neighbouring pieces of a trunk, under the pieces: the tree's branches."""
    parts = []
    for seat, names in enumerate(trunks):
        points = [centres[name] for name in names]
        path = "".join(f"M{number(ax)},{number(ay)}L{number(bx)},{number(by)}"
                       for i, (ax, ay) in enumerate(points) for bx, by in points[i + 1:]
                       if max(abs(ax - bx), abs(ay - by)) < UNIT * 1.5)
        if path:
            parts.append(element("path", {"d": path, "stroke": TRUNK_LINES[seat], "stroke-width": UNIT * 0.16,
                                          "stroke-linecap": "round", "fill": "none", "class": f"trunk seat-{seat}"}))
    picture.below.extend(parts)
