"""Horsmeier's print-and-play kit: the board, the pieces numbered 1–11 per colour, and a strength and
life-span track for each piece (:mod:`boardlab.printing.games`)."""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.games.horsmeier import render as horsmeier
from boardlab.printing.games import standard_pages, subtitle
from boardlab.printing.page import MARGIN, Page, Paper
from boardlab.render.sheets import INK
from boardlab.render.svg import element, group, label

STRENGTHS = (1, 2, 3, 5, 8)
LIFE = 11


def pages(game: Game, view: View, paper: Paper) -> list[Page]:
    return [*standard_pages(game, view, paper), tracks_page(game, view, paper)]


def tracks_page(game: Game, view: View, paper: Paper) -> Page:
    page = Page(paper, f"{game.name}: strength and life-span tracks", kind="tracks")
    subtitle(page, "One row per piece, numbered as the pieces. Shaded: where each starts. Move a coin or "
                    "pencil mark along each track as the piece upgrades, degrades and ages (a moved piece goes "
                    "back to 11; each other piece of the mover loses one).")
    pieces = []
    numbers: dict[int, int] = {}
    for content in game.cell_contents(view):
        for piece in content.pieces:
            numbers[piece.colour] = numbers.get(piece.colour, 0) + 1
            pieces.append((piece.colour, numbers[piece.colour], piece.numbers["strength"], content.name))
    row_height = min(9.0, (page.bottom - 6.0 - page.top) / (len(pieces) + 1))
    svg, _ = tracks(MARGIN, page.top, page.inner_width, pieces, row_height)
    page.add(svg)
    return page


def tracks(x: float, y: float, width: float, pieces: Sequence[tuple[int, int, int, str]],
                     row_height: float) -> tuple[str, float]:
    """A track per piece: ``(colour, number, strength, start square)``. Each row holds the piece's
    disc and number (as on its counter), its strength boxes 1 2 3 5 8 and its life-span boxes 11 … 0;
    the starting strength and life are ticked. Mark the current ones with a pencil or a coin."""
    label_width = row_height * 4.2
    gap = row_height * 0.6
    box = min(row_height * 0.9, (width - label_width - gap * 2) / (len(STRENGTHS) + LIFE + 1))
    size = box * 0.5
    strength_x = x + label_width
    life_x = strength_x + len(STRENGTHS) * box + gap * 2
    parts = [element("text", {"x": strength_x, "y": y + size, "font-size": size, "font-weight": "bold",
                              "fill": INK}, "strength"),
             element("text", {"x": life_x, "y": y + size, "font-size": size, "font-weight": "bold", "fill": INK},
                     "turns of life left")]
    top = y + size * 1.8
    for row, (colour, index, strength, square) in enumerate(pieces):
        row_top = top + row * row_height
        centre_y = row_top + box / 2
        style = horsmeier.STYLES[colour]
        cells = [style.draw(x + box / 2, centre_y, box * 0.45, width=0.25),
                 label(x + box / 2, centre_y, str(index), size, {"fill": style.ink, "font-weight": "bold"}),
                 element("text", {"x": x + box * 1.2, "y": centre_y + size * 0.35, "font-size": size * 0.9,
                                  "fill": INK}, f"{horsmeier.COLOURS[colour]}, {square}")]
        boxes = [(strength_x + k * box, value, value == strength) for k, value in enumerate(STRENGTHS)]
        boxes += [(life_x + k * box, LIFE - k, k == 0) for k in range(LIFE + 1)]
        for left, value, ticked in boxes:
            cells.append(element("rect", {"x": left, "y": row_top, "width": box, "height": box,
                                          "fill": "#D9D9D9" if ticked else "none", "stroke": INK,
                                          "stroke-width": 0.25}))
            cells.append(label(left + box / 2, centre_y, str(value), size, {"fill": INK}))
        parts.append(group({"class": "track", "data-track": f"{horsmeier.COLOURS[colour]} {index}"}, cells))
    return group({"class": "tracks"}, parts), top + len(pieces) * row_height
