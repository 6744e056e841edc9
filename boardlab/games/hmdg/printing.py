"""HMDG's print-and-play kit (:mod:`boardlab.printing.games`): a record sheet for the referee and one for
each player, each with a board."""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.printing.games import subtitle
from boardlab.printing.page import MARGIN, Page, Paper
from boardlab.render import board_svg
from boardlab.render.sheets import table


def pages(game: Game, view: View, paper: Paper) -> list[Page]:
    return [record_sheet(game, view, paper, seat) for seat in (None, 0, 1)]


def record_sheet(game: Game, view: View, paper: Paper, seat: int | None) -> Page:
    who = "the referee's record" if seat is None else f"player's record, seat {seat} ({'AB'[seat]})"
    page = Page(paper, f"{game.name}: {who}", kind="record-referee" if seat is None else "record-player")
    if seat is None:
        subtitle(page, "Mark every stone on the board: x or o, a circle round it once revealed. In the table, "
                        "each turn: who moved, the secret target, the line announced, what the responder revealed, "
                        "the result (hidden, revealed, failed) and fives announced.")
        columns = [("Turn", 0.8), ("Mover", 1.0), ("Secret target", 1.4), ("Line announced", 1.5),
                   ("Revealed by responder", 2.4), ("Result", 1.5), ("Fives", 0.9)]
    else:
        first = "places the first x" if seat == 0 else "then chooses x or o"
        subtitle(page, f"Seat {seat} ({'AB'[seat]}) {first}. Keep this sheet hidden. Mark your own stones (a circle "
                        "once revealed) and every stone revealed by your opponent. Name: ______________  plays: x / o")
        columns = [("Turn", 0.8), ("Mine or theirs", 1.2), ("My target or their line", 2.0),
                   ("Revealed", 2.2), ("Result", 1.5), ("Fives", 0.9)]
    board = board_svg(view, theme="print", blank=True)
    box = page.place(board, page.top, max_height=(page.bottom - page.top) * 0.45)
    top = box.y + box.height + 3.0
    row_height = 6.0
    rows = int((page.bottom - 4.0 - top - row_height * 1.5) // row_height)
    svg, _ = table(MARGIN, top, page.inner_width, columns, rows, row_height)
    page.add(svg)
    return page
