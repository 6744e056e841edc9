"""Möbiatus' print-and-play kit (:mod:`boardlab.printing.games`): the strip to print on both sides of one
sheet (pages 1 and 2), cut and glue into a Möbius strip; then the two flat boards with the flip at
the ends marked. It is played with a pencil: no counters."""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.games.mobiatus.strip_template import strip_template
from boardlab.printing.games import board_page, subtitle
from boardlab.printing.page import MARGIN, Page, Paper
from boardlab.render.sheets import note


def pages(game: Game, view: View, paper: Paper) -> list[Page]:
    return [*strip_pages(game, paper), board_page(game, view, paper, layout="faces")[0]]


def strip_pages(game: Game, paper: Paper) -> list[Page]:
    from boardlab.core.mobius import MobiusStrip

    strip = MobiusStrip(int(game.options["length"]), int(game.options["width"]))
    front = Page(paper, f"{game.name}: the strip, front (board F)", kind="strip-front")
    steps = ("Print pages 1 and 2 on the two sides of one sheet, flipping on the long edge (or print them "
             "apart and glue them back to back): each square of the back then lies behind the square of the "
             "front with the same column and row (B12c behind F12c); hold the sheet to the light to check.",
             "Cut out each piece of the strip along the solid lines, tabs included.",
             "If the strip comes in pieces, lay each join tab over the first column of the next piece, names on "
             "names, and glue.",
             "Give the strip a half twist and glue the red twist tab over B1, the first column's back, "
             "letters on letters (B1e on B1e). Play with a pencil: a dot for a piece, its circle on the other side, "
             "a cross for a singularity.")
    y = front.top
    texts = []
    for number, words in enumerate(steps, start=1):
        svg, y = note(MARGIN, y, front.inner_width, f"{number}. {words}", 3.0)
        texts.append(svg)
    for svg in texts:
        front.add(svg)
    top = y + 2.0
    template = strip_template(strip, paper.width, MARGIN, top, front.inner_width, front.bottom - 6.0 - top)
    front.add(template.front)
    back = Page(paper, f"{game.name}: the strip, back (board B)", kind="strip-back")
    subtitle(back, "Print on the back of page 1 (flip on the long edge). The hatched tabs' backs take the glue.")
    back.add(template.back)
    return [front, back]
