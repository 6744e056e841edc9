"""What the last move took, for marking on a board: the cells where another seat's pieces were before it
and are gone after it (removed, or turned into the mover's), as the viewing seat knows them.

Pieces are compared by colour and kind, not seat, so a swap (which hands the colours to other seats)
takes nothing; the mover's own pieces leaving a cell (a step, a slide, a self-capture) are not captures.

>>> import boardlab
>>> state = boardlab.load("gtbm", size=4).new_game()
>>> for move in ("b1-a2", "c4-d3", "a2-b3", "d4-c3"):
...     state = state.play(move)
>>> captured_cells(state.view(None))
{}
>>> captured_cells(state.play("b3-c4xc3").view(None))
{'c3': 'captured by the last move: White piece'}
>>> pieces_on_board(state.play("b3-c4xc3").view(None))
{0: 4, 1: 3}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from boardlab.core.cells import CellContent
from boardlab.core.view import View


def captured_cells(view: View) -> dict[str, str]:
    """Cell → what ``view``'s last move took there ({} at the start, and where it took nothing)."""
    before = view.previous
    if before is None or view.last_move is None:
        return {}
    mover = before.to_move
    game = view.game
    now = game.cell_contents(view)
    after = {cell.name: {(piece.colour, piece.kind) for piece in cell.pieces} for cell in now}
    # Only kinds of piece there are fewer of: a push that moves others' pieces along (Mynd) takes nothing.
    fewer = _counts(game.cell_contents(before)) - _counts(now)
    taken: dict[str, str] = {}
    for cell in game.cell_contents(before):
        left = after.get(cell.name, set())
        lost = [piece for piece in cell.pieces if piece.seat is not None and piece.seat != mover
                and (piece.colour, piece.kind) in fewer and (piece.colour, piece.kind) not in left]
        if lost:
            names = ", ".join(f"{game.seat_label(before.data, piece.seat)} {piece.kind}" for piece in lost
                              if piece.seat is not None)
            taken[cell.name] = f"captured by the last move: {names}"
    return taken


def _counts(cells: Iterable[CellContent]) -> Counter[tuple[int, str]]:
    return Counter((piece.colour, piece.kind) for cell in cells for piece in cell.pieces)


def pieces_on_board(view: View) -> dict[int, int]:
    """Seat → how many of its pieces ``view``'s seat sees on the board."""
    counts = dict.fromkeys(range(view.game.num_seats), 0)
    for cell in view.game.cell_contents(view):
        for piece in cell.pieces:
            if piece.seat is not None:
                counts[piece.seat] = counts.get(piece.seat, 0) + 1
    return counts
